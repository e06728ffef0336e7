import { describe, expect, it } from 'vitest';
import { planPage, type PageInputs } from '../../src/bot/paging.js';

const cards = (total: number, longestPage = total): PageInputs => ({
  total,
  firstPage: 1,
  byCard: true,
  perChatPage: 10,
  longestPage,
  smallestFullPage: 10,
});

describe('planPage', () => {
  it('shows ten cards at a time within a service page, then moves to the next service page', () => {
    expect(planPage({ page: 1, offset: 0 }, cards(25))).toEqual({
      offset: 0,
      count: 10,
      firstNumber: 1,
      next: { page: 1, offset: 10 },
    });
    expect(planPage({ page: 1, offset: 20 }, cards(25))).toEqual({
      offset: 20,
      count: 5,
      firstNumber: 21,
      previous: { page: 1, offset: 10 },
      next: { page: 2, offset: 0 },
    });
  });

  it('numbers records across service pages and steps back to the last chat page of the previous one', () => {
    const plan = planPage({ page: 2, offset: 0 }, cards(25));
    expect(plan.firstNumber).toBe(26);
    expect(plan.previous).toEqual({ page: 1, offset: -1 });
    expect(planPage({ page: 1, offset: -1 }, cards(25))).toMatchObject({ offset: 20, count: 5 });
  });

  it('offers no Next after a page shorter than the longest seen, or shorter than any plausible full page', () => {
    expect(planPage({ page: 3, offset: 0 }, cards(7, 25)).next).toBeUndefined();
    expect(planPage({ page: 1, offset: 0 }, cards(3)).next).toBeUndefined();
    expect(planPage({ page: 1, offset: 0 }, cards(15)).next).toEqual({ page: 1, offset: 10 });
  });

  it('tells a full service page by its records, when the same flat from several agents made fewer cards', () => {
    // 25 records, two of them copies folded into other cards: 23 cards, and the page is still full (there is a next
    // one).
    const folded: PageInputs = { ...cards(23, 25), records: 25 };
    expect(planPage({ page: 1, offset: 20 }, folded)).toMatchObject({
      offset: 20,
      count: 3,
      next: { page: 2, offset: 0 },
    });
    expect(planPage({ page: 1, offset: 20 }, cards(23, 25)).next).toBeUndefined();
  });

  it('shows a whole service page at once for tables, paging by service page (ADREC from 0)', () => {
    const table: PageInputs = {
      total: 20,
      firstPage: 0,
      byCard: false,
      perChatPage: 10,
      longestPage: 20,
      smallestFullPage: 10,
    };
    expect(planPage({ page: 0, offset: 0 }, table)).toEqual({
      offset: 0,
      count: 20,
      firstNumber: 1,
      next: { page: 1, offset: 0 },
    });
    expect(planPage({ page: 1, offset: 0 }, table).previous).toEqual({ page: 0, offset: 0 });
  });

  it('has nothing to show and no Next past the end, but a way back', () => {
    const plan = planPage({ page: 4, offset: 0 }, cards(0, 25));
    expect(plan.count).toBe(0);
    expect(plan.next).toBeUndefined();
    expect(plan.previous).toEqual({ page: 3, offset: -1 });
  });
});
