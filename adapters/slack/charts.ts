// A reply with charts, sent to Slack: each chart uploaded first as a private file (upload.ts), then the one message that
// shows them (image blocks by file id). Shared by the outbox's poster (chat.postMessage) and a command's or button's
// reply (respond() to its response_url), so both show a chart the same way and fall back to its text the same way.
import type { KnownBlock } from '@slack/types';
import { webApi } from '@slack/bolt';
import type { Reply } from '../../src/bot/index.js';
import type { Block, ImageFile } from '../../src/views/model.js';
import { clampPlain, cutValue, orElse } from '../shared/text.js';
import { SLACK_LIMITS as L } from './limits.js';
import { plain } from './render-card.js';
import type { DataVisualizationBlock } from './render-chart.js';
import { chartMessages, renderSlackWithCharts, type SlackBlock } from './render.js';
import { sendWithFallback, type SendLog, type SlackPayload } from './send.js';
import { CHART_NOT_ATTACHED, type UploadResult } from './upload.js';

export interface ChartSendOptions {
  log: SendLog;
  /** Uploads one chart: a file id, or a refusal (the chart then shows as text); may throw (the caller's choice). */
  upload: (image: ImageFile) => Promise<UploadResult>;
  /** Whether a failure means Slack refused the content (a plainer form may pass); default: always. */
  isContentRefusal?: ((e: unknown) => boolean) | undefined;
  /** Whether a refusal may be of a file Slack has not finished processing (posted again after a wait). */
  mayBeUnreadyFile: (e: unknown) => boolean;
  /** The waits before posting again while a file may be processing; then the reply goes without its charts. */
  fileReadyWaitsMs: readonly number[];
  /** Sends a message after the reply (the charts it had no room for); absent: those charts show as pictures only. */
  followUp?: ((payload: SlackPayload) => Promise<unknown>) | undefined;
}

/** How much of the reply's text names it in a follow-up's "Charts of …". */
const FOLLOW_UP_NAME_MAX = 80;

/** Whether a reply has charts to upload. */
export const hasCharts = (reply: Reply): boolean => reply.blocks.some((b) => b.kind === 'image');

/** An `invalid_blocks` whose errors name a `slack_file` ("invalid slack file [json-pointer:/blocks/2/slack_file]"). */
export function refusesSlackFile(e: unknown): boolean {
  if (!(e instanceof webApi.WebAPIPlatformError)) return false;
  const data = e.data as { errors?: unknown; response_metadata?: { messages?: unknown } };
  return /slack_file/.test(JSON.stringify([data.errors ?? null, data.response_metadata?.messages ?? null]));
}

/** A chart as Block Kit: an image block showing an uploaded file, with its alt text and title. */
function imageBlock(image: ImageFile, fileId: string): KnownBlock {
  return {
    type: 'image',
    slack_file: { id: fileId },
    alt_text: clampPlain(orElse(image.alt, orElse(image.title, 'Chart')), L.imageAltText),
    ...(image.title.trim() ? { title: plain(image.title, L.imageAltText, 'Chart') } : {}),
  };
}

/** The reply with a note after each chart that `noted` says could not be attached (it shows its text fallback). */
function notingCharts(reply: Reply, noted: (image: ImageFile) => boolean): Reply {
  const blocks = reply.blocks.flatMap((b): Block[] =>
    b.kind === 'image' && noted(b.image) ? [b, { kind: 'context', text: CHART_NOT_ATTACHED }] : [b],
  );
  return { ...reply, blocks };
}

/**
 * Sends a reply with charts through `send`. A chart Slack does not allow (no `files:write`, uploads off, too large) is
 * left out and the message shows its text fallback with a note; whatever `upload` throws is thrown before any message.
 * Slack's own charts that had no room in the message go after it through `followUp` (see sendFollowUps).
 */
export async function sendWithCharts<T>(
  reply: Reply,
  send: (payload: SlackPayload) => Promise<T>,
  options: ChartSendOptions,
): Promise<T> {
  // Uploaded one by one: a failure that throws leaves at most the files before it as orphans, never a message.
  const files = new Map<ImageFile, string>();
  for (const block of reply.blocks) {
    if (block.kind !== 'image') continue;
    const upload = await options.upload(block.image);
    if (upload.kind === 'uploaded') files.set(block.image, upload.fileId);
    else
      options.log('slack: a chart could not be attached; it is posted as text', {
        chart: block.image.name,
        reason: upload.reason,
      });
  }
  if (files.size > 0) {
    const shown = await sendShowingFiles(reply, files, send, options);
    if (shown.posted) {
      await sendFollowUps(reply, shown.undrawn, options);
      return shown.result;
    }
  }
  // Without the charts: each shows its text fallback and says it could not be attached; plainer forms after that.
  const noted = notingCharts(reply, () => true);
  const result = await sendWithFallback(noted, send, { log: options.log, isContentRefusal: options.isContentRefusal });
  await sendFollowUps(reply, renderSlackWithCharts(noted).undrawn, options);
  return result;
}

/**
 * Slack's own charts the message had no room for (two a message at most, 50 blocks), in messages of their own after
 * it. Only ever after the message was posted, and never thrown: the delivery is the message, which already shows every
 * chart's picture, so a follow-up that fails (or is lost to a crash before it) is logged and never sent again, and
 * can never make the message itself be posted twice.
 */
async function sendFollowUps(reply: Reply, charts: readonly DataVisualizationBlock[], options: ChartSendOptions) {
  if (!options.followUp || charts.length === 0) return;
  for (const message of chartMessages(charts, cutValue(reply.text, FOLLOW_UP_NAME_MAX))) {
    try {
      await options.followUp(message);
    } catch (e) {
      options.log('slack: a follow-up with charts was refused; their pictures are in the message', { error: e });
      return;
    }
  }
}

/**
 * Sends the reply with its uploaded files as image blocks. A file Slack has not finished processing is refused as an
 * invalid `slack_file`: sent again after a short wait (a refused message posted nothing). Resolves `posted: false` when
 * Slack refused the content all the same (the caller sends without the charts); throws any other failure.
 */
async function sendShowingFiles<T>(
  reply: Reply,
  files: ReadonlyMap<ImageFile, string>,
  send: (payload: SlackPayload) => Promise<T>,
  options: ChartSendOptions,
): Promise<{ posted: true; result: T; undrawn: DataVisualizationBlock[] } | { posted: false }> {
  // renderSlack draws each image block as its text, as one block: the block of each uploaded picture becomes the image
  // block that shows the file, so the message keeps the length it was fitted to (whatever render.ts cut or kept).
  const rendered = renderSlackWithCharts(notingCharts(reply, (image) => !files.has(image)));
  const blocks = rendered.blocks.map((b): SlackBlock => {
    const image = rendered.pictures.get(b);
    const fileId = image && files.get(image);
    return image && fileId ? imageBlock(image, fileId) : b;
  });
  const waits = options.fileReadyWaitsMs;
  for (let attempt = 0; ; attempt++) {
    try {
      return { posted: true, result: await send({ text: rendered.text, blocks }), undrawn: rendered.undrawn };
    } catch (e) {
      options.log('slack refused a reply with its charts', { attempt: attempt + 1, error: e });
      if (options.isContentRefusal && !options.isContentRefusal(e)) throw e;
      if (!options.mayBeUnreadyFile(e) || attempt >= waits.length) return { posted: false };
      await new Promise((r) => setTimeout(r, waits[attempt]));
    }
  }
}
