// Each person's costly asks (a page of results, a run, a search: its `kind`), counted over a sliding window in the
// database, so that every instance on it counts the same: three instances do not triple a person's limit. What a
// limit is and what a person is told live in src/teams/person-limits.ts; this only counts and decides.
import { and, desc, eq, gt, lt, lte } from 'drizzle-orm';
import type { Store } from './db.js';
import { personUse } from './schema.js';

/** `take`'s answer: counted; or not, and how long until a use leaves the window so that one may be counted again. */
export type PersonTake = { ok: true } | { ok: false; retryAfterMs: number };

export interface SyncPersonUseRepo {
  /**
   * One use of `kind` by `person` now, when fewer than `max` of that kind were counted in the last `windowMs`:
   * counted, and ok. Else nothing is counted, and `retryAfterMs` is how long until the window holds one fewer. Decided
   * and
   * counted at once: two instances never both let the last one through.
   */
  take(person: string, kind: string, max: number, windowMs: number): PersonTake;
  /** Deletes uses older than `olderThanMs` (the longest window); returns how many. */
  prune(olderThanMs: number): number;
}

export function createPersonUseRepo(store: Store, now: () => number = Date.now): SyncPersonUseRepo {
  const { db } = store;
  const take = store.sqlite.transaction((person: string, kind: string, max: number, windowMs: number): PersonTake => {
    const at = now();
    const mine = and(eq(personUse.person, person), eq(personUse.kind, kind));
    // The person's uses out of the window count no more: a person who keeps asking keeps at most `max` rows.
    db.delete(personUse)
      .where(and(mine, lte(personUse.at, at - windowMs)))
      .run();
    // The `max`-th newest use: while it is in the window the window is full; once it leaves, one more may come.
    const edge = db
      .select({ at: personUse.at })
      .from(personUse)
      .where(and(mine, gt(personUse.at, at - windowMs)))
      .orderBy(desc(personUse.at))
      .limit(1)
      .offset(Math.max(0, max - 1))
      .get();
    if (edge) return { ok: false, retryAfterMs: edge.at + windowMs - at };
    db.insert(personUse).values({ person, kind, at }).run();
    return { ok: true };
  });
  return {
    // IMMEDIATE: another process on the file waits here, then counts what this one wrote.
    take: (person, kind, max, windowMs) => take.immediate(person, kind, max, windowMs),
    prune: (olderThanMs) =>
      db
        .delete(personUse)
        .where(lt(personUse.at, now() - olderThanMs))
        .run().changes,
  };
}
