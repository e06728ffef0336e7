// Stage 4, present a page: a fetched service page laid out as a chat page for the adapter's surface: the cards of this
// chat page, paging, Save as alert, the Refine picker. It writes nothing: the one row behind all of its buttons (when it
// has any) is handed on to be remembered (remember.ts), and the reply is laid out with that row's token.
import { operationSpec } from '../../api/operations.js';
import { notAlertable, summarize } from '../../query/index.js';
import { countLine } from '../../query/intent.js';
import type { Block, Button, Reply } from '../../views/model.js';
import { PAYLOAD_VERSION, lastPage, type PageRow } from '../button-payloads.js';
import { planPage } from '../paging.js';
import { noPersonListings, offersPersonButtons, pagePeople, personButtons } from '../people.js';
import { perSqftFilter } from '../per-sqft-filter.js';
import { CARD_OPERATIONS, cardGroups, fitCardButtons, groupListingIds, renderGroups } from '../render-results.js';
import type { Fetched } from './fetch.js';
import type { Draft } from './stages.js';
import type { PageView } from './resolve.js';

/** The service's page size is not published (15 to 50 observed); a page shorter than this is surely the last. */
const SMALLEST_FULL_PAGE = 10;

/** Lays a fetched page out for the surface; one state row to remember, and only when the reply has buttons. */
export async function presentPage(view: PageView, answer: Fetched): Promise<Draft> {
  const { operation: op, result } = answer.outcome;
  const { query, location, surface } = view;
  const spec = operationSpec(op);
  const paged = spec.firstPage !== undefined;
  // The same flat from several agents is one card, as in alerts. A price per sqft is filtered here (the service has no
  // such filter); paging still follows the service's pages, so Next is offered whenever the service's page was full.
  const filter = perSqftFilter(query, op);
  const fetched = cardGroups(op, result.records);
  const groups = filter ? fetched.filter((g) => filter.keeps(g.listing)) : fetched;
  const records = result.records.length;
  const byCard = CARD_OPERATIONS.has(op);
  const plan = planPage(view.position, {
    total: groups.length,
    records,
    firstPage: spec.firstPage ?? 1,
    byCard,
    perChatPage: surface.cardsPerPage,
    longestPage: Math.max(records, answer.longestPage),
    smallestFullPage: SMALLEST_FULL_PAGE,
  });
  const shownGroups = groups.slice(plan.offset, plan.offset + plan.count);
  const shown = shownGroups.map((g) => g.listing);
  const further = paged && plan.next && plan.next.page <= lastPage(query) ? plan.next : undefined;
  // The service's pages have no total: a full page may be the last one, and Next would open an empty page.
  const next =
    further && further.page !== view.position.page && (await answer.hasRecords(further.page)) === false
      ? undefined
      : further;
  const previous = paged ? plan.previous : undefined;
  // An empty search is exactly what people want to watch: Save as alert is offered with no results too. It is offered
  // by the rule the alerts accept a save by (not an agent's listings, nor a price per sqft), so it is never refused.
  const saveable = notAlertable(query, location) === undefined;
  const picker = 'location_id' in spec.params && location !== undefined;
  const details = surface.buttonsPerCard > 0 ? groupListingIds(op, shownGroups) : [];
  const people = offersPersonButtons(surface) ? pagePeople(op, shownGroups) : [];

  const stateful = next || previous || saveable || picker || details.length > 0 || people.length > 0;
  const row: PageRow | undefined = stateful
    ? {
        v: PAYLOAD_VERSION,
        query,
        ...(location ? { location } : {}),
        surface,
        details,
        ...(next ? { next } : {}),
        ...(previous ? { previous } : {}),
        ...(people.length > 0 ? { people } : {}),
      }
    : undefined;
  return { ...(row ? { row: { kind: 'page', payload: row } } : {}), layout };

  /** The reply, its buttons carrying the row's token. */
  function layout(row: string): Reply {
    const summary = summarize(query, location?.name);
    const blocks: Block[] = [{ kind: 'header', text: summary }];
    if (query.count && byCard && !plan.previous)
      blocks.push({
        kind: 'text',
        text: countLine({ total: result.totalItems, read: groups.length, more: next !== undefined, noun: 'listings' }),
      });
    if (filter) blocks.push({ kind: 'context', text: filter.said(groups.length, fetched.length, next !== undefined) });
    if (shown.length === 0 && filter && fetched.length > 0) {
      blocks.push({
        kind: 'text',
        text: next
          ? 'None of these is within that price per sqft. Next looks at the following listings.'
          : 'None of these is within that price per sqft.',
      });
    } else if (shown.length === 0) {
      const text = plan.previous
        ? 'No more results.'
        : saveable
          ? 'Nothing matches today. Save as alert to hear when something does.'
          : (noPersonListings(query) ?? 'No results. Try fewer filters, a wider price range or a nearby area.');
      blocks.push({ kind: 'text', text });
    } else {
      const unreadable = result.dropped ? ` (${result.dropped} unreadable left out)` : '';
      if (byCard)
        blocks.push({
          kind: 'context',
          text: `Showing ${plan.firstNumber}–${plan.firstNumber + shown.length - 1}${unreadable}`,
        });
      const cards = renderGroups(op, shownGroups, {
        locationName: location?.name ?? query.location ?? '',
        ...(answer.marketContext ? { marketContext: answer.marketContext } : {}),
        ...(answer.period ? { period: { ...answer.period, firstNumber: plan.firstNumber } } : {}),
        personButtons: personButtons(people, row),
        listingButtons: (propertyId) => {
          const i = details.indexOf(propertyId);
          return i === -1 ? [] : [{ label: 'Details', action: 'details', token: `${row}.d${i}` }];
        },
      });
      blocks.push(...fitCardButtons(cards, surface.buttonsPerCard));
    }

    const buttons: Button[] = [];
    if (previous) buttons.push({ label: '◀ Previous', action: 'page', token: `${row}.p` });
    if (next) buttons.push({ label: 'Next ▶', action: 'page', token: `${row}.n` });
    if (saveable) buttons.push({ label: 'Save as alert', action: 'save', token: `${row}.s`, style: 'primary' });
    if (buttons.length > 0) blocks.push({ kind: 'actions', buttons });
    if (picker) blocks.push({ kind: 'location-picker', token: `${row}.r`, placeholder: 'Refine: another location…' });
    return { text: shown.length > 0 ? `${summary}: ${shown.length} shown` : `${summary}: no results`, blocks };
  }
}
