// What every kind of standing order (an alert, a digest) keeps alike, on either database (SQLite ../standing-orders.ts,
// Postgres ../pg/standing-orders.ts): a channel's orders numbered 1, 2, 3… in it, paused or not, due at a time. A kind
// adds its own columns and methods in a contract of its own (./alerts.ts, ./digests.ts) extending this one. Plain
// types, in a module that imports none of them.

/** The columns every kind of standing order has. */
export interface StandingOrderRow {
  id: number;
  /** The property service it is run against (its key); orders of another service are kept but not run. */
  service: string;
  /** The opaque chat channel it posts to: `slack:T1:C1`, `discord:G:C`, `console:local`. */
  channel: string;
  /** Its number in its channel, shown to people: stable, and never given twice in that channel. */
  number: number;
  owner: string;
  paused: boolean;
  createdAt: number;
  /** When it is due next. */
  nextRunAt: number;
  lastRunAt: number | null;
  lastError: string | null;
}

/** A save's answer: the order saved, or the limit it would pass (`channel`, or the kind's own refusals). */
export type Created<Row, Refusal> = { ok: true; row: Row } | Refusal;

/**
 * The repository of one kind of standing order. `Row` is its row, `New` what a save gives, `Limits` the limits a save
 * is held to, `Refusal` why a save may be refused, `Only` how a run narrows the due scan to its part.
 */
export interface StandingOrderRepo<Row extends StandingOrderRow, New, Limits, Refusal, Only> {
  /**
   * Saves an order with the next number in its channel (one above every number given there before, even to an order
   * since removed), unless a limit refuses it. Counting, refusing and numbering are one transaction, and on Postgres
   * saves in one channel wait for each other: two instances saving at once get distinct numbers within the limits.
   */
  create(input: New, limits: Limits): Promise<Created<Row, Refusal>>;
  /** A channel's orders, by number. */
  listByChannel(channel: string): Promise<Row[]>;
  /** A channel's order by the number people see; undefined when there is none (or it was removed). */
  byNumber(channel: string, number: number): Promise<Row | undefined>;
  byId(id: number): Promise<Row | undefined>;
  /**
   * Pauses or resumes. Pausing keeps its next time; resuming makes it due at `nextRunAt` when given (otherwise as the
   * kind decides: an alert at once, a digest at the time it had). Unfenced: a person's change, not a run's.
   */
  setPaused(id: number, paused: boolean, nextRunAt?: number): Promise<void>;
  /** Removes an order with what it has queued and not yet delivered; nothing else of its channel changes. */
  remove(id: number): Promise<void>;
  /**
   * The orders of `service` due at `at`, not paused, the longest-waiting first; those of a channel held because it
   * cannot receive wait with it (nothing piles up for it). `only`: the part of a shared run (a query, one digest).
   */
  due(service: string, at: number, only?: Only): Promise<Row[]>;
  /** How many orders there are, of one service or of all. */
  count(service?: string): Promise<number>;
}
