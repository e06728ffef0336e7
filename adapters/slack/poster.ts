// Alerts and digests reach Slack here: the ChatPoster port, over chat.postMessage, each message tagged with its
// delivery id (message metadata) so that after a crash the outbox can ask whether a delivery already landed. A reply
// with a chart uploads it first as a private file (upload.ts) and shows it in that same message, so the upload and the
// message are one delivery, looked for as one.
import { webApi } from '@slack/bolt';
import type { Reply } from '../../src/bot/index.js';
import {
  PostFailure,
  type ChatPoster,
  type CredentialsCheck,
  type LookupRequest,
  type LookupResult,
} from '../../src/ports/index.js';
import { SLACK_ERROR_CODES, ruleForCode, slackErrorCode, slackOutcome } from './outcomes.js';
import { parseSlackChannel } from './channel.js';
import { hasCharts, refusesSlackFile, sendWithCharts } from './charts.js';
import { sendWithFallback, type SendLog, type SlackPayload } from './send.js';
import { uploadImage } from './upload.js';

type WebClient = webApi.WebClient;

/** The metadata event every alert carries; findDelivered looks for it. */
export const ALERT_EVENT_TYPE = 'manzil_alert';
/**
 * The metadata of a delivery's follow-up (the charts its message had no room for): another event type, so a look for
 * the delivery only ever finds the message itself.
 */
export const FOLLOW_UP_EVENT_TYPE = 'manzil_alert_follow_up';

/** conversations.history pages read when looking for a delivery, at most (200 messages each). */
const HISTORY_PAGES = 10;
/**
 * The history looked through starts this long before the first attempt: a host clock some minutes off still finds it.
 */
export const HISTORY_MARGIN_MS = 15 * 60_000;
/** A lookup is trusted only this long after an attempt: a slow Slack may store a post that timed out a while later. */
export const SLACK_SETTLE_MS = 2 * 60_000;
/** The scope posting needs; a token without it is refused as a whole. */
const POSTING_SCOPE = 'chat:write';

/** Where a channel's messages go, or a rejection for a channel that is not Slack's (it would never post). */
function channelIdOf(channel: string): string {
  const parsed = parseSlackChannel(channel);
  if (!parsed) throw new PostFailure('slack: not a Slack channel', 'rejected');
  return parsed.channelId;
}

/**
 * A person's DM that cannot receive, for good until the person (or an admin) acts: conversations.open's refusals, and
 * chat.postMessage's for a DM it opened. The outbox parks the delivery and pauses that person's alerts.
 */
const DM_REFUSALS: Readonly<Record<string, string>> = {
  user_not_found: 'no such person in the workspace',
  user_not_visible: 'the person cannot be seen by the app',
  user_disabled: 'the person was deactivated (left the workspace)',
  cannot_dm_bot: 'the person is a bot',
  channel_not_found: 'the direct message is gone',
  is_archived: 'the direct message is closed',
  not_in_channel: 'the app is not in the direct message',
  no_permission: 'the app may not write to this person',
  // The app was installed before it asked for im:write: only a reinstall helps, and posting elsewhere still works, so
  // the person's alerts pause (with this reason) rather than the whole of Slack.
  missing_scope: 'the app cannot open direct messages: reinstall it to grant im:write',
};

/**
 * Slack's answers for a `thread_ts` that names no message it holds (the card deleted): `thread_not_found` as
 * conversations.replies documents it, and the codes chat.postMessage may give instead.
 */
const UNKNOWN_THREAD = new Set(['thread_not_found', 'invalid_thread_ts', 'message_not_found']);
const isUnknownThread = (e: unknown) => UNKNOWN_THREAD.has(slackErrorCode(e) ?? '');

function dmFailure(e: unknown): PostFailure {
  const code = slackErrorCode(e);
  if (code !== undefined && Object.hasOwn(DM_REFUSALS, code))
    return new PostFailure(`slack: ${code} (${DM_REFUSALS[code]})`, 'recipient_unavailable');
  return slackOutcome(e);
}

interface HistoryMessage {
  ts?: string;
  metadata?: { event_type?: string; event_payload?: Record<string, unknown> };
}

