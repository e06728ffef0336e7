// Sending a Reply to Discord, as an interaction's answer or a channel message alike: embeds first; if Discord refuses the
// message (400: a field it will not take, an image URL it dislikes), the same reply without images, then plain text,
// so the person always gets an answer.
import { DiscordAPIError, type BaseMessageOptions } from 'discord.js';
import type { Reply } from '../../src/bot/index.js';
import { plainText, renderDiscord, withoutImages, type DiscordMessage } from './render.js';

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

/**
 * Delivers the reply through `deliver`, each form after the last was refused: as is, without images, text only.
 * Throws at once when a failure is not a refusal of the content (a plainer message cannot help), else the last error.
 */
export async function sendWithFallback<T>(reply: Reply, deliver: (message: DiscordMessage) => Promise<T>, log: SendLog): Promise<T> {
  const forms: (() => DiscordMessage)[] = [() => renderDiscord(reply), () => renderDiscord(withoutImages(reply)), () => plainText(reply)];
  let last: unknown;
  for (const [i, build] of forms.entries()) {
    try {
      return await deliver(build());
    } catch (e) {
      last = e;
      log('discord refused a message', { attempt: i + 1, error: describeError(e) });
      if (!isContentRefusal(e)) break;
    }
  }
  throw last;
}

/** The message as discord.js's interaction methods take it (they build the JSON body themselves). */
export function messageOptions(m: DiscordMessage): BaseMessageOptions {
  return { content: m.content, embeds: m.embeds, components: m.components, allowedMentions: { parse: [] } };
}
