// What `manzil parse` prints: the route the bot takes for a text (understand.ts itself, with every part on), as JSON.
// One function for both, so the command line and the bot cannot disagree about what a text asks (issue 39).
import { silentLogger } from '../../log.js';
import type { Query } from '../../query/index.js';
import { understand } from './understand.js';

const ALL_ON = { alerts: true, digests: true, compare: true, value: true } as const;

/** A search as JSON: the operation, its parameters and the area words, as `manzil parse` has always printed them. */
const searchJson = (q: Query) => ({
  operation: q.operation,
  params: q.params,
  location: q.location,
  ...(q.corrections ? { corrections: q.corrections } : {}),
  ...(q.count ? { count: true } : {}),
});

/**
 * The bot's reading of a text: a search (`operation`, `params`, `location`), or `route` naming another part (value,
 * compare, alerts, digests, a question with buttons) with what it was given; `{ error }` or `{ say }` when the bot
 * answers at once with words alone.
 */
export function readingOf(text: string): Record<string, unknown> {
  const u = understand({ user: 'parse', channel: 'parse', text }, ALL_ON, silentLogger);
  if ('search' in u) return searchJson(u.search.query);
  if ('value' in u) return { route: 'value', ...u.value };
  if ('compare' in u) return { route: 'compare', ...u.compare };
  if ('alerts' in u) return { route: 'alerts', text: u.alerts };
  if ('digests' in u) return { route: 'digests', text: u.digests };
  if ('doubt' in u)
    return {
      error: u.doubt.text,
      options: u.doubt.options.map((o) => ({ label: o.label, ...searchJson(o.search.query) })),
    };
  // A refusal of the text reads as before ({ error }); help and small talk are said, not refused.
  if ('order' in u) return { route: u.order.kind === 'alert' ? 'alerts' : 'digests', order: u.order };
  if ('next' in u) return { route: 'next' };
  return u.refused ? { error: u.say } : { route: 'say', say: u.say };
}