/** Why a local clock cannot be trusted to place the look in time, or undefined when its times agree. */
function clockDisagreement(request: LookupRequest): string | undefined {
  const { firstAttemptAt, lastAttemptAt, uncertainSince, now } = request;
  if (![firstAttemptAt, lastAttemptAt, uncertainSince, now].every(Number.isFinite)) return 'the times are not numbers';
  if (now < uncertainSince) return 'the local clock is behind the attempt that may have posted it';
  if (lastAttemptAt < firstAttemptAt) return 'the last attempt is before the first';
  if (now < lastAttemptAt) return 'now is before the last attempt: the local clock went back';
  return undefined;
}

/** A history call that failed: "failed" (ask again later) when a later look can answer, else "cannot tell". */
function lookupFailure(e: unknown): LookupResult {
  // A person's DM that cannot be opened: no later look answers; the re-send meets the same refusal and is parked.
  if (e instanceof PostFailure && e.outcome === 'recipient_unavailable')
    return { kind: 'cannot_tell', reason: e.message };
  const code = slackErrorCode(e);
  if (code !== undefined) {
    // missing_scope: the app was installed before it asked for history; no later look will answer either.
    if (code === 'missing_scope') return { kind: 'cannot_tell', reason: 'slack: no history scope (missing_scope)' };
    // Rate limits, Slack failing midway, refused credentials: a later look can answer. Any other code (the channel is
    // gone, a code we do not know) may never change, and waiting on it would hold the delivery until it is given up.
    const transient =
      Object.hasOwn(SLACK_ERROR_CODES, code) &&
      ['wait', 'maybe_posted', 'retry', 'credentials_refused'].includes(ruleForCode(code).outcome);
    if (!transient) return { kind: 'cannot_tell', reason: `slack: history answered ${code}` };
  }
  // A 429, a 5xx, a timeout, a refused or reset connection: the look itself failed; asked again later.
  const failure = slackOutcome(e);
  return {
    kind: 'failed',
    reason: failure.message,
    ...(failure.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}),
  };
}

export interface SlackPosterOptions {
  /** The POST of a chart's bytes to Slack's upload URL fails after this long (default 20 s). */
  uploadTimeoutMs?: number | undefined;
  /**
   * Waits before posting again when Slack refuses an uploaded file as not (yet) valid: it processes uploads after
   * completing them. Default 1 s then 3 s; then the reply is posted without its charts.
   */
  fileReadyWaitsMs?: readonly number[] | undefined;
}

const FILE_READY_WAITS_MS = [1_000, 3_000];

/** Slack refused the content: a plainer form may pass. */
function isContentRefusal(e: unknown): boolean {
  const code = slackErrorCode(e);
  return code !== undefined && ruleForCode(code).plainerMayPass === true;
}

/** The Web API client of each workspace: one for every workspace (a single token), or each one's own (Add to Slack). */
export interface SlackClients {
  /** Undefined when the workspace has not added Manzil (or removed it). */
  forTeam(teamId: string): Promise<WebClient | undefined>;
  /** The one token's client; undefined with Add to Slack, where each workspace's token stands alone. */
  readonly single: WebClient | undefined;
}

export const singleClient = (client: WebClient): SlackClients => ({ forTeam: async () => client, single: client });

export class SlackPoster implements ChatPoster {
  readonly platform = 'slack';
  readonly settleMs = SLACK_SETTLE_MS;
  private readonly clients: SlackClients;
  /** The DM channel (D…) of each person written to, as conversations.open gave it: it stays the same for the pair. */
  private readonly dms = new Map<string, string>();

  /**
   * Clients must not retry by themselves and must reject rate-limited calls: the outbox retries (see postingClient).
   */
  constructor(
    clients: SlackClients | WebClient,
    private readonly log: SendLog = () => {},
    private readonly options: SlackPosterOptions = {},
  ) {
    this.clients = 'forTeam' in clients ? clients : singleClient(clients);
  }

  /**
   * The client for a channel's workspace. With Add to Slack a workspace that has no installation, or whose token is
   * refused, cannot receive: its channel is held (and its alerts wait), while every other workspace goes on.
   */
  private async clientFor(channel: string): Promise<WebClient> {
    const teamId = parseSlackChannel(channel)?.teamId;
    const client = teamId ? await this.clients.forTeam(teamId) : undefined;
    if (!client) throw new PostFailure(`slack: workspace ${teamId ?? '?'} has not added Manzil`, 'channel_unavailable');
    return client;
  }

