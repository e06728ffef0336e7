// What a saved search has seen and what a poller run writes, shared by both databases (SQLite ./seen.ts, Postgres
// ./pg/seen.ts) and by the values both write (./alert-digest-writes.ts): plain types in a module that imports none of
// them.
import type { HistoryRepo, HistoryWrites, ListingHistory } from './history.js';
import type { Fence } from './leases.js';
import type { NewDelivery } from './outbox.js';

/** A listing a saved search has seen, as both databases read it (the SQLite schema's row, held equal by a test). */
export interface SeenRow {
  searchId: number;
  propertyId: string;
  firstSeenAt: number;
  /**
   * When this alert's row last changed: first seen, repriced, posted, or listed again after a miss or after the listing
   * came back on the market. Not touched by every run that lists it unchanged (that write per alert and listing was
   * most of a busy run's commit, issue 37): the listing's own last sighting is its story's (ListingHistory.lastSeenAt).
   * It still tells "back since this alert last saw it": a row is refreshed whenever its story's return is newer.
   */
  lastSeenAt: number;
  /** The price the last run read. */
  lastPrice: number | null;
  /** The price the channel was last told: drops are measured from it. Null on older rows: lastPrice stands in. */
  reportedPrice: number | null;
  /** For "the same flat from another agent": location, bedrooms and size of the listing. */
  locationKey: string | null;
  bedrooms: string | null;
  size: number | null;
  /** True when a card was (or will be) posted for it; a listing merely recorded on the first run is false. */
  posted: boolean;
  /** Complete runs in a row that did not list it (at most 2: two make it gone for this alert). */
  missed: number;
}

export interface SeenUpdate {
  propertyId: string;
  price: number | null;
  /** The price the channel now knows: set when the listing is first recorded or a drop is posted; kept otherwise. */
  reportedPrice?: number | null;
  locationKey: string | null;
  bedrooms: string | null;
  size: number | null;
  posted: boolean;
}

/**
 * A listing a channel was posted (or counted as posted: the same listing or flat, already posted there by another of
 * its alerts): one row per channel and listing, however many of its alerts matched it, kept for as long as one of them
 * is (the schema's `channel_posted` row, held equal by a test). Written from the run's posted seen rows, in the
 * transaction that records the run.
 */
export interface ChannelPosted {
  service: string;
  channel: string;
  propertyId: string;
  /** The same-flat fingerprint (views/same-flat.ts): location, bedrooms, size and the price last read. */
  locationKey: string | null;
  bedrooms: string | null;
  size: number | null;
  lastPrice: number | null;
  /** The lowest price the channel was told of it: a drop is measured from it, once per channel. */
  reportedPrice: number | null;
  /**
   * The platform's reference of the first card the channel was posted of it (Slack ts, Discord message id), for a price
   * drop to be posted in its thread (issue 40): written when that card is marked delivered (OutboxRepo.markDelivered's
   * `threadRoot`); null until then, for a card from before, and once the channel starts over.
   */
  messageRef: string | null;
}

/** A listing a channel was posted, with one of its alerts that matched it: what the one post names. */
export interface PostedAlert extends ChannelPosted {
  searchId: number;
  number: number;
  summary: string;
}

/**
 * What to read of what channels were posted, by key: these channels on this service, of these listings or of these
 * locations (the same flat under another id has the same location).
 */
export interface PostedQuery {
  service: string;
  channels: readonly string[];
  propertyIds: readonly string[];
  locationKeys: readonly string[];
}

/**
 * A run decided inside its transaction: `outcomes` is given what the channels were posted (of the run's listings and
 * locations) as it stands then, after every earlier run that posts in those channels committed (and before any later
 * one), so two alerts of one channel never both post a listing, whichever instance runs them. It may be asked more than
 * once in one commit (Postgres asks again once it holds the channels it posts in); the last answer is recorded.
 */
export interface RunPlan extends PostedQuery {
  outcomes(posted: readonly ChannelPosted[], history?: readonly ListingHistory[]): RunOutcome[];
  /**
   * The listings' life story (issue 40): `ids`, whose stories `outcomes` is given (read in the same transaction: the
   * run's listings and those it may find gone), and `writes`, what the last `outcomes` decided to write of them.
   * Without it, no story is read or written.
   */
  history?: { ids: readonly string[]; writes(): HistoryWrites | undefined };
}

