// The port through which alerts and digests reach chat (each adapter implements it for its platform), and the
// outcomes a platform's answer is turned into. Each adapter keeps one outcome table (adapters/<platform>/outcomes.ts)
// that maps every error code and status it knows to one of these; the outbox acts on the outcome alone.
import type { Reply } from '../views/model.js';

/**
 * What a failed post means for the outbox:
 * - `retry`: surely not posted; tried again with backoff.
 * - `maybe_posted`: the platform may have posted it (a timeout, a reset connection, a 5xx, Slack's `internal_error`):
 *   looked for on the platform before it is ever sent again.
 * - `wait`: not now (a 429 with Retry-After, Slack's `ratelimited`): the whole channel waits; spends no attempt.
 * - `channel_unavailable`: this channel cannot receive (unknown, archived, the app not in it): the channel is held
 *   and its alerts paused until it can receive again; nothing is lost meanwhile.
 * - `credentials_refused`: the platform refused our credentials (`invalid_auth`, Discord 401): the whole platform is
 *   paused and probed until they work again; spends no attempt.
 * - `rejected`: the platform will never take this message (every plainer form refused too): parked at once.
 * - `recipient_unavailable`: a person's direct messages cannot receive (they blocked the bot, left the workspace, the
 *   account is gone): parked at once with the reason, and that person's standing orders to that target paused with it.
 *   Only a person can change that, so nothing is tried again until they resume.
 */
export type FailureOutcome =
  | 'retry'
  | 'maybe_posted'
  | 'wait'
  | 'channel_unavailable'
  | 'credentials_refused'
  | 'rejected'
  | 'recipient_unavailable';

/** A post that did not succeed, with the outcome the platform's outcome table gave it. Carries no token. */
export class PostFailure extends Error {
  override readonly name = 'PostFailure';
  constructor(
    message: string,
    readonly outcome: FailureOutcome,
    /** For `wait`: how long the platform asked us to wait. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/**
 * What a look for an earlier delivery found:
 * - `found`: the platform shows it (its message id): it is not sent again.
 * - `absent`: the platform surely does not have it (or a re-send cannot duplicate it): sent again.
 * - `cannot_tell`: a look cannot answer (a missing scope, beyond the history window, past a nonce window, a local clock
 *   that disagrees with the row's times): sent again and counted as a possible duplicate.
 * - `failed`: the look itself failed (a 429, a 5xx, a timeout): asked again later, nothing sent, no attempt spent.
 */
export type LookupResult =
  | { kind: 'found'; messageId: string }
  | { kind: 'absent' }
  | { kind: 'cannot_tell'; reason: string }
  | { kind: 'failed'; reason: string; retryAfterMs?: number };

/** Whether the platform accepts our credentials now (a paused platform is probed with this). */
export type CredentialsCheck =
  { kind: 'ok' } | { kind: 'refused'; reason: string } | { kind: 'unreachable'; reason: string };

/** A delivery's identity and times, for a lookup: `deliveryId` is unique across databases (see DeliveryIds). */
export interface LookupRequest {
  channel: string;
  deliveryId: string;
  /** When the first attempt to post it started (ms, local clock). */
  firstAttemptAt: number;
  /** When the last attempt started. */
  lastAttemptAt: number;
  /** When the earliest attempt that may have posted it started (a crash mid-post, a timeout, a 5xx). */
  uncertainSince: number;
  /** Now, on the same clock. */
  now: number;
  /** The message it replies in the thread of (Reply.thread), when it does: the reply is looked for there too. */
  thread?: string;
}

/**
 * The port. `channel` is the opaque chat channel (`slack:T1:C1`, `discord:G:C`, `console:local`).
 */
export interface ChatPoster {
  /** The channel prefix this poster serves: 'slack', 'discord', 'console'. */
  readonly platform: string;
  /**
   * How long after an attempt a lookup can be trusted (the platform has had time to store a slow post). Slack: a few
   * minutes; Discord: 0 (its nonce makes a re-send within the window safe). Default 0.
   */
  readonly settleMs?: number;
  /**
   * Posts one message and resolves once the platform acknowledged it, with the platform's message id. `deliveryId` is
   * stable across retries: platforms that can (Slack metadata, Discord nonce) tag the message with it.
   * Throws a PostFailure (with its outcome) when the platform refused or could not be reached.
   */
  post(channel: string, reply: Reply, deliveryId: string): Promise<{ messageId: string }>;
  /** Whether a delivery that may have been posted is on the platform. Absent: the outbox treats it as `cannot_tell`. */
  findDelivered?(request: LookupRequest): Promise<LookupResult>;
  /** Whether the credentials work again (Slack `auth.test`, Discord `GET /users/@me`). Absent: assumed ok. */
  checkCredentials?(): Promise<CredentialsCheck>;
}
