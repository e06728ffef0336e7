// The outbox's rows and the values its methods take and give, shared by both databases (SQLite ./outbox.ts, Postgres
// ./pg/outbox.ts) and by the pure rules of ./claims.ts: plain types in a module that imports none of them.

/** An outbox entry as both databases read it (the SQLite schema's row: held equal by a type test). */
export interface OutboxRow {
  id: number;
  searchId: number | null;
  channel: string;
  /** new | price_drop | summary | failing | recovered */
  kind: string;
  propertyId: string | null;
  /** One delivery per fact: `12:new:16266089`, `12:drop:16266089:115000`. */
  dedupeKey: string;
  /** What is needed to render the message (versioned JSON). */
  payload: string;
  /**
   * pending | claimed (taken by a drainer, waiting its turn in the channel) | sending (its post is in flight) |
   * delivered | failed
   */
  state: string;
  attempts: number;
  nextAttemptAt: number;
  claimedBy: string | null;
  claimedUntil: number | null;
  messageId: string | null;
  lastError: string | null;
  possibleDuplicate: boolean;
  maybeDelivered: boolean;
  createdAt: number;
  deliveredAt: number | null;
  /** The database id current when the entry was written: with the id, the delivery id the platform sees. */
  origin: string;
  /** Fencing: the generation of the claim that holds it. */
  claimToken: number | null;
  firstAttemptAt: number | null;
  lastAttemptAt: number | null;
  uncertainSince: number | null;
}

export interface NewDelivery {
  /** The saved search it comes from, when it does (its undelivered entries go with it); null for other kinds. */
  searchId?: number | null;
  channel: string;
  kind: string;
  propertyId?: string | null;
  /** One delivery per fact: `12:new:16266089`, `digest:3:2026-11-30`. */
  dedupeKey: string;
  payload: string;
  /**
   * Set when this fact may already have been posted by a database this one was restored over: the platform is asked
   * before it is sent, looking back to this time.
   */
  uncertainSince?: number;
  /**
   * Held until this time (a channel's quiet hours): queued as `held`, never claimed; when the time comes, the channel's
   * held entries are released together (releaseHeld), several folded into one summary.
   */
  holdUntil?: number;
}

/** An entry taken by a drainer. */
export interface ClaimedEntry extends OutboxRow {
  /** This claim's fencing token: pass it to every change. */
  token: number;
  /** The id the platform sees (Slack metadata, Discord nonce): unique across databases. */
  deliveryId: string;
  /** It may already be on the platform (in flight at a crash, or an attempt may have posted it): look first. */
  recovered: boolean;
  /** Its post was cut off by a crash or a stop (not one that timed out on a slow platform). */
  interrupted: boolean;
  /**
   * The latest post started in its channel at the claim, by any instance (null when none): a channel's spacing holds
   * when another instance posted there just before.
   */
  channelLastAttemptAt: number | null;
}

export interface OutboxStats {
  pending: number;
  /** Taken by a drainer: waiting their turn in a channel (claimed) or with their post in flight. */
  sending: number;
  /** Of those, the posts in flight. */
  inFlight: number;
  /**
   * Parked: given up after DELIVERY_GIVE_UP_H, or refused for good by the platform; `manzil outbox retry` puts them
   * back.
   */
  failed: number;
  delivered: number;
  possibleDuplicates: number;
  /** Age of the oldest entry not yet delivered (ms), 0 when none. */
  oldestPendingMs: number;
  /** Chat channels held because they cannot receive. */
  heldChannels: number;
}

export interface ClaimOptions {
  holder: string;
  at: number;
  leaseMs: number;
  /** Entries per channel in one claim (a channel posts about one a second, so a few are plenty). */
  perChannel: number;
  /** Channels per claim. */
  channels: number;
  platforms: readonly string[];
  /** Channels this drainer is working on already: not claimed again until their worker is done. */
  busy?: readonly string[];
  /** Instances whose heartbeat lapsed: their claims are taken over at once, not after their lease. */
  lapsed?: readonly string[];
}

export interface FailedAttempt {
  error: string;
  /** Back to pending then; parked (state `failed`) when undefined. */
  retryAt?: number | undefined;
  /** Counts an attempt (a rate limit, a paused platform or a held channel spend none). */
  spendAttempt?: boolean;
  /** It may have posted all the same: looked for before every later attempt, until delivered or found. */
  maybeDelivered?: boolean;
  /** It was sent again without a way to check an earlier attempt: kept on the row. */
  possibleDuplicate?: boolean;
}

/** A channel held because it cannot receive, and when it is tried again. */
export interface HeldChannel {
  channel: string;
  reason: string;
  since: number;
  retryAt: number;
}

/** A claim's hold on one entry: the entry and the fencing token of the claim that took it. */
export interface ClaimedRef {
  id: number;
  token: number;
}

/**
 * The outbox: deliveries of any kind (alert cards, notices, digests) waiting for, or done by, a chat platform. It only
 * stores; src/outbox decides. Fencing: a claim carries a token (a new generation per claim, never reused in the
 * database), and every change a drainer makes to an entry checks it, so an instance that lost its claim (it stalled,
 * another took the entry over) changes nothing and is told so (false, undefined or 0).
 */
