// The snapshot's arithmetic (src/bot/snapshot.ts), on pages laid out by hand: what a chat page takes when rows moved
// between two reads, what counts as new, and how the next and previous chat pages are found.
import { describe, expect, it } from 'vitest';
import { cursorOf, nextCursor, previousCursor, takeCards, type Cursor, type ReadPage } from '../../src/bot/snapshot.js';

/** A listing that folds with nothing else (its own size), or with `twin` (same flat, another agent). */
const listing = (id: number, twin?: number) => ({
  property_id: String(id),
  bedrooms: '1',
  size: { value: 700 + (twin ?? id) * 50, unit: 'sqft' },
  price: { value: 100_000 + (twin ?? id) * 5_000, currency: 'AED', period: 'yearly', is_hidden: false },
  location: { id: '50' },
});
const page = (n: number, ids: number[], full = true): ReadPage => ({
  page: n,
  records: ids.map((i) => listing(i)),
  full,
});
const start: Cursor = { page: 1, skip: 0, shown: 0, seen: [], back: [], arrived: [] };
const ids = (t: ReturnType<typeof takeCards>) => t.cards.map((g) => (g.listing as { property_id: string }).property_id);

describe('a chat page of a snapshot', () => {
  it('takes the rest of one page and the start of the next, skipping rows pushed down onto it', () => {
    const first = takeCards('search-rent', [page(1, [1, 2, 3, 4, 5, 6])], start, 4);
    expect(ids(first)).toEqual(['1', '2', '3', '4']);
    const after = nextCursor(start, first, 4);
    // Two arrivals (100, 101) pushed 5 and 6 onto page 2 when it was read: 5 and 6 once, in order, and then 7, 8.
    const second = takeCards('search-rent', [page(1, [100, 101, 1, 2, 3, 4]), page(2, [5, 6, 7, 8, 9])], after, 4);
    expect(ids(second)).toEqual(['5', '6', '7', '8']);
    expect(second.arrived).toEqual(['100', '101']);
    expect(nextCursor(after, second, 4)).toMatchObject({ page: 2, shown: 8 });
  });

  it('counts an arrival once, however many pages read it', () => {
    const first = takeCards('search-buy', [page(1, [1, 2, 3, 4])], start, 2);
    const c1 = nextCursor(start, first, 2);
    const second = takeCards('search-buy', [page(1, [50, 1, 2, 3, 4])], c1, 2);
    const c2 = nextCursor(c1, second, 2);
    const third = takeCards('search-buy', [page(1, [50, 1, 2, 3, 4, 5])], c2, 2);
    expect(second.arrived).toEqual(['50']);
    expect(third.arrived).toEqual([]);
    expect(nextCursor(c2, third, 1).arrived).toEqual(['50']);
  });

  it('shows a later copy of a flat shown before as a card of its own, never dropping it', () => {
    const first = takeCards('search-rent', [page(1, [1, 2])], start, 2);
    const c1 = nextCursor(start, first, 2);
    const copy = { ...listing(9, 1) };
    const second = takeCards(
      'search-rent',
      [{ page: 1, records: [listing(1), listing(2), copy, listing(3)], full: false }],
      c1,
      2,
    );
    expect(ids(second)).toEqual(['9', '3']);
  });

  it('goes back to where the page before started, and a typed page back by a page', () => {
    const first = takeCards('search-rent', [page(1, [1, 2, 3, 4, 5, 6])], start, 3);
    const c1 = nextCursor(start, first, 3);
    const second = takeCards('search-rent', [page(1, [1, 2, 3, 4, 5, 6])], c1, 3);
    expect(previousCursor(c1, second, 3)).toMatchObject({ page: 1, skip: 0, shown: 0, seen: [] });
    const typed = cursorOf({ page: 1, offset: 0, chat: 3 }, 'search-rent', 10);
    expect(typed).toMatchObject({ page: 1, skip: 20, shown: 0 });
    const t = takeCards(
      'search-rent',
      [
        page(
          1,
          Array.from({ length: 25 }, (_, i) => i + 1),
        ),
      ],
      typed,
      10,
    );
    expect(ids(t)).toEqual(['21', '22', '23', '24', '25']);
    expect(previousCursor(typed, t, 10)).toMatchObject({ skip: 10, shown: 0 });
  });
});
