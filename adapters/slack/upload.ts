// A chart reaches Slack as a private file: the files upload v2 flow (files.getUploadURLExternal, the bytes POSTed to
// the
// upload URL it gives, files.completeUploadExternal without a channel), then shown by the one message that carries the
// delivery id (an image block with `slack_file`). The file is shared with no channel on its own, so the upload and the
// message are one delivery: a message is looked for by its metadata, and an upload whose message never came (a crash,
// a failure after it) is an orphan private file nobody sees. files.upload is gone; it is not used.
import type { webApi } from '@slack/bolt';
import type { ImageFile } from '../../src/views/model.js';
import { PostFailure } from '../../src/ports/index.js';
import { SLACK_DEFAULT_WAIT_MS, ruleForCode, slackErrorCode, slackOutcome } from './outcomes.js';
import { clampPlain } from '../shared/text.js';

type WebClient = webApi.WebClient;

/** What the upload came to: a completed private file, or Slack not allowing it (the message goes without the chart). */
export type UploadResult = { kind: 'uploaded'; fileId: string } | { kind: 'refused'; reason: string };

export interface UploadOptions {
  /** The POST of the bytes fails after this long (default 20 s). */
  timeoutMs?: number;
}

/** What the message says where its chart could not be attached. */
export const CHART_NOT_ATTACHED = '(the chart could not be attached)';

/**
 * Error codes with which Slack does not allow this upload, and will not the next time either: the workspace or the app
 * may not upload files (`not_allowed`, a token without `files:write` as `missing_scope`, uploads disabled by an admin),
 * or this file is refused (too large, storage full). The digest is posted without its chart rather than held.
 * Besides these, any code the outcome table calls `rejected` or `channel_unavailable` (a private upload has no channel:
 * those say the call or the permission is wrong) is a refusal too.
 */
export const UPLOAD_REFUSAL_CODES: ReadonlySet<string> = new Set([
  'not_allowed',
  'missing_scope',
  'no_permission',
  'access_denied',
  'restricted_action',
  'file_uploads_disabled',
  'file_uploads_except_images_disabled',
  'file_upload_size_restricted',
  'file_too_large',
  'storage_limit_reached',
  'ekm_access_denied',
]);

/** HTTP statuses of the upload URL that mean this file will never be taken (too large). */
const REFUSING_STATUSES = new Set([413]);

/**
 * The outcome of a failure before any message was sent: `maybe_posted` becomes `retry` (Slack cannot have posted a
 * message it was never asked for; the outbox sends the whole delivery again, after a look if an earlier attempt was
 * uncertain), the rest stays as the table says (`wait` for a rate limit, `credentials_refused` for a refused token).
 */
function beforeAnyMessage(failure: PostFailure, step: string): PostFailure {
  const outcome = failure.outcome === 'maybe_posted' ? 'retry' : failure.outcome;
  return new PostFailure(failure.message.replace(/^slack: /, `slack: ${step}: `), outcome, failure.retryAfterMs);
}

/** A Web API call of the flow failed: a refusal (resolved), or a PostFailure (thrown). */
function webApiFailure(e: unknown, step: string): UploadResult {
  const code = slackErrorCode(e);
  if (code !== undefined) {
    const { outcome } = ruleForCode(code);
    if (UPLOAD_REFUSAL_CODES.has(code) || outcome === 'rejected' || outcome === 'channel_unavailable') {
      return { kind: 'refused', reason: `${step} answered ${code}` };
    }
  }
  throw beforeAnyMessage(slackOutcome(e), step);
}

/** The Retry-After of an answer in ms, or Slack's default wait. */
function retryAfterMs(res: Response): number {
  const seconds = Number(res.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds >= 0 && res.headers.get('retry-after') !== null
    ? seconds * 1000
    : SLACK_DEFAULT_WAIT_MS;
}

/** POSTs the bytes to the upload URL. Resolves when taken, or with a refusal; throws a PostFailure otherwise. */
async function postBytes(
  url: string,
  bytes: Buffer,
  name: string,
  timeoutMs: number,
): Promise<UploadResult | undefined> {
  let res: Response;
  try {
    // Raw bytes, as @slack/web-api's filesUploadV2 sends them; the URL is signed, so no token goes with it.
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: bytes,
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.arrayBuffer().catch(() => undefined);
  } catch (e) {
    throw beforeAnyMessage(slackOutcome(e), 'the upload');
  }
  if (res.status >= 200 && res.status < 300) return undefined;
  if (REFUSING_STATUSES.has(res.status))
    return { kind: 'refused', reason: `the upload of ${name} answered HTTP ${res.status}` };
  if (res.status === 429)
    throw new PostFailure(`slack: the upload answered HTTP 429 (rate limited)`, 'wait', retryAfterMs(res));
  // A 5xx (Slack's file service failing), or a 4xx (an upload URL that expired, a proxy): a fresh upload may pass.
  throw new PostFailure(`slack: the upload answered HTTP ${res.status}: uploaded again with the delivery`, 'retry');
}

/**
 * Uploads one image as a private file (shared with no channel) and completes it. Resolves with its file id, or with a
 * refusal when Slack does not allow it; throws a PostFailure (`retry`, `wait`, `credentials_refused`) when it failed
 * in a way a later attempt may not.
 */
export async function uploadImage(
  client: WebClient,
  image: ImageFile,
  options: UploadOptions = {},
): Promise<UploadResult> {
  const bytes = Buffer.from(image.pngBase64, 'base64');
  if (bytes.length === 0) return { kind: 'refused', reason: `${image.name} is empty` };
  const filename = image.name.trim() || 'chart.png';

  let target: { url: string; fileId: string };
  try {
    const res = await client.files.getUploadURLExternal({
      filename,
      length: bytes.length,
      alt_text: clampPlain(image.alt, 1_000),
    });
    if (!res.upload_url || !res.file_id)
      throw new PostFailure('slack: files.getUploadURLExternal answered ok without an upload URL', 'retry');
    target = { url: res.upload_url, fileId: res.file_id };
  } catch (e) {
    if (e instanceof PostFailure) throw e;
    return webApiFailure(e, 'files.getUploadURLExternal');
  }

  const refused = await postBytes(target.url, bytes, filename, options.timeoutMs ?? 20_000);
  if (refused) return refused;

  try {
    // No channel_id: the file stays private until the message shows it.
    await client.files.completeUploadExternal({
      files: [{ id: target.fileId, title: clampPlain(image.title.trim() || filename, 250) }],
    });
  } catch (e) {
    return webApiFailure(e, 'files.completeUploadExternal');
  }
  return { kind: 'uploaded', fileId: target.fileId };
}
