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
