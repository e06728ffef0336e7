// Alerts saved before amounts were bounded (src/query/limits.ts) may ask for what no listing can be ("up to AED
// Infinity a year"): such a search fails on every run and can never match. At start each is paused, with one message in
// its channel. The pause is the record: only searches not paused are looked at, and `/alerts resume` refuses these.
import type { Logger } from '../log.js';
import { impossibleValue } from '../query/limits.js';
import type { AlertsRepo, OutboxRepo, AlertRow } from '../store/index.js';
import { notice } from './plan.js';
import { decodeSavedQuery } from './saved-query.js';

/**
 * What in a saved search no listing can be, in words; undefined when it can run (or is not a query this release reads).
 */
export function impossibleIn(row: Pick<AlertRow, 'query'>): string | undefined {
  const saved = decodeSavedQuery(row.query);
  return saved && impossibleValue(saved.query);
}

export interface PauseDeps {
  repo: Pick<AlertsRepo, 'active' | 'setPaused'>;
  outbox: Pick<OutboxRepo, 'enqueue'>;
  logger: Logger;
}

/** Pauses every active search that asks for what no listing can be, each with one message; returns how many. */
export async function pauseImpossibleAlerts({ repo, outbox, logger }: PauseDeps): Promise<number> {
  let paused = 0;
  for (const row of await repo.active()) {
    const what = impossibleIn(row);
    if (what === undefined) continue;
    // The message first, under a key of its own: a start cut off before the pause queues nothing twice (instances
    // starting together neither), and once paused the search is not looked at again.
    await outbox.enqueue(notice(row, 'impossible', `${row.id}:impossible`, { what }));
    await repo.setPaused(row.id, true, undefined, `asks for what no listing can be: ${what}`);
    logger.warn('alert paused at start: it asks for what no listing can be', {
      search: row.id,
      channel: row.channel,
      asks: what,
    });
    paused++;
  }
  return paused;
}
