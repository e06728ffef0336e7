// Which searches can be alerts: the one rule the alerts accept a save by, and the bot offers "Save as alert" by, so a
// button is never offered that its action would refuse.
import type { OperationName } from '../api/operations.js';
import { parseCommand } from './parse.js';
import type { Query } from './types.js';
import { VERB_TABLE, findVerb } from './verbs.js';

/** Listing searches the poller can run: sortable by newest, and keyed by property_id. */
export const ALERTABLE: ReadonlySet<OperationName> = new Set([
  'search-rent',
  'search-buy',
  'search-commercial-rent',
  'search-commercial-buy',
]);

const ONLY_LISTINGS =
  'Only listing searches can be alerts: rent or buy, homes or commercial (for example `/alerts add rent marina 2br under 120k`).';

/** The verbs whose searches can be alerts (rent, buy): only these are offered. */
const ALERT_VERBS = VERB_TABLE.filter((v) => v.operations.some((op) => ALERTABLE.has(op))).map((v) => v.name);

/**
 * Why the words of an `/alerts add` that do not parse cannot be saved, naming only what can be an alert, with the
 * commands that would save one ("marina": `/alerts add rent marina` or `/alerts add buy marina`, each checked to read
 * as an alert); undefined when the words start with a listing verb, whose own mistake the parser says best.
 */
export function alertRefusal(text: string): string | undefined {
  const verb = findVerb(text);
  if (verb) return verb.operations.some((op) => ALERTABLE.has(op)) ? undefined : ONLY_LISTINGS;
  const readings = ALERT_VERBS.map((v) => `${v} ${text.trim()}`).filter((typed) => {
    const parsed = parseCommand(typed);
    return parsed.ok && notAlertable(parsed.query) === undefined;
  });
  const which = 'An alert watches listings to rent or to buy, homes or commercial:';
  if (readings.length === 0)
    return `${which} start with one of them, for example \`/alerts add rent marina 2br under 120k\`.`;
  return `${which} say which, ${readings.map((r) => `\`/alerts add ${r}\``).join(' or ')}.`;
}

/**
 * Why a search cannot be an alert, in words for chat; undefined when it can. `area`: the area already looked up (a
 * search reply's), which stands for the area words.
 */
export function notAlertable(query: Query, area?: { id: number; name: string }): string | undefined {
  if (!ALERTABLE.has(query.operation)) return ONLY_LISTINGS;
  // A saved query keeps only what is sent to the service: a filter Manzil applies itself would be dropped, silently.
  if (query.perSqft) {
    return 'Alerts watch what the property service filters, and it has no price per sqft: save the search without it (a price or a size range works, like `/alerts add rent office jlt 1000-2000 sqft under 250k`).';
  }
  if (!query.location && !area)
    return 'An alert needs a place, so I know where to look: for example `/alerts add rent marina 2br under 120k`.';
  return undefined;
}
