// The fair-share settings, apart from config.ts: each team's share of the service's quota and what one person may ask
// for in an hour (src/teams applies them; docs/real-service.md's "A fair share for each team" explains them).
import { z } from 'zod';

const count = (fallback: number) => z.coerce.number().int().min(1).max(100_000).default(fallback);
const percent = (min: number, max: number, fallback: number) => z.coerce.number().min(min).max(max).default(fallback);

/** The variables, merged into config.ts's schema. */
export const TEAM_VARIABLES = {
  TEAM_SHARE_PCT: percent(1, 100, 100),
  CHAT_RESERVE_PCT: percent(0, 90, 10),
  PERSON_PAGES_PER_HOUR: count(60),
  PERSON_RUNS_PER_HOUR: count(6),
  PERSON_SEARCHES_PER_HOUR: count(120),
  PERSON_DM_SHARE_PCT: percent(1, 100, 10),
  PERSON_SUGGESTIONS_PER_HOUR: count(300),
};

export interface TeamsConfig {
  /**
   * Whether one person's searches, pages and runs are limited (the PERSON_*_PER_HOUR below): always on the real
   * service; on the sample data (no key: no quota to share) only when one of them is set, so the demo's only user is
   * never locked out.
   */
  personLimits: boolean;
  sharePct: number;
  chatReservePct: number;
  pagesPerHour: number;
  runsPerHour: number;
  suggestionsPerHour: number;
  searchesPerHour: number;
  /** The part of the Discord DMs' pool one person may spend. */
  dmPersonPct: number;
}

type TeamValues = z.infer<z.ZodObject<typeof TEAM_VARIABLES>>;

/** The per-person limits; any one of them set turns them all on, on the sample data too. */
export const PERSON_LIMIT_VARIABLES = ['PERSON_PAGES_PER_HOUR', 'PERSON_RUNS_PER_HOUR', 'PERSON_SEARCHES_PER_HOUR'];

/** `env`: the raw environment, to tell a limit set from its default; `sandbox`: no key, the sample data. */
export function teamsConfig(
  e: TeamValues,
  env: Readonly<Record<string, string | undefined>>,
  sandbox: boolean,
): TeamsConfig {
  return {
    personLimits: !sandbox || PERSON_LIMIT_VARIABLES.some((k) => Boolean(env[k]?.trim())),
    sharePct: e.TEAM_SHARE_PCT,
    chatReservePct: e.CHAT_RESERVE_PCT,
    pagesPerHour: e.PERSON_PAGES_PER_HOUR,
    runsPerHour: e.PERSON_RUNS_PER_HOUR,
    suggestionsPerHour: e.PERSON_SUGGESTIONS_PER_HOUR,
    searchesPerHour: e.PERSON_SEARCHES_PER_HOUR,
    dmPersonPct: e.PERSON_DM_SHARE_PCT,
  };
}
