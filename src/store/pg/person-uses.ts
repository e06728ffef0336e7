// Each person's costly asks on Postgres, implementing ../contracts/usage.ts (which says what each method promises) as
// ../person-uses.ts does on SQLite. SQLite has one writer at a time; here a take locks the person's kind (a
// transaction-scoped advisory lock) before it counts, so instances taking for one person at once count one by one.
import { and, desc, eq, gt, lt, lte, sql } from 'drizzle-orm';
import type { PersonUseRepo } from '../contracts/usage.js';
import type { PgStore } from './open.js';
import { personUse } from './schema.js';

// The advisory lock namespace of takes (the first key of pg_advisory_xact_lock(int, int)): 'prsn' in ASCII.
const PERSON_LOCK = 0x7072736e;

export function createPgPersonUseRepo(store: PgStore, now: () => number = Date.now): PersonUseRepo {
  const { db } = store;
  return {
    async take(person, kind, max, windowMs) {
      return db.transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${PERSON_LOCK}::int, hashtext(${`${kind} ${person}`}))`);
        // Read after the lock: each statement sees what the previous holder committed.
        const at = now();
        const mine = and(eq(personUse.person, person), eq(personUse.kind, kind));
        await tx.delete(personUse).where(and(mine, lte(personUse.at, at - windowMs)));
        const [edge] = await tx
          .select({ at: personUse.at })
          .from(personUse)
          .where(and(mine, gt(personUse.at, at - windowMs)))
          .orderBy(desc(personUse.at))
          .limit(1)
          .offset(Math.max(0, max - 1));
        if (edge) return { ok: false, retryAfterMs: edge.at + windowMs - at };
        await tx.insert(personUse).values({ person, kind, at });
        return { ok: true };
      });
    },

    async giveBack(person, kind) {
      const [newest] = await db
        .select({ id: personUse.id })
        .from(personUse)
        .where(and(eq(personUse.person, person), eq(personUse.kind, kind)))
        .orderBy(desc(personUse.id))
        .limit(1);
      if (newest) await db.delete(personUse).where(eq(personUse.id, newest.id));
    },

    async prune(olderThanMs) {
      const result = await db.delete(personUse).where(lt(personUse.at, now() - olderThanMs));
      return result.rowCount ?? 0;
    },
  };
}