  private perWorkspace(failure: PostFailure): PostFailure {
    if (this.clients.single || failure.outcome !== 'credentials_refused') return failure;
    return new PostFailure(
      `${failure.message} (this workspace's token: Manzil removed, or its token revoked)`,
      'channel_unavailable',
    );
  }

  /**
   * A reply with charts: each is uploaded as a private file first, then one chat.postMessage shows them (image blocks
   * by file id) with the delivery id. A chart Slack does not allow (no `files:write`, uploads off, too large) is left
   * out and the message shows its text fallback with a note; a failure a later attempt may not meet (a 5xx, a timeout,
   * a rate limit) throws before any message is sent, so the outbox sends the whole delivery again.
   */
  /**
   * The conversation to post in: the channel's id, or for a person (`slack:T1:@U9`) their DM with the app, opened with
   * conversations.open (which needs `im:write`, and answers the same DM every time).
   */
  private async conversationOf(channel: string, client: WebClient): Promise<string> {
    const channelId = channelIdOf(channel);
    if (!channelId.startsWith('@')) return channelId;
    const known = this.dms.get(channel);
    if (known) return known;
    try {
      const res = await client.conversations.open({ users: channelId.slice(1) });
      const id = res.channel?.id;
      if (!id) throw new PostFailure('slack: conversations.open answered ok without a channel', 'retry');
      this.dms.set(channel, id);
      return id;
    } catch (e) {
      throw dmFailure(e);
    }
  }

  async post(channel: string, reply: Reply, deliveryId: string): Promise<{ messageId: string }> {
    channelIdOf(channel);
    const metadata = { event_type: ALERT_EVENT_TYPE, event_payload: { delivery_id: deliveryId } };
    const client = await this.clientFor(channel);
    const channelId = await this.conversationOf(channel, client);
    const post = (payload: SlackPayload, thread?: string) =>
      client.chat.postMessage({
        channel: channelId,
        ...payload,
        metadata,
        // A reply in the card's thread, not shown again in the channel (the channel gets one line a run).
        ...(thread === undefined ? {} : { thread_ts: thread, reply_broadcast: false }),
      });
    let thread = reply.thread;
    const send = async (payload: SlackPayload) => {
      if (thread !== undefined) {
        try {
          return await post(payload, thread);
        } catch (e) {
          if (!isUnknownThread(e)) throw e;
          // The card it replies to is gone (deleted): the reply goes in the channel rather than nowhere.
          this.log('slack: the thread of a reply is gone; posted in the channel', { error: slackErrorCode(e) });
          thread = undefined;
        }
      }
      return post(payload);
    };
    try {
      const res = hasCharts(reply)
        ? await sendWithCharts(reply, send, {
            log: this.log,
            isContentRefusal,
            upload: (image) => uploadImage(client, image, { timeoutMs: this.options.uploadTimeoutMs }),
            mayBeUnreadyFile: refusesSlackFile,
            fileReadyWaitsMs: this.options.fileReadyWaitsMs ?? FILE_READY_WAITS_MS,
            followUp: (payload) =>
              client.chat.postMessage({
                channel: channelId,
                ...payload,
                metadata: { event_type: FOLLOW_UP_EVENT_TYPE, event_payload: { delivery_id: deliveryId } },
              }),
          })
        : await sendWithFallback(reply, send, { log: this.log, isContentRefusal });
      // ok: true without a ts: Slack took it, we cannot say as what.
      if (!res.ts) throw new PostFailure('slack: chat.postMessage answered ok without a ts', 'maybe_posted');
      return { messageId: res.ts };
    } catch (e) {
      if (channelId !== channelIdOf(channel)) {
        // A DM: its refusals are the person's, and the DM is opened afresh next time.
        const failure = dmFailure(e);
        if (failure.outcome === 'recipient_unavailable') this.dms.delete(channel);
        throw this.perWorkspace(failure);
      }
      throw this.perWorkspace(slackOutcome(e));
    }
  }

