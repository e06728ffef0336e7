// A listing's life story (issue 40): what Manzil's alerts have observed of each listing, once per listing of a
// service however many alerts see it. Written in the transaction that commits an alert run (./seen.ts's commits),
// read by key for the run's listings, and by a listing's Details. Plain types, in a module that imports none.

/** One listing's story, as both databases keep it (the SQLite schema's `listing_history` row, held equal by a test). */
export interface ListingHistory {
  service: string;
  propertyId: string;
  firstSeenAt: number;
  lastSeenAt: number;
  /** The price last read. */
  lastPrice: number | null;
  /** Each distinct price seen in a row, with when: JSON `[[at, price], …]`, oldest first (alerts/history.ts reads it). */
  prices: string;
  /** When an alert found it gone (missing from two complete runs in a row); null while it is on the market. */
  goneSince: number | null;
  /** How many times it came back after being gone. */
  timesBack: number;
  /** When it last came back, and how long it had been away (from its last sight before). */
  backAt: number | null;
  awayMs: number | null;
  /** Its title as last read: what a "gone" post names. */
  title: string | null;
}

/** What one query's run writes of its listings' stories, decided in its transaction from the rows read there. */
export interface HistoryWrites {
  /** The run's time: the last sight of every listing it read. */
  at: number;
  /** Rows written whole: a listing seen for the first time, at another price, or back after being gone. */
  rows: ListingHistory[];
  /** Listings read now, otherwise unchanged: only their last sight moves to `at` (one statement). */
  seen: string[];
  /** Listings found gone now: their `goneSince` becomes `at`, unless they are gone already or were seen since. */
  gone: string[];
}

/** The stories, by key; pruning. */
export interface HistoryRepo {
  /** The stories of these listings on this service (in the order of their ids' bytes); empty for none known. */
  history(service: string, propertyIds: readonly string[]): Promise<ListingHistory[]>;
  /** Deletes the stories of listings nobody has seen since `before` (ms); answers how many went. */
  pruneHistory(before: number): Promise<number>;
}