export interface OutboxRepo {
  /**
   * Queues a delivery at `at` (now when not given) unless one with the same dedupe key exists: the same fact is never
   * queued twice. Answers 1 when queued, 0 when it was already there.
   */
  enqueue(delivery: NewDelivery, at?: number): Promise<number>;
  /**
   * Takes entries due at `o.at` for `o.holder`, at most `o.perChannel` per channel over at most `o.channels` channels,
   * oldest first: pending ones due, and ones whose claim ran out or whose holder is `o.lapsed` (`claimed`: never
   * posted; `sending`: posted when it stopped, so recorded as maybe delivered). Held channels, `o.busy` ones and
   * channels another live holder is working on are left alone. All under one new token; empty when nothing is due.
   */
  claimDue(o: ClaimOptions): Promise<ClaimedEntry[]>;
  /** Extends the claims of entries waiting their turn in a channel to `until`; fenced. Answers how many. */
  extendClaims(entries: readonly ClaimedRef[], until: number): Promise<number>;
  /**
   * Its post starts now: `sending` until `until`. A crash from here on leaves it `sending`, and the next claim looks
   * for it before sending it again. Fenced: false when the claim is no longer this token's, and then it must not post.
   */
  markPosting(id: number, token: number, at: number, until: number): Promise<boolean>;
  /**
   * The platform has it, as `messageId`. Fenced: a stalled instance's late answer changes nothing (false). With
   * `threadRoot` (the entry is its listing's first card in the channel), the channel's record of that listing
   * (channel_posted of the entry's search's service, its channel and property id) keeps `messageId` as where the card
   * landed, in the same transaction and only when the entry was marked, unless it holds one already; nothing when there
   * is no such record (no property id, the search or the record gone).
   */
  markDelivered(
    id: number,
    token: number,
    messageId: string,
    at: number,
    possibleDuplicate?: boolean,
    threadRoot?: boolean,
  ): Promise<boolean>;
  /**
   * A failed attempt, or a look that could not answer: back to pending for `f.retryAt`, or parked (`failed`) without
   * one. Fenced: answers the entry as it now is, undefined when the claim is no longer this token's.
   */
  markFailed(id: number, token: number, f: FailedAttempt): Promise<OutboxRow | undefined>;
  /**
   * A claimed entry that only points to the entries of `followed` (their dedupe keys; a drops line to its drops), as
   * claims.ts `followedVerdict` reads them: 'post' it, let it 'wait' (requeue it), or it was 'folded' (state `folded`,
   * never posted). Fenced: a fold of a claim no longer this token's changes nothing and answers 'wait'.
   */
  settleFollower(id: number, token: number, followed: readonly string[]): Promise<'post' | 'wait' | 'folded'>;
  /**
   * Gives claimed entries back unposted and without spending an attempt, due at `at` at the earliest (a channel held
   * by a Retry-After keeps its order). Their maybe-delivered flag stays. Fenced: entries no longer this claim's, or
   * already posting, are left alone.
   */
  requeue(entries: readonly ClaimedRef[], at: number): Promise<void>;
  /**
   * Gives back `holder`'s unfinished claims at shutdown, so the next start sends them without waiting; a post still in
   * flight goes back marked maybe delivered, so it is looked for first. Answers how many (0 when none).
   */
  release(holder: string): Promise<number>;
  /**
   * Parked entries back to the queue, due at `at` (now when not given), their attempts reset: one by id, or all
   * (`manzil outbox retry`). Answers how many (0 when none matched).
   */
  retryParked(which: number | 'all', at?: number): Promise<number>;
  /** Holds a channel that cannot receive until `retryAt`; true when it was not held before (say so once). */
  holdChannel(channel: string, reason: string, at: number, retryAt: number): Promise<boolean>;
  /**
   * The channel can receive again (a post went through, or a person said so): no longer held, its queue due at `at`
   * (now when not given). False when it was not held.
   */
  releaseChannel(channel: string, at?: number): Promise<boolean>;
  /** Every held channel, with when it is tried again; empty when none. */
  heldChannels(): Promise<HeldChannel[]>;
  /** Why and since when the channel is held; undefined when it is not. */
  heldChannel(channel: string): Promise<{ reason: string; since: number } | undefined>;
  /**
   * Bounded growth: delivered or parked entries older than `options.outboxMaxAgeMs` at `at` go (pending and claimed
   * ones never do). Answers how many were deleted.
   */
  prune(at: number, options: { outboxMaxAgeMs: number }): Promise<{ outbox: number }>;
  /** The entries of a channel and/or in these states, oldest first; every entry when no filter; empty when none. */
  list(filter?: { channel?: string; state?: string | readonly string[] }): Promise<OutboxRow[]>;
  /** One entry; undefined when there is none with that id. */
  byId(id: number): Promise<OutboxRow | undefined>;
  /**
   * The earliest time an entry of these platforms becomes due (a pending one's retry, a held channel's retry, a claim's
   * end); undefined when none is waiting.
   */
  nextDue(platforms: readonly string[]): Promise<number | undefined>;
  /** Counts by state, duplicates, the oldest waiting entry's age at `at` (now when not given) and held channels. */
  stats(at?: number): Promise<OutboxStats>;
  /**
   * Releases the entries held until `at` or before (quiet hours over), channel by channel, each channel in one
   * transaction: one alone goes back to the queue as it is; several are marked `folded` and `fold` (given them, oldest
   * first) makes the one delivery that is queued instead, in the same transaction. The fold's dedupe key must be
   * deterministic (the first entry's id): two instances releasing at once queue it once. Answers how many deliveries
   * were queued.
   */
  releaseHeld(at: number, fold: (channel: string, held: OutboxRow[]) => NewDelivery): Promise<number>;
  /** The newest entry of a channel of this kind (of this saved search, when given), whatever its state but folded. */
  latestOf(channel: string, kind: string, searchId?: number): Promise<OutboxRow | undefined>;
}