  /**
   * Whether a message in the channel carries this delivery: read from conversations.history, from 15 minutes before the
   * first attempt on. "Cannot tell" when the app may not read history, when there is more history than it reads, or
   * when the local clock disagrees with the row's times; "failed" when the look itself failed (asked again later).
   */
  async findDelivered(request: LookupRequest): Promise<LookupResult> {
    if (!parseSlackChannel(request.channel)) return { kind: 'cannot_tell', reason: 'slack: not a Slack channel' };
    const skew = clockDisagreement(request);
    if (skew) return { kind: 'cannot_tell', reason: `slack: ${skew}` };
    const oldest = Math.max(0, Math.min(request.firstAttemptAt, request.uncertainSince) - HISTORY_MARGIN_MS);
    let cursor: string | undefined;
    try {
      const client = await this.clientFor(request.channel);
      // A person's DM is looked for in the DM itself.
      const channelId = await this.conversationOf(request.channel, client);
      // A reply is in its thread, which the channel's history does not list: looked for there first.
      if (request.thread !== undefined) {
        const inThread = await this.findInThread(client, channelId, request.thread, request.deliveryId, oldest);
        if (inThread.kind !== 'absent') return inThread;
      }
      for (let page = 0; page < HISTORY_PAGES; page++) {
        const res = await client.conversations.history({
          channel: channelId,
          oldest: (oldest / 1000).toFixed(6),
          include_all_metadata: true,
          limit: 200,
          ...(cursor ? { cursor } : {}),
        });
        const found = ((res.messages ?? []) as HistoryMessage[]).find(
          (m) =>
            m.metadata?.event_type === ALERT_EVENT_TYPE && m.metadata.event_payload?.delivery_id === request.deliveryId,
        );
        if (found?.ts) return { kind: 'found', messageId: found.ts };
        cursor = res.response_metadata?.next_cursor || undefined;
        // Trusted by the outbox only once Slack has had settleMs to store a slow post.
        if (!res.has_more) return { kind: 'absent' };
        if (!cursor) return { kind: 'cannot_tell', reason: 'slack: history has more but gave no cursor' };
      }
      return { kind: 'cannot_tell', reason: `slack: more history since the first attempt than ${HISTORY_PAGES} pages` };
    } catch (e) {
      const result = lookupFailure(e);
      this.log('slack: could not read history to find a delivery', {
        result: result.kind,
        error: 'reason' in result ? result.reason : undefined,
      });
      return result;
    }
  }

  /**
   * The delivery among a thread's replies (conversations.replies, with metadata): found, or absent (the thread gone,
   * or not there: the channel's history is looked through next, where a reply posted in the channel would be).
   */
  private async findInThread(
    client: WebClient,
    channelId: string,
    thread: string,
    deliveryId: string,
    oldest: number,
  ): Promise<LookupResult> {
    let cursor: string | undefined;
    for (let page = 0; page < HISTORY_PAGES; page++) {
      let res;
      try {
        res = await client.conversations.replies({
          channel: channelId,
          ts: thread,
          oldest: (oldest / 1000).toFixed(6),
          include_all_metadata: true,
          limit: 200,
          ...(cursor ? { cursor } : {}),
        });
      } catch (e) {
        if (isUnknownThread(e)) return { kind: 'absent' };
        throw e;
      }
      const found = ((res.messages ?? []) as HistoryMessage[]).find(
        (m) => m.metadata?.event_type === ALERT_EVENT_TYPE && m.metadata.event_payload?.delivery_id === deliveryId,
      );
      if (found?.ts) return { kind: 'found', messageId: found.ts };
      cursor = res.response_metadata?.next_cursor || undefined;
      if (!res.has_more || !cursor)
        return res.has_more ? { kind: 'cannot_tell', reason: 'slack: no cursor' } : { kind: 'absent' };
    }
    return { kind: 'cannot_tell', reason: `slack: more replies since the first attempt than ${HISTORY_PAGES} pages` };
  }

  /** auth.test: ok, refused (the token, or a token without chat:write), or unreachable (the network, a 5xx, a 429). */
  async checkCredentials(): Promise<CredentialsCheck> {
    // With Add to Slack no one token speaks for the platform: a workspace whose token is refused holds its own
    // channels.
    if (!this.clients.single) return { kind: 'ok' };
    try {
      const res = await this.clients.single.auth.test();
      const scopes = res.response_metadata?.scopes;
      if (scopes && !scopes.includes(POSTING_SCOPE))
        return { kind: 'refused', reason: `slack: the token lacks ${POSTING_SCOPE}` };
      return { kind: 'ok' };
    } catch (e) {
      const failure = slackOutcome(e);
      return failure.outcome === 'credentials_refused'
        ? { kind: 'refused', reason: failure.message }
        : { kind: 'unreachable', reason: failure.message };
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
