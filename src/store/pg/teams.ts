// Each team's spend of upstream calls per UTC month, its own share and the teams known, on Postgres, implementing
// ../contracts/usage.ts (which says what each method promises) as ../teams.ts does on SQLite. A charge adds one to what
// is committed (`calls = calls + 1`), so instances charging the same team at once lose no call.
import { and, eq, sql } from 'drizzle-orm';
import type { TeamRepo } from '../contracts/usage.js';
import { monthOf, teamLines } from '../state-and-cache-values.js';
import type { PgStore } from './open.js';
import { standingOrder, teamBudget, teamUsage } from './schema.js';

export function createPgTeamRepo(store: PgStore, now: () => number = Date.now): TeamRepo {
  const { db } = store;
  return {
    async charge(teams) {
      const month = monthOf(now());
      // One transaction, teams in one order: two instances charging the same teams lock their rows in the same order.
      await db.transaction(async (tx) => {
        for (const team of [...new Set(teams)].sort()) {
          await tx
            .insert(teamUsage)
            .values({ team, month, calls: 1 })
            .onConflictDoUpdate({
              target: [teamUsage.team, teamUsage.month],
              set: { calls: sql`${teamUsage.calls} + 1` },
            });
        }
      });
    },

    async spent(team, month = monthOf(now())) {
      const [row] = await db
        .select({ calls: teamUsage.calls })
        .from(teamUsage)
        .where(and(eq(teamUsage.team, team), eq(teamUsage.month, month)));
      return row?.calls ?? 0;
    },

    async budget(team) {
      const [row] = await db
        .select({ calls: teamBudget.monthlyCalls })
        .from(teamBudget)
        .where(eq(teamBudget.team, team));
      return row?.calls;
    },

    async setBudget(team, calls) {
      if (calls === undefined) await db.delete(teamBudget).where(eq(teamBudget.team, team));
      else
        await db
          .insert(teamBudget)
          .values({ team, monthlyCalls: calls })
          .onConflictDoUpdate({ target: teamBudget.team, set: { monthlyCalls: calls } });
    },

    async list(month = monthOf(now())) {
      return teamLines(
        await db.select({ channel: standingOrder.channel }).from(standingOrder).where(eq(standingOrder.kind, 'alert')),
        await db.select({ channel: standingOrder.channel }).from(standingOrder).where(eq(standingOrder.kind, 'digest')),
        await db.select().from(teamUsage).where(eq(teamUsage.month, month)),
        await db.select().from(teamBudget),
      );
    },
  };
}
