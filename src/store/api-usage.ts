// Calls made to the property service, per UTC day and month window, kept across restarts so that a restart
// (or a crash loop) cannot spend the day's or the month's budget twice. The api client reads it as its UsageLedger.
import { and, eq, sql } from 'drizzle-orm';
import type { Store } from './db.js';
import { apiUsage } from './schema.js';
import { serviceKey } from './service-key.js';
import type { ApiUsageRepo } from './contracts/usage.js';
import type { Synced } from './contracts/synced.js';

/** `service`: the property service's base URL; each service has its own counts. */
export function createApiUsageRepo(store: Store, baseUrl: string): Synced<ApiUsageRepo> {
  const { db } = store;
  const service = serviceKey(baseUrl);
  return {
    record(windows, at) {
      // One transaction: the day and the month always move together.
      return db.transaction((tx) => {
        const counts: Record<string, number> = {};
        for (const window of windows) {
          counts[window] = tx
            .insert(apiUsage)
            .values({ service, window, calls: 1, updatedAt: at })
            .onConflictDoUpdate({
              target: [apiUsage.service, apiUsage.window],
              set: { calls: sql`${apiUsage.calls} + 1`, updatedAt: at },
            })
            .returning({ calls: apiUsage.calls })
            .get()!.calls;
        }
        return counts;
      });
    },
    count(window) {
      const row = db
        .select({ calls: apiUsage.calls })
        .from(apiUsage)
        .where(and(eq(apiUsage.service, service), eq(apiUsage.window, window)))
        .get();
      return row?.calls ?? 0;
    },
  };
}
