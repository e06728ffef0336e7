// A fetched page laid out as a reply for the adapter's surface: the cards of this chat page, paging, Save as alert, the
// Refine picker; one state row behind all of its buttons, and only when it has any.
import { operationSpec } from '../api/operations.js';
import { notAlertable, summarize, type Query } from '../query/index.js';
import type { TransactionsScope } from '../views/index.js';
import type { Block, Button, Reply } from '../views/model.js';
import {
  DEFAULT_SURFACE,
  MAX_PAGE,
  PAYLOAD_VERSION,
  type PageRow,
  type Area,
  type Position,
} from './button-payloads.js';
import { planPage } from './paging.js';
import { noPersonListings, offersPersonButtons, pagePeople, personButtons } from './people.js';
import { perSqftFilter } from './per-sqft-filter.js';
import { CARD_OPERATIONS, cardGroups, fitCardButtons, groupListingIds, renderGroups } from './render-results.js';
import type { SearchOutcome } from './search.js';
import type { ButtonStateStore, Surface } from './types.js';

/** The service's page size is not published (15 to 50 observed); a page shorter than this is surely the last. */
const SMALLEST_FULL_PAGE = 10;

/** One chat page to show: a search, where in it, and the surface it is laid out for. */
export interface PageView {
  query: Query;
  location?: Area | undefined;
  position: Position;
  surface: Surface;
}

export interface PresentDeps {
  state: ButtonStateStore;
  /** The longest page this operation has answered so far. */
  longestPage(operation: SearchOutcome['operation']): number;
  /** Adds the footer every reply carries. */
  finish(reply: Reply): Reply;
  /** Market context per listing shown, looked up before the layout (no I/O here). */
  marketContext?: (propertyId: string) => string | undefined;
  /** What a transactions reply's figures cover: the period, read whole before the layout. */
  period?: TransactionsScope;
  /**
   * Whether the service has anything on this page of the search: asked only when this chat page ends a full service
   * page, since a last page can be exactly full. Undefined (it could not tell) keeps Next.
   */
  hasRecords?: (page: number) => Promise<boolean | undefined>;
}

/** Lays a fetched page out for the surface; stores one state row, and only when the reply has buttons. */
export async function presentPage(
  view: PageView,
  { operation: op, result }: SearchOutcome,
  deps: PresentDeps,
): Promise<Reply> {
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
    longestPage: Math.max(records, deps.longestPage(op)),
    smallestFullPage: SMALLEST_FULL_PAGE,
  });
  const shownGroups = groups.slice(plan.offset, plan.offset + plan.count);
  const shown = shownGroups.map((g) => g.listing);
  const further = paged && plan.next && plan.next.page <= lastPage(query) ? plan.next : undefined;
  // The service's pages have no total: a full page may be the last one, and Next would open an empty page.
  const next =
    further && further.page !== view.position.page && (await deps.hasRecords?.(further.page)) === false
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
  const row = stateful
    ? await deps.state.save('page', {
        v: PAYLOAD_VERSION,
        query,
        ...(location ? { location } : {}),
        surface,
        details,
        ...(next ? { next } : {}),
        ...(previous ? { previous } : {}),
        ...(people.length > 0 ? { people } : {}),
      } satisfies PageRow)
    : '';

  const summary = summarize(query, location?.name);
  const blocks: Block[] = [{ kind: 'header', text: summary }];
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
      ...(deps.marketContext ? { marketContext: deps.marketContext } : {}),
      ...(deps.period ? { period: { ...deps.period, firstNumber: plan.firstNumber } } : {}),
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
  return deps.finish({
    text: shown.length > 0 ? `${summary}: ${shown.length} shown` : `${summary}: no results`,
    blocks,
  });
}

/** The last service page Manzil asks for: MAX_PAGE pages as people count them (ADREC counts from 0). */
export const lastPage = (query: Query) => MAX_PAGE - 1 + (operationSpec(query.operation).firstPage ?? 1);

/** The adapter's surface, within what any platform can show; the defaults when it says nothing. */
export function fitSurface(surface: Surface | undefined): Surface {
  if (!surface) return DEFAULT_SURFACE;
  const whole = (n: number, min: number, max: number, fallback: number) =>
    Number.isInteger(n) ? Math.min(max, Math.max(min, n)) : fallback;
  return {
    cardsPerPage: whole(surface.cardsPerPage, 1, 50, DEFAULT_SURFACE.cardsPerPage),
    buttonsPerCard: whole(surface.buttonsPerCard, 0, 25, DEFAULT_SURFACE.buttonsPerCard),
    ...(surface.personButtons === false ? { personButtons: false } : {}),
  };
}
