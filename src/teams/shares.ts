// A fair share of the operator's monthly quota for each team: every team's searches, digests and lookups spend one
// operator's calls. A team may spend TEAM_SHARE_PCT of UAE_API_BUDGET_PER_MONTH (or its own share, set with
// `manzil teams set`); and the poller and digests stop once only CHAT_RESERVE_PCT of the month is left, so that
// chat lookups, where a person waits, are never starved by background work. In a pool of strangers (Discord's direct
// messages: one team, `discord:@me`, anyone may join) each person may spend PERSON_DM_SHARE_PCT of the pool's share,
// counted in the same ledger (`discord:@me:U1`): one person cannot spend everyone's, and a new account adds no share.
import { teamOf } from '../ports/channel.js';
import type { Payer, ShareRefusal } from '../api/payer.js';
import type { TeamRepo } from '../store/index.js';

export interface ShareOptions {
  /**
   * The operator's calls a month (UAE_API_BUDGET_PER_MONTH); without it only teams with their own share are limited.
   */
  perMonth: number | undefined;
  /** Each team's default share of `perMonth`, in percent. */
  sharePct: number;
  /** What background work leaves to chat lookups at the end of the month, in percent of `perMonth`. */
  chatReservePct: number;
  /** A person's part of a shared pool's share (Payer.person), in percent; 100 when unset. */
  personPct?: number;
  /** The operator's calls so far this month (the usage ledger), every team together. */
  monthSpent: () => Promise<number>;
  now?: () => number;
}

export class TeamShares {
  private readonly now: () => number;

  constructor(
    private readonly teams: Pick<TeamRepo, 'spent' | 'budget'>,
    private readonly o: ShareOptions,
  ) {
    this.now = o.now ?? Date.now;
  }

  /** The team's monthly share: its own, else the default share; undefined when nothing limits it. */
  async shareOf(team: string): Promise<number | undefined> {
    const own = await this.teams.budget(team);
    if (own !== undefined) return own;
    return this.o.perMonth === undefined || this.o.sharePct >= 100
      ? undefined
      : Math.floor((this.o.perMonth * this.o.sharePct) / 100);
  }

  /** Whether the team may spend another call this month. */
  async allows(team: string): Promise<boolean> {
    const share = await this.shareOf(team);
    return share === undefined || (await this.teams.spent(team)) < share;
  }

  /**
   * For the API client (`share`): why a call for `payer` may not be sent now, or undefined when it may. Read before
   * each call, not reserved: calls of one team already under way may take it a few calls past its share.
   */
  readonly check = async (payer: Payer | undefined): Promise<ShareRefusal | undefined> => {
    if (!payer) return undefined;
    const renews = Math.ceil((nextMonth(this.now()) - this.now()) / 1000);
    const { perMonth, chatReservePct } = this.o;
    if (
      payer.purpose === 'background' &&
      perMonth !== undefined &&
      chatReservePct > 0 &&
      (await this.o.monthSpent()) >= perMonth * (1 - chatReservePct / 100)
    ) {
      return {
        reason: `the last ${chatReservePct} % of this month's calls are kept for chat lookups (CHAT_RESERVE_PCT)`,
        retryAfterSeconds: renews,
      };
    }
    for (const team of payer.teams) {
      const share = await this.shareOf(team);
      const spent = share === undefined ? 0 : await this.teams.spent(team);
      if (share !== undefined && spent >= share)
        return {
          reason: `${team} has used its share of this month's calls (${spent} of ${share})`,
          retryAfterSeconds: renews,
        };
    }
    if (payer.person) {
      const part = await this.personShareOf(payer.person);
      const spent = part === undefined ? 0 : await this.teams.spent(payer.person);
      if (part !== undefined && spent >= part) {
        return {
          reason: `${payer.person} has used their part of ${teamOf(payer.person)}'s share this month (${spent} of ${part})`,
          retryAfterSeconds: renews,
          of: 'person',
        };
      }
    }
    return undefined;
  };

  /** A person's part of their shared pool's monthly share (at least one call); undefined when the pool has no limit. */
  async personShareOf(person: string): Promise<number | undefined> {
    const pool = await this.shareOf(teamOf(person));
    return pool === undefined ? undefined : Math.max(1, Math.floor((pool * (this.o.personPct ?? 100)) / 100));
  }
}

function nextMonth(t: number): number {
  const d = new Date(t);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}
