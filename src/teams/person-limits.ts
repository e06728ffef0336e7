// Per-person limits on what costs the team's share: searches, pages of results, `/alerts test` and `/digest now`. One
// person searching or clicking Next in a loop is told to wait, and the rest of the team keeps its share. Counted in
// the database over the last hour (the store's person uses), so every instance on one database counts the same.
import type { Reply } from '../bot/index.js';
import type { Logger } from '../log.js';
import { delegateTo, personOf, type ChatCore } from '../ports/index.js';
import type { PersonUseRepo } from '../store/index.js';
import { countOf } from '../views/format.js';

export interface PersonLimits {
  /** Pages of results (Next, Previous) one person may ask for in an hour. */
  pagesPerHour: number;
  /** `/alerts test` and `/digest now` runs one person may ask for in an hour. */
  runsPerHour: number;
  /**
   * Searches (a command that looks something up, an area chosen, a picker's pick, a listing's details or value) one
   * person may make in an hour.
   */
  searchesPerHour: number;
}

const HOUR = 3_600_000;
/** Every kind is counted over the last hour: older uses count for nothing, and maintenance deletes them. */
export const PERSON_WINDOW_MS = HOUR;

/**
 * Each kind of costly ask: its hourly limit and how the reply names that many of them. Another kind is one more line
 * here (and its setting in PersonLimits); `PersonLimiter.take` counts any of them.
 */
const KINDS = {
  page: {
    limit: (l: PersonLimits) => l.pagesPerHour,
    what: (n: number) => countOf(n, 'page of results', 'pages of results'),
  },
  run: {
    limit: (l: PersonLimits) => l.runsPerHour,
    what: (n: number) =>
      countOf(n, 'alert test, digest on request or comparison', 'alert tests, digests on request and comparisons'),
  },
  search: { limit: (l: PersonLimits) => l.searchesPerHour, what: (n: number) => countOf(n, 'search', 'searches') },
} satisfies Record<string, { limit: (l: PersonLimits) => number; what: (n: number) => string }>;

export type CostKind = keyof typeof KINDS;

/** Counts each person's costly asks in the store and says, kindly, when one is past its limit. */
export class PersonLimiter {
  constructor(
    private readonly uses: Pick<PersonUseRepo, 'take' | 'giveBack'>,
    private readonly limits: PersonLimits,
    private readonly logger: Logger,
  ) {}

  /**
   * One ask of `kind` by `user` in `channel`: undefined when they may go on (and it is counted), else the private reply
   * that says when they may. A store that cannot count lets the ask through (logged): a limit is no reason to fail.
   */
  async take(channel: string, user: string, kind: CostKind): Promise<Reply | undefined> {
    const max = KINDS[kind].limit(this.limits);
    let taken;
    try {
      taken = await this.uses.take(personOf(channel, user), kind, max, HOUR);
    } catch (error) {
      this.logger.warn('a per-person limit could not be counted; the ask goes on', { kind, channel, user, error });
      return undefined;
    }
    if (taken.ok) return undefined;
    const minutes = Math.max(1, Math.ceil(taken.retryAfterMs / 60_000));
    const text = `You've asked for ${KINDS[kind].what(max)} in the last hour, the most one person can, so that the rest of your team keeps its share of lookups. Try again in about ${minutes} minute${minutes === 1 ? '' : 's'}.`;
    return { text, blocks: [{ kind: 'text', text }], ephemeral: true };
  }

  /** Uncounts the use `take` counted, for an ask that found nothing; a store that cannot is logged, not failed. */
  async giveBack(channel: string, user: string, kind: CostKind): Promise<void> {
    try {
      await this.uses.giveBack(personOf(channel, user), kind);
    } catch (error) {
      this.logger.warn('a per-person use could not be given back', { kind, channel, user, error });
    }
  }
}

/**
 * One use of `kind` by a person (`personOf(channel, user)`), counted in the store over the last hour, for a limit kept
 * elsewhere (the area pickers' suggestions): true when one was left, and it is counted.
 */
export const storedHourlyUses =
  (uses: Pick<PersonUseRepo, 'take'>, kind: string) =>
  async (person: string, max: number): Promise<boolean> =>
    (await uses.take(person, kind, max, HOUR)).ok;

/**
 * Actions that look something up: a page of results; an area chosen from "which one?", a value or a listing's details
 * (each a call of its own, counted as a search). Saving or removing an alert is not: the channel's alert limit bounds it.
 */
const LOOKUP_ACTIONS = new Set(['choose', 'value', 'details']);
const costOfAction = (action: string): CostKind | undefined =>
  action === 'page' ? 'page' : LOOKUP_ACTIONS.has(action) ? 'search' : undefined;

export function limitingPeople(core: ChatCore, limiter: PersonLimiter): ChatCore {
  const guard = async (channel: string, user: string, kind: CostKind | undefined, go: () => Promise<Reply>) => {
    const refused = kind && (await limiter.take(channel, user, kind));
    if (refused) return refused;
    const reply = await go();
    // An ask that found nothing (a compare of no area found) spends nothing: its use is given back.
    if (kind && reply.foundNothing) await limiter.giveBack(channel, user, kind);
    return reply;
  };
  return {
    ...delegateTo(core),
    // What a command costs is its one reading's (ChatCore.read: a run, a search, or nothing), handed on to the bot.
    handleCommand: (req) => {
      const reading = req.reading ?? core.read(req);
      return guard(req.channel, req.user, reading.cost, () => core.handleCommand({ ...req, reading }));
    },
    handleAction: (req) => guard(req.channel, req.user, costOfAction(req.action), () => core.handleAction(req)),
    handlePick: (req) => guard(req.channel, req.user, 'search', () => core.handlePick(req)),
  };
}
