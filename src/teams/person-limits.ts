// Per-person limits on the commands that cost the most: pages of results, `/alerts test` and `/digest now` each spend
// calls of the team's share. One person clicking Next in a loop, or running a digest again and again, is told to wait,
// and the rest of the team keeps its share. Counted per instance, over the last hour.
import { LRUCache } from 'lru-cache';
import { alertsRequest, digestsRequest } from '../bot/index.js';
import type { Reply } from '../bot/index.js';
import { delegateTo, teamOf, type ChatCore } from '../ports/index.js';

export interface PersonLimits {
  /** Pages of results (Next, Previous) one person may ask for in an hour. */
  pagesPerHour: number;
  /** `/alerts test` and `/digest now` runs one person may ask for in an hour. */
  runsPerHour: number;
  now?: () => number;
}

const HOUR = 3_600_000;

type Costly = 'page' | 'run';

/** What a command costs beyond a search: a run of a saved search or a digest on request. */
function costOfCommand(text: string): Costly | undefined {
  const alerts = alertsRequest(text);
  if (alerts !== undefined && /^test\b/i.test(alerts)) return 'run';
  const digests = digestsRequest(text);
  if (digests !== undefined && /^now\b/i.test(digests)) return 'run';
  return undefined;
}

export function limitingPeople(core: ChatCore, limits: PersonLimits): ChatCore {
  const now = limits.now ?? Date.now;
  const recent = new LRUCache<string, number[]>({ max: 50_000, ttl: HOUR });
  /** Undefined when the person may go on (and it is counted); else the reply that says when they may. */
  const refuse = (place: string, user: string, cost: Costly | undefined): Reply | undefined => {
    if (!cost) return undefined;
    const max = cost === 'page' ? limits.pagesPerHour : limits.runsPerHour;
    const key = `${teamOf(place)}:${user}:${cost}`;
    const t = now();
    const times = (recent.get(key) ?? []).filter((at) => at > t - HOUR);
    if (times.length >= max) {
      const minutes = Math.max(1, Math.ceil((times[0]! + HOUR - t) / 60_000));
      const what = cost === 'page' ? `${max} pages of results` : `${max} alert tests and digests on request`;
      const text = `You've asked for ${what} in the last hour, the most one person can, so that the rest of your team keeps its share of lookups. Try again in about ${minutes} minute${minutes === 1 ? '' : 's'}.`;
      return { text, blocks: [{ kind: 'text', text }], ephemeral: true };
    }
    recent.set(key, [...times, t]);
    return undefined;
  };
  return {
    ...delegateTo(core),
    handleCommand: async (req) => refuse(req.place, req.user, costOfCommand(req.text)) ?? core.handleCommand(req),
    handleAction: async (req) => refuse(req.place, req.user, req.action === 'page' ? 'page' : undefined) ?? core.handleAction(req),
  };
}
