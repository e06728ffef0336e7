// Alerts and digests reach Slack here: the ChatPoster port, over chat.postMessage, each message tagged with its
// delivery id (message metadata) so that after a crash the outbox can ask whether a delivery already landed.
import { webApi } from '@slack/bolt';
import { PostFailure, type ChatPoster, type Reply } from '../../src/bot/index.js';
import { parseSlackPlace } from './place.js';
import { sendWithFallback, type SendLog } from './send.js';

type WebClient = webApi.WebClient;

/** The metadata event every alert carries; findDelivered looks for it. */
export const ALERT_EVENT_TYPE = 'manzil_alert';

/** Slack refused the message itself: a plainer form of the same reply may pass. */
const CONTENT_ERRORS = new Set(['invalid_blocks', 'invalid_blocks_format', 'msg_too_long', 'msg_blocks_too_long', 'no_text', 'invalid_attachments', 'too_many_attachments']);
/** Retrying cannot help until a person acts (invite the app, unarchive, reinstall). */
const PERMANENT_ERRORS = new Set([
  'channel_not_found', 'not_in_channel', 'is_archived', 'invalid_auth', 'not_authed', 'account_inactive', 'token_revoked',
  'token_expired', 'no_permission', 'missing_scope', 'restricted_action', 'team_access_not_granted', 'ekm_access_denied',
  'invalid_metadata_format', 'invalid_metadata_schema', 'metadata_too_large', 'invalid_arguments',
  ...CONTENT_ERRORS,
]);
/** conversations.history pages read when looking for a delivery, at most (200 messages each). */
const HISTORY_PAGES = 10;

const platformError = (e: unknown): string | undefined =>
  e instanceof webApi.WebAPIPlatformError ? e.data.error : undefined;

/** Any Web API failure as a PostFailure, with Slack's error code and never a token. */
export function toPostFailure(e: unknown): PostFailure {
  if (e instanceof PostFailure) return e;
  if (e instanceof webApi.WebAPIRateLimitedError) {
    return new PostFailure(`slack: rate limited for ${e.retryAfter} s`, { retryAfterMs: e.retryAfter * 1000 });
  }
  const code = platformError(e);
  if (code === 'ratelimited') return new PostFailure('slack: ratelimited');
  if (code !== undefined) return new PostFailure(`slack: ${code}`, PERMANENT_ERRORS.has(code) ? { permanent: true } : {});
  // A 5xx, a timeout or a dropped connection: Slack may have posted the message before the answer was lost.
  if (e instanceof webApi.WebAPIHTTPError) return new PostFailure(`slack: HTTP ${e.statusCode}`, e.statusCode >= 500 ? { maybeDelivered: true } : {});
  if (e instanceof webApi.WebAPIRequestError) return new PostFailure(`slack: request failed (${e.original.message})`, { maybeDelivered: true });
  return new PostFailure(`slack: ${e instanceof Error ? e.message : String(e)}`, { maybeDelivered: true });
}

/** Where a place's messages go, or a permanent failure for a place that is not Slack's. */
function channelOf(place: string): string {
  const parsed = parseSlackPlace(place);
  if (!parsed) throw new PostFailure('slack: not a Slack place', { permanent: true });
  return parsed.channelId;
}

interface HistoryMessage {
  ts?: string;
  metadata?: { event_type?: string; event_payload?: Record<string, unknown> };
}

export class SlackPoster implements ChatPoster {
  readonly platform = 'slack';

  /** `client` must not retry by itself and must reject rate-limited calls: the outbox retries (see postingClient). */
  constructor(
    private readonly client: WebClient,
    private readonly log: SendLog = () => {},
  ) {}

  async post(place: string, reply: Reply, deliveryId: string): Promise<{ messageId: string }> {
    const channel = channelOf(place);
    const metadata = { event_type: ALERT_EVENT_TYPE, event_payload: { delivery_id: deliveryId } };
    try {
      const res = await sendWithFallback(reply, (payload) => this.client.chat.postMessage({ channel, ...payload, metadata }), {
        log: this.log,
        isContentRefusal: (e) => CONTENT_ERRORS.has(platformError(e) ?? ''),
      });
      if (!res.ts) throw new PostFailure('slack: chat.postMessage answered without a ts');
      return { messageId: res.ts };
    } catch (e) {
      throw toPostFailure(e);
    }
  }

  /**
   * The ts of a message in the place tagged with this delivery; null when none; undefined when Slack cannot say. Asked
   * after a crash mid-post and before re-sending a post that timed out (it may have landed).
   */
  async findDelivered(place: string, deliveryId: string, sinceMs: number): Promise<string | null | undefined> {
    const channel = parseSlackPlace(place)?.channelId;
    if (!channel) return undefined;
    let cursor: string | undefined;
    try {
      for (let page = 0; page < HISTORY_PAGES; page++) {
        const res = await this.client.conversations.history({
          channel,
          oldest: (sinceMs / 1000).toFixed(6),
          include_all_metadata: true,
          limit: 200,
          ...(cursor ? { cursor } : {}),
        });
        const found = ((res.messages ?? []) as HistoryMessage[]).find(
          (m) => m.metadata?.event_type === ALERT_EVENT_TYPE && m.metadata.event_payload?.delivery_id === deliveryId,
        );
        if (found?.ts) return found.ts;
        cursor = res.response_metadata?.next_cursor || undefined;
        if (!res.has_more || !cursor) return null;
      }
      return undefined; // more history than we read: cannot tell
    } catch (e) {
      // missing_scope (the app was installed before it asked for history) or any failure: the outbox re-sends.
      this.log('slack: could not read history to find a delivery', { error: platformError(e) ?? toPostFailure(e).message });
      return undefined;
    }
  }
}

export interface PostingClientOptions {
  apiUrl?: string | undefined;
  logger?: webApi.Logger | undefined;
  /** A post that gets no answer fails after this long (it may still have landed: findDelivered tells). */
  timeoutMs?: number | undefined;
}

/** A Web API client for posting: no retries of its own and 429s rejected at once, since the outbox retries. */
export function postingClient(botToken: string, options: PostingClientOptions = {}): WebClient {
  return new webApi.WebClient(botToken, {
    ...(options.apiUrl ? { slackApiUrl: options.apiUrl } : {}),
    ...(options.logger ? { logger: options.logger } : { logLevel: webApi.LogLevel.ERROR }),
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: options.timeoutMs ?? 30_000,
  });
}
