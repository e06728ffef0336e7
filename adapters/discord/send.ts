// Sending a Reply to Discord, as an interaction's answer or a channel message alike: embeds first; if Discord refuses
// the
// message (400: a field it will not take, an image URL it dislikes), the same reply without images, then plain text,
// so the person always gets an answer. The chain itself is shared (adapters/shared/fallback); Discord gives it its
// forms, what counts as a refusal, and its log line.
import { DiscordAPIError, MessageFlags, type BaseMessageOptions } from 'discord.js';
import type { Reply } from '../../src/bot/index.js';
import { sendWithFallback as sendForms, type Forms } from '../shared/fallback.js';
import { plainText, renderDiscord, type DiscordFile, type DiscordMessage } from './render.js';
import { plainTextV2, prefersComponentsV2, renderDiscordV2, type DiscordV2Message } from './render-v2.js';

/** A message as sent: content and embeds, or Components V2 (its flag set, no content or embeds). */
export type DiscordPayload = DiscordMessage | DiscordV2Message;

/**
 * Which form a reply goes in: `auto` as Components V2 when it has listings (a search's page) and embeds otherwise;
 * `embeds` always (channel posts: alerts and digests, whose notification needs the text that V2 lacks, and a message
 * first sent with embeds, which an edit may turn to V2 only by clearing its content); `v2` always (an edit of a V2
 * message: Discord never lets the flag be removed).
 */
export type DiscordForm = 'auto' | 'embeds' | 'v2';

export const isV2 = (m: DiscordPayload): m is DiscordV2Message => 'flags' in m;

/** Whether a reply in `form` goes as Components V2. */
export const goesAsV2 = (reply: Reply, form: DiscordForm): boolean =>
  form === 'v2' || (form === 'auto' && prefersComponentsV2(reply));

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

const DISCORD_FORMS: Forms<DiscordPayload> = { render: renderDiscord, textOnly: plainText };
const V2_FORMS: Forms<DiscordPayload> = { render: renderDiscordV2, textOnly: plainTextV2 };

/**
 * Delivers the reply through `deliver`, each form after the last was refused: as is, without images, text only.
 * Throws at once when a failure is not a refusal of the content (a plainer message cannot help), else the last error.
 */
export function sendWithFallback<T>(
  reply: Reply,
  deliver: (message: DiscordPayload) => Promise<T>,
  log: SendLog,
  form: DiscordForm = 'auto',
): Promise<T> {
  return sendForms(reply, goesAsV2(reply, form) ? V2_FORMS : DISCORD_FORMS, deliver, {
    isContentRefusal,
    onFailure: (error, attempt) => log('discord refused a message', { attempt, error: describeError(error) }),
  });
}

export interface OptionsFor {
  /** Only the person sees it (an interaction's reply or follow-up). */
  ephemeral?: boolean | undefined;
  /** An edit: a V2 message clears the embeds an earlier form may have left (Discord wants them empty). */
  edit?: boolean | undefined;
}

/**
 * The message as discord.js's interaction methods take it (they build the JSON body themselves, and the attachments'
 * list from `files`, in order, with each chart's alt text). A V2 message carries its flag (with Ephemeral when asked)
 * and no content; discord.js sends the flags as given.
 */
export function messageOptions(
  m: DiscordPayload,
  files: readonly DiscordFile[] = [],
  options: OptionsFor = {},
): BaseMessageOptions & { flags?: number } {
  const ephemeral = options.ephemeral ? MessageFlags.Ephemeral : 0;
  if (isV2(m)) {
    return {
      components: m.components,
      allowedMentions: { parse: [] },
      flags: m.flags | ephemeral,
      ...(options.edit ? { embeds: [] } : {}),
    };
  }
  const described = (name: string) => m.attachments?.find((a) => a.filename === name)?.description;
  return {
    content: m.content,
    embeds: m.embeds,
    components: m.components,
    allowedMentions: { parse: [] },
    ...(ephemeral ? { flags: ephemeral } : {}),
    ...(files.length > 0
      ? { files: files.map((f) => ({ attachment: f.data, name: f.name, description: described(f.name) })) }
      : {}),
  };
}
