// `manzil teams`: every team (a Slack workspace, a Discord server) with its alerts, digests, calls this month and
// share; `manzil teams set <team> <calls>|default` gives one team its own monthly share. Safe while Manzil runs.
import type { Config } from '../config.js';
import { monthOf } from '../store/index.js';
import { TeamShares } from '../teams/index.js';
import { withDatabase } from './database.js';

type Out = (line: string) => void;

const USAGE = [
  'Usage: manzil teams [--json]                     every team: alerts, digests, calls this month, its share',
  '       manzil teams set <team> <calls>|default   a team’s own monthly share (slack:T0123, discord:4567)',
].join('\n');

export async function runTeamsCli(
  args: string[],
  config: Pick<Config, 'dbPath' | 'postgres' | 'api' | 'teams'>,
  out: Out,
  err: Out,
  now: () => number = Date.now,
): Promise<number> {
  const set = args[0] === 'set';
  const json = args.includes('--json');
  const calls = set
    ? args[2] === 'default'
      ? 'default'
      : /^\d{1,9}$/.test(args[2] ?? '')
        ? Number(args[2])
        : undefined
    : undefined;
  if (
    (set && (args.length !== 3 || !/^[a-z]+:[^:\s]+$/.test(args[1]!) || calls === undefined)) ||
    (!set && args.some((a) => a !== '--json'))
  ) {
    err(USAGE);
    return 2;
  }
  const status = await withDatabase('manzil teams', config, err, async (db) => {
    const teams = db.teams;
    if (set) {
      await teams.setBudget(args[1]!, calls === 'default' ? undefined : (calls as number));
      out(
        calls === 'default'
          ? `${args[1]} has the default share again.`
          : `${args[1]} may spend ${calls} calls a month.`,
      );
      return 0;
    }
    const shares = new TeamShares(teams, {
      perMonth: config.api.budget.perMonth,
      sharePct: config.teams.sharePct,
      chatReservePct: config.teams.chatReservePct,
      monthSpent: async () => 0,
      now,
    });
    const rows = await Promise.all(
      (await teams.list(monthOf(now()))).map(async (t) => ({
        ...t,
        share: (await shares.shareOf(t.team)) ?? null,
        own: t.budget !== undefined,
      })),
    );
    if (json) {
      out(JSON.stringify({ month: monthOf(now()), teams: rows.map(({ budget: _own, ...r }) => r) }));
      return 0;
    }
    if (rows.length === 0) {
      out('No teams yet: none has saved an alert or a digest, or made a call this month.');
      return 0;
    }
    out(`Teams, ${monthOf(now())} (UTC):`);
    const width = Math.max(...rows.map((r) => r.team.length), 4);
    out(`  ${'team'.padEnd(width)}  alerts  digests  calls  share`);
    for (const r of rows) {
      const share =
        r.share === null
          ? 'unlimited'
          : `${r.share}${r.own ? ' (own)' : ''}${r.calls >= r.share ? '  SPENT: its alerts and digests wait' : ''}`;
      out(
        `  ${r.team.padEnd(width)}  ${String(r.alerts).padStart(6)}  ${String(r.digests).padStart(7)}  ${String(r.calls).padStart(5)}  ${share}`,
      );
    }
    return 0;
  });
  return status ?? 1;
}
