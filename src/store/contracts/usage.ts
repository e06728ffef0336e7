// What is counted against limits, as both databases keep it (SQLite ../api-usage.ts, ../person-uses.ts, ../teams.ts;
// Postgres ../pg/*.ts): written here, dialect-free. Several instances count on one database at once: each method that
// adds decides and counts in one transaction, so no count is lost and no limit is passed twice; nothing is fenced (a
// count is true whoever makes it).

/** `PersonUseRepo.take`'s answer: counted; or not, and how long until a use leaves the window so one may be counted. */
export type PersonTake = { ok: true } | { ok: false; retryAfterMs: number };

/** One line of `manzil teams`. */
export interface TeamLine {
  team: string;
  alerts: number;
  digests: number;
  calls: number;
  budget: number | undefined;
}

/** Calls made to one property service, per UTC day and month window, kept across restarts (the api's UsageLedger). */
export interface ApiUsageRepo {
  /**
   * Adds one call, made at `at` (epoch ms), to each window (`day:YYYY-MM-DD`, `month:YYYY-MM`, UTC), all in one
   * transaction; answers each window's count after it (every instance's calls, this one included).
   */
  record(windows: string[], at: number): Promise<Record<string, number>>;
  /** Calls counted in one window; 0 when none. */
  count(window: string): Promise<number>;
}

/** Each person's costly asks (a page of results, a run, a search: its `kind`), over a sliding window. */
export interface PersonUseRepo {
  /**
   * One use of `kind` by `person` now, when fewer than `max` of that kind were counted in the last `windowMs`: counted,
   * and ok. Else nothing is counted, and `retryAfterMs` is how long until the window holds one fewer. Decided and
   * counted at once: two instances never both let the last one through.
   */
  take(person: string, kind: string, max: number, windowMs: number): Promise<PersonTake>;
  /** Uncounts the newest use of `kind` by `person` (an ask that found nothing to look up); nothing when there is none. */
  giveBack(person: string, kind: string): Promise<void>;
  /** Deletes uses older than `olderThanMs` (the longest window); answers how many (0 when none). */
  prune(olderThanMs: number): Promise<number>;
}

/** Each team's spend of upstream calls per UTC month (`YYYY-MM`), and its own share when the operator set one. */
export interface TeamRepo {
  /** One call made now for each of `teams` (each counted once however often named), in one transaction. */
  charge(teams: readonly string[]): Promise<void>;
  /** The team's calls in `month` (this month when not given); 0 when none. */
  spent(team: string, month?: string): Promise<number>;
  /** The team's own monthly share; undefined when the operator set none (the default share applies). */
  budget(team: string): Promise<number | undefined>;
  /** Sets the team's own monthly share, or (undefined) gives it the default share again. */
  setBudget(team: string, calls: number | undefined): Promise<void>;
  /**
   * Every team known: from its alerts, digests, spend in `month` (this month when not given) or own share, with its
   * counts; the biggest spenders first, then by name; empty when none.
   */
  list(month?: string): Promise<TeamLine[]>;
}
