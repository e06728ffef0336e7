// Each team's spend of upstream calls per UTC month, its own share when the operator set one, and the teams known
// from their alerts, digests and spend (`manzil teams`).
import { and, eq, sql } from 'drizzle-orm';
import type { Store } from './db.js';
import { standingOrder, teamBudget, teamUsage } from './schema.js';
import type { Synced } from './contracts/synced.js';
import type { TeamLine, TeamRepo } from './contracts/usage.js';
import { monthOf, teamLines } from './state-and-cache-values.js';

export { monthOf };

export function createTeamRepo(store: Store, now: () => number = Date.now): Synced<TeamRepo> {
  const { db } = store;
  const add = db
    .insert(teamUsage)
    .values({ team: sql.placeholder('team'), month: sql.placeholder('month'), calls: 1 })
    .onConflictDoUpdate({ target: [teamUsage.team, teamUsage.month], set: { calls: sql`${teamUsage.calls} + 1` } })
    .prepare();
  return {
    /** One call made for each of `teams`. */
    charge(teams: readonly string[]): void {
      const month = monthOf(now());
      store.sqlite.transaction(() => {
        for (const team of new Set(teams)) add.run({ team, month });
      })();
    },

    spent(team: string, month = monthOf(now())): number {
      return (
        db
          .select({ calls: teamUsage.calls })
          .from(teamUsage)
          .where(and(eq(teamUsage.team, team), eq(teamUsage.month, month)))
          .get()?.calls ?? 0
      );
    },

    /** The team's own monthly share, when the operator set one. */
    budget(team: string): number | undefined {
      return db.select({ calls: teamBudget.monthlyCalls }).from(teamBudget).where(eq(teamBudget.team, team)).get()
        ?.calls;
    },

    /** Sets the team's own monthly share, or (undefined) gives it the default share again. */
    setBudget(team: string, calls: number | undefined): void {
      if (calls === undefined) db.delete(teamBudget).where(eq(teamBudget.team, team)).run();
      else
        db.insert(teamBudget)
          .values({ team, monthlyCalls: calls })
          .onConflictDoUpdate({ target: teamBudget.team, set: { monthlyCalls: calls } })
          .run();
    },

    /** Every team known: from its alerts, digests, spend this month or own share; with its counts. */
    list(month = monthOf(now())): TeamLine[] {
      return teamLines(
        db.select({ channel: standingOrder.channel }).from(standingOrder).where(eq(standingOrder.kind, 'alert')).all(),
        db.select({ channel: standingOrder.channel }).from(standingOrder).where(eq(standingOrder.kind, 'digest')).all(),
        db.select().from(teamUsage).where(eq(teamUsage.month, month)).all(),
        db.select().from(teamBudget).all(),
      );
    },
  };
}
