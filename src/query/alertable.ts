// Which searches can be alerts: the one rule the alerts accept a save by, and the bot offers "Save as alert" by, so a
// button is never offered that its action would refuse.
import type { OperationName } from '../api/operations.js';
import type { Query } from './types.js';

/** Listing searches the poller can run: sortable by newest, and keyed by property_id. */
export const ALERTABLE: ReadonlySet<OperationName> = new Set([
  'search-rent',
  'search-buy',
  'search-commercial-rent',
  'search-commercial-buy',
]);

/**
 * Why a search cannot be an alert, in words for chat; undefined when it can. `area`: the area already looked up (a
 * search reply's), which stands for the area words.
 */
export function notAlertable(query: Query, area?: { id: number; name: string }): string | undefined {
  if (!ALERTABLE.has(query.operation)) {
    return 'Only listing searches can be alerts: rent or buy, homes or commercial (for example `/alerts add rent marina 2br under 120k`).';
  }
  // A saved query keeps only what is sent to the service: a filter Manzil applies itself would be dropped, silently.
  if (query.perSqft) {
    return 'Alerts watch what the property service filters, and it has no price per sqft: save the search without it (a price or a size range works, like `/alerts add rent office jlt 1000-2000 sqft under 250k`).';
  }
  if (!query.location && !area)
    return 'An alert needs a place, so I know where to look: for example `/alerts add rent marina 2br under 120k`.';
  return undefined;
}
