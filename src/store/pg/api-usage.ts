// Calls made to the property service per UTC day and month window on Postgres, implementing ../contracts/usage.ts
// (which says what each method promises) as ../api-usage.ts does on SQLite. Several instances record at once here: each
// window is one upsert that adds one to what is committed (`calls = calls + 1`, the row locked until the commit) and
// returns the count it made, so no call is lost and each instance learns the count after its own call.
import { and, eq, sql } from 'drizzle-orm';
import type { ApiUsageRepo } from '../contracts/usage.js';
import { serviceKey } from '../service-key.js';
import type { PgStore } from './open.js';
import { apiUsage } from './schema.js';

/** `baseUrl`: the property service's base URL; each service has its own counts. */
export function createPgApiUsageRepo(store: PgStore, baseUrl: string): ApiUsageRepo {
  const { db } = store;
  const service = serviceKey(baseUrl);
  return {
    async record(windows, at) {
      // One transaction: the day and the month always move together. Windows in one order, so two instances
      // recording the same windows lock their rows in the same order and never deadlock.
      return db.transaction(async (tx) => {
        const counts: Record<string, number> = {};
        for (const window of [...windows].sort()) {
          const [row] = await tx
            .insert(apiUsage)
            .values({ service, window, calls: 1, updatedAt: at })
            .onConflictDoUpdate({
              target: [apiUsage.service, apiUsage.window],
              set: { calls: sql`${apiUsage.calls} + 1`, updatedAt: at },
            })
            .returning({ calls: apiUsage.calls });
          counts[window] = row!.calls;
        }
        return counts;
      });
    },

    async count(window) {
      const [row] = await db
        .select({ calls: apiUsage.calls })
        .from(apiUsage)
        .where(and(eq(apiUsage.service, service), eq(apiUsage.window, window)));
      return row?.calls ?? 0;
    },
  };
}
