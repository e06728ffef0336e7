// What the area pickers' suggestions may spend. Autocomplete fires on every keystroke, so one stranger typing into a
// picker could otherwise spend every team's quota. A cached answer is free and always given; a keystroke that needs
// the service is allowed only while the asking team has share left and the person has calls left this hour. Past
// either, the picker shows what the cache knows (or nothing): a suggestion is a nicety, never an error.
// (paying-chat.ts makes each call the team's: counted in its share and in /metrics.)
import { LRUCache } from 'lru-cache';
import { delegateTo, personOf, teamOf, type ChatCore } from '../ports/index.js';

const HOUR = 3_600_000;

/**
 * Takes one of the `max` uses a person (`personOf(channel, user)`) has in the last hour: true when one was left, and it
 * is counted. The per-person limits' count in the database (person-limits.ts, `storedHourlyUses`), shared by instances.
 */
export type TakeUse = (person: string, max: number) => Promise<boolean>;

export interface SuggestionLimits {
  /** Suggestions that need a call to the service, one person may make in an hour. */
  perHour: number;
  /** Whether the team may spend another call this month (TeamShares.allows): checked before the person's count. */
  teamAllows?: (team: string) => Promise<boolean>;
  /** Told once an hour per person who reaches `perHour`: for the log. */
  onLimited?: (team: string, user: string) => void;
  /** Where each person's uses are counted. */
  takeUse: TakeUse;
}

export function limitingSuggestions(core: ChatCore, limits: SuggestionLimits): ChatCore {
  // Whom the log was told about this hour, so that a person typing on past the limit is one line, not one a keystroke.
  const told = new LRUCache<string, true>({ max: 10_000, ttl: HOUR });
  return {
    ...delegateTo(core),
    suggestLocations: (req) =>
      core.suggestLocations({
        ...req,
        // Asked by the core only when the cache cannot answer: cached keystrokes cost the person nothing.
        mayCall: async () => {
          if (req.mayCall && !(await req.mayCall())) return false;
          const team = teamOf(req.channel);
          if (limits.teamAllows && !(await limits.teamAllows(team))) return false;
          const person = personOf(req.channel, req.user);
          if (await limits.takeUse(person, limits.perHour)) return true;
          if (!told.has(person)) {
            told.set(person, true);
            limits.onLimited?.(team, req.user);
          }
          return false;
        },
      }),
  };
}
