// A reply with charts, sent to Slack: each chart uploaded first as a private file (upload.ts), then the one message that
// shows them (image blocks by file id). Shared by the outbox's poster (chat.postMessage) and a command's or button's
// reply (respond() to its response_url), so both show a chart the same way and fall back to its text the same way.
import { randomUUID } from 'node:crypto';
import type { KnownBlock } from '@slack/types';
import { webApi } from '@slack/bolt';
import type { Reply } from '../../src/bot/index.js';
import { imageFallback, type Block, type ImageFile } from '../../src/views/model.js';
import { clampPlain, orElse } from '../shared/text.js';
import { SLACK_LIMITS as L } from './limits.js';
import { plain } from './render-card.js';
import { chartBlock } from './render-chart.js';
import { renderSlack, type SlackBlock } from './render.js';
import { escapeMrkdwn } from './render-text.js';
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
}

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

/**
 * The reply with a note after each chart that `noted(index)` says could not be attached (it shows its text fallback),
 * and each image block passed through `image` (default: as is).
 */
function notingCharts(
  reply: Reply,
  noted: (index: number) => boolean,
  image: (block: Extract<Block, { kind: 'image' }>, index: number) => Block = (b) => b,
): Reply {
  const blocks = reply.blocks.flatMap((b, i): Block[] => {
    if (b.kind !== 'image') return [b];
    return noted(i) ? [image(b, i), { kind: 'context', text: CHART_NOT_ATTACHED }] : [image(b, i)];
  });
  return { ...reply, blocks };
}

/**
 * Sends a reply with charts through `send`. A chart Slack does not allow (no `files:write`, uploads off, too large) is
 * left out and the message shows its text fallback with a note; whatever `upload` throws is thrown before any message.
 */
export async function sendWithCharts<T>(
  reply: Reply,
  send: (payload: SlackPayload) => Promise<T>,
  options: ChartSendOptions,
): Promise<T> {
  // Uploaded one by one: a failure that throws leaves at most the files before it as orphans, never a message.
  const files = new Map<number, string>();
  for (const [i, block] of reply.blocks.entries()) {
    if (block.kind !== 'image') continue;
    const upload = await options.upload(block.image);
    if (upload.kind === 'uploaded') files.set(i, upload.fileId);
    else
      options.log('slack: a chart could not be attached; it is posted as text', {
        chart: block.image.name,
        reason: upload.reason,
      });
  }
  if (files.size > 0) {
    const shown = await sendShowingFiles(reply, files, send, options);
    if (shown.posted) return shown.result;
  }
  // Without the charts: each shows its text fallback and says it could not be attached; plainer forms after that.
  return sendWithFallback(
    notingCharts(reply, () => true),
    send,
    { log: options.log, isContentRefusal: options.isContentRefusal },
  );
}

/**
 * Sends the reply with its uploaded files as image blocks. A file Slack has not finished processing is refused as an
 * invalid `slack_file`: sent again after a short wait (a refused message posted nothing). Resolves `posted: false` when
 * Slack refused the content all the same (the caller sends without the charts); throws any other failure.
 */
async function sendShowingFiles<T>(
  reply: Reply,
  files: ReadonlyMap<number, string>,
  send: (payload: SlackPayload) => Promise<T>,
  options: ChartSendOptions,
): Promise<{ posted: true; result: T } | { posted: false }> {
  // renderSlack draws every image block as its text fallback: each uploaded chart goes in as a stand-in whose text is
  // a unique mark, and the section that shows the mark becomes the image block (whatever else render.ts cut or kept).
  const mark = `manzil-chart-${randomUUID()}-`;
  const images = new Map<string, { image: ImageFile; fileId: string }>();
  const marked = notingCharts(
    reply,
    (i) => !files.has(i),
    (block, i) => {
      const fileId = files.get(i);
      if (fileId === undefined) return block;
      // The stand-in draws no chart of its own: the image's chart block is put back beside it below.
      const { data: _data, ...image } = block.image;
      const stand = { ...image, title: `${mark}${i}`, fallback: '' };
      images.set(escapeMrkdwn(imageFallback(stand)), { image: block.image, fileId });
      return { kind: 'image', image: stand };
    },
  );
  const rendered = renderSlack(marked);
  let drawn = rendered.blocks.filter((b) => b.type === 'data_visualization').length;
  const blocks = rendered.blocks.flatMap((b): SlackBlock[] => {
    const found = b.type === 'section' && b.text ? images.get(b.text.text) : undefined;
    if (!found) return [b];
    const chart = drawn < L.chartsPerMessage ? chartBlock(found.image) : undefined;
    if (chart) drawn++;
    return [...(chart ? [chart] : []), imageBlock(found.image, found.fileId)];
  });
  const waits = options.fileReadyWaitsMs;
  for (let attempt = 0; ; attempt++) {
    try {
      return { posted: true, result: await send({ text: rendered.text, blocks }) };
    } catch (e) {
      options.log('slack refused a reply with its charts', { attempt: attempt + 1, error: e });
      if (options.isContentRefusal && !options.isContentRefusal(e)) throw e;
      if (!options.mayBeUnreadyFile(e) || attempt >= waits.length) return { posted: false };
      await new Promise((r) => setTimeout(r, waits[attempt]));
    }
  }
}
