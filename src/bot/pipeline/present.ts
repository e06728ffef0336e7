// Stage 4, present a page: a fetched service page laid out as a chat page for the adapter's surface: the cards of this
// chat page, paging, Save as alert, the Refine picker. It writes nothing: the one row behind all of its buttons (when it
// has any) is handed on to be remembered (remember.ts), and the reply is laid out with that row's token.
import { operationSpec } from '../../api/operations.js';
import { notAlertable, summarize } from '../../query/index.js';
import { countLine } from '../../query/intent.js';
import type { Block, Button, Reply } from '../../views/model.js';
import type { FlatGroup } from '../../views/index.js';
import { PAYLOAD_VERSION, lastPage, type PageRow, type Position } from '../button-payloads.js';
import { noResultsText } from '../no-results.js';
import { planPage } from '../paging.js';
import { noPersonListings, offersPersonButtons, pagePeople, personButtons } from '../people.js';
import { perSqftFilter, type PerSqftFilter } from '../per-sqft-filter.js';
import { wordsFilter, type WordsFilter } from '../words-filter.js';
import { cardGroups, fitCardButtons, groupListingIds, renderGroups } from '../render-results.js';
import { MAX_SEEN, SMALLEST_FULL_PAGE, nextCursor, previousCursor } from '../snapshot.js';
import type { Fetched, Window } from './fetch.js';
import type { Draft } from './stages.js';
import type { PageView } from './resolve.js';

