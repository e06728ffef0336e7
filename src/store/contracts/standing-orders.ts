// What every kind of standing order (an alert, a digest) keeps alike, on either database (SQLite ../standing-orders.ts,
// Postgres ../pg/standing-orders.ts): one `standing_order` table for every kind (decision 0008), a target's orders of a
// kind numbered 1, 2, 3… in it, paused or not, due at a time. A kind keeps its own fields in a side table of its own and
// adds its methods in a contract of its own (./alerts.ts, ./digests.ts) extending this one. Plain types, in a module
// that imports none of them.

/** The columns every kind of standing order has (the schemas' `standing_order` row: held equal by a type test). */
export interface StandingOrderRow {
  id: number;
  /** Which kind it is (`alert`, `digest`): which side table holds the rest of it. */
  kind: string;
  /** The property service it is run against (its key); orders of another service are kept but not run. */
  service: string;
  /**
   * Its target, where it posts (the `target` column): a channel (`slack:T1:C1`, `discord:G:C`, `console:local`), or a
   * person's direct messages (`<platform>:<team>:@<person>`: a personal alert). Both start with the team (teamOf).
   */
  channel: string;
  /** Its number among its kind's orders of its target, shown to people: stable, and never given twice there. */
  number: number;
  owner: string;
  paused: boolean;
  /** Why Manzil paused it (null when a person did, and while it runs). */
  pausedReason: string | null;
  /**
   * When it runs, JSON: an alert's `{ "every": "run" }` (every run of the alerts job), a digest's
   * `{ "every": "week", "day": 1, "time": "09:00" }` (src/standing-orders/schedule.ts reads them).
   */
  schedule: string;
  createdAt: number;
  /** When it is due next. */
  nextRunAt: number;
  lastRunAt: number | null;
  lastError: string | null;
}

/** Narrows a due scan: only orders whose target is on one of these platforms (`slack`, `discord`); all when unset. */
export interface DueScan {
  platforms?: readonly string[] | undefined;
}

/**
 * The repository of one kind of standing order. `Row` is its row (the standing order's columns and the kind's own),
 * `Part` what a shared run is split into (alerts: a query's params key; digests: a digest's id).
 */
export interface StandingOrderRepo<Row extends StandingOrderRow, Part> {
  /** A target's orders of this kind, by number. */
  listByChannel(channel: string): Promise<Row[]>;
  /**
   * One person's orders of this kind in one team (`slack:T1`): those they made in any of its channels and their own
   * (personal targets `slack:T1:@U9`), by target and number; none of another team, whatever its id looks like.
   */
  listByOwner(team: string, owner: string): Promise<Row[]>;
  /** A target's order by the number people see; undefined when there is none (or it was removed). */
  byNumber(channel: string, number: number): Promise<Row | undefined>;
  /** An order of this kind by id; undefined when there is none (or the id is another kind's). */
  byId(id: number): Promise<Row | undefined>;
  /**
   * Pauses or resumes. Pausing keeps its next time and records `reason` (why Manzil paused it; none for a person);
   * resuming clears the reason and makes it due at `nextRunAt` when given (otherwise as the kind decides: an alert at
   * once, a digest at the time it had). Unfenced: a person's change, not a run's.
   */
  setPaused(id: number, paused: boolean, nextRunAt?: number, reason?: string): Promise<void>;
  /**
   * The due scan's first step, in SQL: the distinct parts of the orders of `service` due at `at` (not paused, next run
   * at or before `at`, on one of `scan.platforms` when given), each part once, the part with the longest-waiting order
   * first (alerts: the oldest last run; digests: the earliest next run; then the lowest id). Orders of a target held
   * because it cannot receive wait with it (nothing piles up for it). Only the parts are read, never the due rows.
   */
  dueParts(service: string, at: number, scan?: DueScan): Promise<Part[]>;
  /**
   * The due orders themselves, as `dueParts` selects them, the longest-waiting first: of one `part`, or of a batch of
   * parts (one statement), when given, else every one. An order due when its part was listed may no longer be
   * (another run did it, it was paused or removed): it is not returned.
   */
  due(service: string, at: number, part?: Part | readonly Part[], scan?: DueScan): Promise<Row[]>;
  /** How many orders of this kind there are, of one service or of all. */
  count(service?: string): Promise<number>;
  /**
   * An edit saves the changed order anew and removes the old one: the new one then takes the old one's `number` in
   * its target, so people keep calling it by the number they know. False when another order of the kind there holds
   * that number (or `id` is gone); the numbering ahead is unchanged, so no number is ever given twice to a new order.
   */
  renumber(id: number, number: number): Promise<boolean>;
}

/**
 * What `create` promises of every kind: the next number in its target (one above every number given there before to
 * this kind, even to an order since removed), unless a limit refuses it. Counting, refusing and numbering are one
 * transaction, and on Postgres saves in one target wait for each other: two instances saving at once get distinct
 * numbers within the limits. `remove(id)` takes the order with what it has queued and not yet delivered.
 */
export type Created<Row, Refusal> = { ok: true; row: Row } | Refusal;
