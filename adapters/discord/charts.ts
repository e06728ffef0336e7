// A reply with charts, sent to Discord: each chart a PNG file in the message's own request (multipart), shown by its
// embed (`attachment://name`). Shared by the outbox's poster (a channel message) and an interaction's answer (the
// reply, its edit or a follow-up), so a chart reaches Discord the same way from both, and falls back the same way.
import { DiscordAPIError } from 'discord.js';
import type { Reply } from '../../src/bot/index.js';
import type { Block } from '../../src/views/model.js';
import { renderDiscordWithFiles, type DiscordFile } from './render.js';
import {
  describeError,
  goesAsV2,
  isContentRefusal,
  sendWithFallback,
  type DiscordForm,
  type DiscordPayload,
  type SendLog,
} from './send.js';

/** What the message says where its chart could not be attached. */
export const CHART_NOT_ATTACHED = '(the chart could not be attached)';

/**
 * Discord's JSON codes that refuse a message's files rather than the message: too large (40005, 50045), an upload it
 * lost (50146), or Missing Permissions (50013: Attach Files, when the bot may still send text; if it may not, the
 * message without files is refused too, and that answer is the outcome).
 */
const FILE_REFUSAL_CODES = new Set([40005, 50045, 50146, 50013]);

/** Discord refused the files, or the message with them (a 400): the message is sent again without them. */
function refusesFiles(e: unknown): boolean {
  return (
    isContentRefusal(e) ||
    (e instanceof DiscordAPIError && (e.status === 413 || FILE_REFUSAL_CODES.has(Number(e.code))))
  );
}

/** The reply with each chart shown as its text fallback, followed by a note that it could not be attached. */
function withChartsNoted(reply: Reply): Reply {
  return {
    ...reply,
    blocks: reply.blocks.flatMap((b): Block[] =>
      b.kind === 'image' ? [b, { kind: 'context', text: CHART_NOT_ATTACHED }] : [b],
    ),
  };
}

/**
 * Delivers the reply through `deliver`: with its charts as files when it has any; when Discord refuses them, with each
 * chart's text and a note; then plainer forms (sendWithFallback). Throws what is not a refusal of the content. A reply
 * that goes as Components V2 (`form`, see send.ts) shows a chart as its words: it has no embed to show the file in.
 */
export async function sendWithCharts<T>(
  reply: Reply,
  deliver: (message: DiscordPayload, files: readonly DiscordFile[]) => Promise<T>,
  log: SendLog,
  form: DiscordForm = 'auto',
): Promise<T> {
  if (goesAsV2(reply, form)) return sendWithFallback(reply, (m) => deliver(m, []), log, 'v2');
  if (reply.blocks.some((b) => b.kind === 'image')) {
    const { message, files } = renderDiscordWithFiles(reply);
    if (files.length > 0) {
      try {
        return await deliver(message, files);
      } catch (e) {
        if (!refusesFiles(e)) throw e;
        log('discord refused a message with its charts; it is posted with their text', { error: describeError(e) });
      }
    }
    reply = withChartsNoted(reply);
  }
  return sendWithFallback(reply, (m) => deliver(m, []), log, 'embeds');
}
