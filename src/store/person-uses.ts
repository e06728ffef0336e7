// Each person's costly asks (a page of results, a run, a search: its `kind`), counted over a sliding window in the
// database, so that every instance on it counts the same: three instances do not triple a person's limit. What a
// limit is and what a person is told live in src/teams/person-limits.ts; this only counts and decides.
import { and, desc, eq, gt, lt, lte } from 'drizzle-orm';
import type { Store } from './db.js';
import { personUse } from './schema.js';
import type { PersonTake, PersonUseRepo } from './contracts/usage.js';
import type { Synced } from './contracts/synced.js';

export function createPersonUseRepo(store: Store, now: () => number = Date.now): Synced<PersonUseRepo> {
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
    giveBack: (person, kind) => {
      const newest = db
        .select({ id: personUse.id })
        .from(personUse)
        .where(and(eq(personUse.person, person), eq(personUse.kind, kind)))
        .orderBy(desc(personUse.id))
        .limit(1)
        .get();
      if (newest) db.delete(personUse).where(eq(personUse.id, newest.id)).run();
    },
    prune: (olderThanMs) =>
      db
        .delete(personUse)
        .where(lt(personUse.at, now() - olderThanMs))
        .run().changes,
  };
}