/** What a batch's commit does besides its items. */
export interface CommitOptions {
  /** Deletes the listings' stories nobody has seen since then (MANZIL_HISTORY_DAYS before the run), in the commit. */
  pruneHistoryBefore?: number;
  /**
   * Deliveries the batch adds from what its items decided (every item's last outcomes, in order): queued in the same
   * transaction, after the items' own, each once by its dedupe key (a channel's one line for its threaded price drops,
   * issue 40). Counted with the last item's.
   */
  after?: (decided: readonly RunOutcome[]) => readonly NewDelivery[];
}

/** What one poller run learned about one saved search, written in a single transaction. */
export interface RunOutcome {
  searchId: number;
  at: number;
  seen: SeenUpdate[];
  deliveries: NewDelivery[];
  /** Set on the first run. */
  primed?: boolean;
  /** When the search had been failing and the channel was told, it is told again that it recovered. */
  clearError: boolean;
  /** When it is due next: a summary alert's next slot; the next run (`at`) when not given. */
  nextRunAt?: number;
  /** Listings it has seen that this complete run did not list: their `missed` count goes up (to at most 2). */
  missed?: string[];
  /**
   * Listings it had seen, listed again and not otherwise written: after a miss (their `missed` count starts over) or back
   * on the market since it last saw them. Their row's `lastSeenAt` becomes `at`.
   */
  refreshed?: string[];
}

/**
 * What each saved search has seen, and a poller run's record: a run's seen rows, what its channels were posted (from
 * its posted seen rows), its deliveries (through the outbox, each fact once) and its search's record commit in one
 * transaction, so a crash leaves all of it or none. Runs that post in the same channels commit one at a time. Fenced: with a `fence`, a run commits only while that fence still holds the
 * poller's lease; an instance that stalled past it and was taken over records nothing (undefined). A search removed
 * meanwhile is skipped, not an error.
 */
export interface SeenRepo extends HistoryRepo {
  /** The listings one search has seen, in the order of their ids' bytes; empty when none (or no such search). */
  seen(searchId: number): Promise<SeenRow[]>;
  /** What each of these searches has seen, in one query (a run reads a whole group's at once); every id has a list. */
  seenBy(searchIds: readonly number[]): Promise<Map<number, SeenRow[]>>;
  /**
   * Several searches' runs (one coalesced query) in one transaction. Answers how many deliveries were queued;
   * undefined when `fence` lost the lease.
   */
  commitRuns(outcomes: readonly RunOutcome[], fence?: Fence): Promise<number | undefined>;
  /**
   * As `commitRuns`, with the outcomes decided inside the transaction from what the plan's channels were posted as it
   * stands then (after every earlier run posting in those channels committed), so two alerts of one channel never both
   * post a listing, whichever instance runs them.
   */
  commitPlanned(plan: RunPlan, fence?: Fence): Promise<number | undefined>;
  /**
   * A batch of queries' runs (a job of a run) in ONE transaction under one fence check: each item as `commitPlanned`
   * would commit it, in order, so a later item reads what the earlier ones posted in its channels (two queries of the
   * batch posting in one channel never post a listing twice). Answers each item's deliveries queued; undefined when
   * `fence` lost the lease, and then nothing of the batch is written.
   */
  commitMany(
    items: readonly { plan: RunPlan }[],
    fence?: Fence,
    options?: CommitOptions,
  ): Promise<number[] | undefined>;
  /** What these channels were posted, of these listings or locations (by channel, id); empty if none. */
  postedIn(query: PostedQuery): Promise<ChannelPosted[]>;
  /**
   * The same rows, once for each alert of the channel that posted it or counted it as posted (by channel, number, id):
   * what a post names.
   */
  postedAlerts(query: PostedQuery): Promise<PostedAlert[]>;
  /** One search's run: `commitRuns` of one outcome. */
  commitRun(outcome: RunOutcome, fence?: Fence): Promise<number | undefined>;
}