/** Lays a fetched page out for the surface; one state row to remember, and only when the reply has buttons. */
export async function presentPage(view: PageView, answer: Fetched): Promise<Draft> {
  const { operation: op, result } = answer.outcome;
  const { query, location, surface } = view;
  const spec = operationSpec(op);
  const sqft = perSqftFilter(query, op);
  const words = wordsFilter(query);
  const filter = bothFilters(sqft, words);
  const laid = answer.window
    ? byCard(view, answer.window, filter)
    : await wholePage(view, answer, result.records.length, filter);
  const { shownGroups, firstNumber, considered, kept, next, previous } = laid;
  const shown = shownGroups.map((g) => g.listing);
  const saveable = notAlertable(query, location) === undefined;
  const picker = 'location_id' in spec.params && location !== undefined;
  const details = surface.buttonsPerCard > 0 ? groupListingIds(op, shownGroups) : [];
  const people = offersPersonButtons(surface) ? pagePeople(op, shownGroups) : [];

  const stateful = next || previous || saveable || picker || details.length > 0 || people.length > 0;
  // A typed `page 3` of cards is where the result started; its Next and Previous move from there.
  const { page: _typed, ...params } = query.params;
  const row: PageRow | undefined = stateful
    ? {
        v: PAYLOAD_VERSION,
        query: answer.window ? { ...query, params } : query,
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
    const summary = summarize(query, location?.name, answer.agentName);
    const blocks: Block[] = [{ kind: 'header', text: summary }];
    if (query.count && answer.window && !previous)
      blocks.push({
        kind: 'text',
        text: countLine({ total: result.totalItems, read: kept, more: next !== undefined, noun: 'listings' }),
      });
    if (sqft) blocks.push({ kind: 'context', text: sqft.said(kept, considered, next !== undefined) });
    if (laid.arrived > 0) blocks.push({ kind: 'context', text: arrivedText(laid.arrived) });
    if (shown.length === 0 && words && considered > 0 && laid.byWords === considered) {
      // The service did answer: the words left everything out, which is not "no results".
      blocks.push({ kind: 'text', text: words.allExcluded(considered, next !== undefined) });
    } else if (shown.length === 0 && sqft && considered > 0) {
      blocks.push({
        kind: 'text',
        text: next
          ? 'None of these is within that price per sqft. Next looks at the following listings.'
          : 'None of these is within that price per sqft.',
      });
    } else if (shown.length === 0) {
      const text = previous
        ? 'No more results.'
        : saveable
          ? 'Nothing matches today. Save as alert to hear when something does.'
          : (noPersonListings(query) ?? noResultsText(query));
      blocks.push({ kind: 'text', text });
    } else {
      const unreadable = result.dropped ? ` (${result.dropped} unreadable left out)` : '';
      if (answer.window)
        blocks.push({
          kind: 'context',
          text: `Showing ${firstNumber}–${firstNumber + shown.length - 1}${unreadable}`,
        });
      const cards = renderGroups(op, shownGroups, {
        locationName: location?.name ?? query.location ?? '',
        propertyType: query.params.property_type,
        ...(answer.marketContext ? { marketContext: answer.marketContext } : {}),
        ...(answer.period ? { period: { ...answer.period, firstNumber } } : {}),
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
    if (saveable) {
      buttons.push({ label: 'Save as alert', action: 'save', token: `${row}.s`, style: 'primary' });
      // The same alert, to the person's direct messages alone.
      buttons.push({ label: 'Save for me', action: 'save', token: `${row}.sm` });
    }
    if (buttons.length > 0) blocks.push({ kind: 'actions', buttons });
    if (picker) blocks.push({ kind: 'location-picker', token: `${row}.r`, placeholder: 'Refine: another location…' });
    const excluded = shown.length === 0 && words !== undefined && considered > 0 && laid.byWords === considered;
    const none = excluded ? 'every listing excluded by your words' : 'no results';
    return { text: shown.length > 0 ? `${summary}: ${shown.length} shown` : `${summary}: ${none}`, blocks };
  }
}

/** What a page lays out: its cards, how they are numbered, and where its Next and Previous lead. */
interface Laid {
  shownGroups: FlatGroup<unknown>[];
  firstNumber: number;
  /** Cards the filters (price per sqft, words) looked at for this page, and those they kept. */
  considered: number;
  kept: number;
  /** Of those looked at, the ones the words left out. */
  byWords: number;
  next?: Position | undefined;
  previous?: Position | undefined;
  /** Listings found new since the search on the pages read: said, not shown. */
  arrived: number;
}

/** A chat page of a result shown card by card: the cards its snapshot took (bot/snapshot.ts). */
function byCard(view: PageView, { cursor, taken }: Window, filter: PageFilter | undefined): Laid {
  const keeps = (g: FlatGroup<unknown>) => !filter || filter.keeps(g.listing);
  const shownGroups = taken.cards.filter(keeps);
  const keptSkipped = taken.skipped.filter(keeps).length;
  const after = nextCursor(cursor, taken, keptSkipped + shownGroups.length);
  const before = previousCursor(cursor, taken, view.surface.cardsPerPage);
  const further = taken.more && after.seen.length < MAX_SEEN && after.page <= lastPage(view.query);
  return {
    shownGroups,
    firstNumber: cursor.shown + keptSkipped + 1,
    considered: taken.cards.length,
    kept: shownGroups.length,
    byWords: filter?.byWords(taken.cards) ?? 0,
    ...(further ? { next: { offset: 0, ...after } } : {}),
    ...(before ? { previous: { offset: 0, ...before } } : {}),
    arrived: after.arrived.length,
  };
}

/** A table (transactions, a trend): the service's whole page is one chat page, paged by service page. */
async function wholePage(
  view: PageView,
  answer: Fetched,
  records: number,
  filter: PageFilter | undefined,
): Promise<Laid> {
  const { operation: op, result } = answer.outcome;
  const fetched = cardGroups(op, result.records);
  const groups = filter ? fetched.filter((g) => filter.keeps(g.listing)) : fetched;
  const spec = operationSpec(op);
  const plan = planPage(view.position, {
    total: groups.length,
    records,
    firstPage: spec.firstPage ?? 1,
    byCard: false,
    perChatPage: view.surface.cardsPerPage,
    longestPage: Math.max(records, answer.longestPage),
    smallestFullPage: SMALLEST_FULL_PAGE,
  });
  const paged = spec.firstPage !== undefined;
  const further = paged && plan.next && plan.next.page <= lastPage(view.query) ? plan.next : undefined;
  // The service's pages have no total: a full page may be the last one, and Next would open an empty page.
  const next = further && (await answer.hasRecords(further.page)) === false ? undefined : further;
  return {
    shownGroups: groups.slice(plan.offset, plan.offset + plan.count),
    firstNumber: plan.firstNumber,
    considered: fetched.length,
    kept: groups.length,
    byWords: filter?.byWords(fetched) ?? 0,
    next,
    previous: paged ? plan.previous : undefined,
    arrived: 0,
  };
}

const arrivedText = (n: number) =>
  `${n} new listing${n === 1 ? '' : 's'} since you searched, left out so these pages stay as they were: search again to see ${n === 1 ? 'it' : 'them'}.`;

/** What a page's cards are kept by: the price per sqft and the words, both when both were said. */
interface PageFilter {
  keeps(listing: unknown): boolean;
  /** How many of these cards the words leave out. */
  byWords(groups: readonly FlatGroup<unknown>[]): number;
}

function bothFilters(sqft: PerSqftFilter | undefined, words: WordsFilter | undefined): PageFilter | undefined {
  if (!sqft && !words) return undefined;
  return {
    keeps: (l) => (!sqft || sqft.keeps(l)) && (!words || words.keeps(l)),
    byWords: (groups) => (words ? groups.filter((g) => !words.keeps(g.listing)).length : 0),
  };
}
