// A command's or a button's reply, sent back through its response_url (respond()). A reply with charts uploads each
// as a private file with the workspace's token and shows it in the reply itself (charts.ts, as the poster does), so the
// chart goes wherever the reply goes: the channel, a thread, or only the person who asked. An upload Slack refuses
// (no `files:write`, uploads off) or that fails leaves the chart as its text, noted; the person always gets the answer.
import type { RespondArguments, RespondFn } from '@slack/bolt';
import type { Reply } from '../../src/bot/index.js';
import type { ImageFile } from '../../src/views/model.js';
import { hasCharts, sendWithCharts } from './charts.js';
import type { SlackClients } from './poster.js';
import { sendWithFallback, type SendLog, type SlackPayload } from './send.js';
import { uploadImage, type UploadResult } from './upload.js';

/**
 * One wait before showing an uploaded file again: a response_url takes 5 messages, and after the refused one with the
 * charts (and its retry) the three forms without them must still fit.
 */
const REPLY_FILE_READY_WAITS_MS = [1_500];

export interface SendOptions {
  /** For a button press: false to post a new (ephemeral) message instead of editing. */
  replaceOriginal?: boolean;
  log: SendLog;
  /** Where a reply's charts are uploaded from: the clients and the workspace the request came from. */
  charts?: { clients: SlackClients; teamId: string | undefined };
}

/** Uploads a chart with the workspace's client; any failure becomes a refusal, so the reply still goes (as text). */
async function uploadForReply(charts: SendOptions['charts'], image: ImageFile): Promise<UploadResult> {
  try {
    const client = charts?.teamId ? await charts.clients.forTeam(charts.teamId) : undefined;
    if (!client) return { kind: 'refused', reason: 'no client for the workspace' };
    return await uploadImage(client, image);
  } catch (e) {
    return { kind: 'refused', reason: e instanceof Error ? e.message : String(e) };
  }
}

/** Answers through a response_url; a reply Slack refused in every form is logged, never thrown into Bolt. */
export async function sendReply(respond: RespondFn, reply: Reply, options: SendOptions): Promise<void> {
  const envelope: Partial<RespondArguments> =
    reply.replaceOriginal && options.replaceOriginal !== false
      ? { replace_original: true }
      : { response_type: reply.ephemeral ? 'ephemeral' : 'in_channel', replace_original: false };
  const send = (payload: SlackPayload) => respond({ ...envelope, ...payload } as RespondArguments);
  try {
    if (hasCharts(reply))
      await sendWithCharts(reply, send, {
        log: options.log,
        upload: (image) => uploadForReply(options.charts, image),
        // A response_url answers a refusal with a bare `invalid_blocks`: a file still processing looks the same.
        mayBeUnreadyFile: () => true,
        fileReadyWaitsMs: REPLY_FILE_READY_WAITS_MS,
      });
    else await sendWithFallback(reply, send, { log: options.log });
  } catch {
    // Already logged, attempt by attempt.
  }
}
