// Sending a Reply to Discord, as an interaction's answer or a channel message alike: embeds first; if Discord refuses
// the
// message (400: a field it will not take, an image URL it dislikes), the same reply without images, then plain text,
// so the person always gets an answer. The chain itself is shared (adapters/shared/fallback); Discord gives it its
// forms, what counts as a refusal, and its log line.
import { DiscordAPIError, type BaseMessageOptions } from 'discord.js';
import type { Reply } from '../../src/bot/index.js';
import { sendWithFallback as sendForms, type Forms } from '../shared/fallback.js';
import { plainText, renderDiscord, type DiscordFile, type DiscordMessage } from './render.js';

export type SendLog = (message: string, fields: Record<string, unknown>) => void;

/** Discord refused the message itself (400 Invalid Form Body and kin): a plainer form of the same reply may pass. */
export function isContentRefusal(e: unknown): boolean {
  return e instanceof DiscordAPIError && e.status === 400;
}

/** Discord's error code and status, never a token (REST errors carry the request URL, which for webhooks holds one). */
export function describeError(e: unknown): string {
  if (e instanceof DiscordAPIError) return `HTTP ${e.status}, Discord code ${e.code}: ${e.message}`;
  if (e instanceof Error) return `${e.name}: ${e.message}`.replace(/\/webhooks\/\d+\/[\w-]+/g, '/webhooks/…');
  return String(e);
}

const DISCORD_FORMS: Forms<DiscordMessage> = { render: renderDiscord, textOnly: plainText };

/**
 * Delivers the reply through `deliver`, each form after the last was refused: as is, without images, text only.
 * Throws at once when a failure is not a refusal of the content (a plainer message cannot help), else the last error.
 */
export function sendWithFallback<T>(
  reply: Reply,
  deliver: (message: DiscordMessage) => Promise<T>,
  log: SendLog,
): Promise<T> {
  return sendForms(reply, DISCORD_FORMS, deliver, {
    isContentRefusal,
    onFailure: (error, attempt) => log('discord refused a message', { attempt, error: describeError(error) }),
  });
}

/**
 * The message as discord.js's interaction methods take it (they build the JSON body themselves, and the attachments'
 * list from `files`, in order, with each chart's alt text).
 */
export function messageOptions(m: DiscordMessage, files: readonly DiscordFile[] = []): BaseMessageOptions {
  const described = (name: string) => m.attachments?.find((a) => a.filename === name)?.description;
  return {
    content: m.content,
    embeds: m.embeds,
    components: m.components,
    allowedMentions: { parse: [] },
    ...(files.length > 0
      ? { files: files.map((f) => ({ attachment: f.data, name: f.name, description: described(f.name) })) }
      : {}),
  };
}
