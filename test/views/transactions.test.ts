import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { transaction, type Transaction } from '../../src/api/records.js';
import { median } from '../../src/market/definitions.js';
import { formatAed, transactionsView, type Block } from '../../src/views/index.js';

const tx = (id: string, bedrooms: unknown, price: unknown, date = '2026-01-15') =>
  transaction.parse({
    id,
    bedrooms,
    price,
    high_level_location_name: 'Dubai Marina',
    property_type: 'Apartment',
    transaction_date: date,
  });

const records = [
  tx('a1', 0, 50_000, '2026-03-02'),
  tx('a2', 0, 60_000),
  tx('b1', 1, 90_000),
  tx('b2', 1, 130_000),
  tx('b3', 1, 100_000),
  tx('c1', 2, 150_000),
  tx('d1', null, 200_000, 'sometime'),
  tx('e1', 1, null),
];

const texts = (blocks: Block[], kind: 'text' | 'context') => blocks.flatMap((b) => (b.kind === kind ? [b.text] : []));

describe('transactionsView', () => {
  const blocks = transactionsView(records);

  it('without the period, sums up the transactions shown and says they are only those', () => {
    expect(texts(blocks, 'text')).toEqual([
      'Of the 8 transactions shown: median AED 100,000 · min AED 50,000 · max AED 200,000',
    ]);
  });

  it('gives the median per bedroom count, studios first, with how many sales each; fewer than 3: too little data', () => {
    expect(texts(blocks, 'context')).toEqual([
      'Median by bedrooms (of those shown): Studio too little data (2) · 1 bed AED 100,000 (3) · 2 beds too little data (1)',
    ]);
  });

  it('shows a compact table of date, type, beds and price, with dashes for what is missing', () => {
    const table = blocks.find((b) => b.kind === 'table');
    expect(table).toEqual({
      kind: 'table',
      columns: ['Date', 'Type', 'Beds', 'Price'],
      rows: [
        ['2 Mar 2026', 'Apartment', 'Studio', 'AED 50,000'],
        ['15 Jan 2026', 'Apartment', 'Studio', 'AED 60,000'],
        ['15 Jan 2026', 'Apartment', '1 bed', 'AED 90,000'],
        ['15 Jan 2026', 'Apartment', '1 bed', 'AED 130,000'],
        ['15 Jan 2026', 'Apartment', '1 bed', 'AED 100,000'],
        ['15 Jan 2026', 'Apartment', '2 beds', 'AED 150,000'],
        ['sometime', 'Apartment', '–', 'AED 200,000'],
        ['15 Jan 2026', 'Apartment', '1 bed', '–'],
      ],
    });
  });

  it('says so when there are no transactions', () => {
    expect(transactionsView([])).toEqual([{ kind: 'text', text: 'No transactions were found for this search.' }]);
  });

  it('handles records that all lack a price', () => {
    const blocks = transactionsView([tx('x', 1, null)]);
    expect(texts(blocks, 'text')).toEqual(['Of the 1 transaction shown, none has a price.']);
    expect(texts(blocks, 'context')).toEqual([]);
  });
});

describe('transactionsView with its period', () => {
  const all = [...records, tx('f1', 3, 400_000), tx('f2', 2, 170_000)];

  it('sums up every record of the period, names the period and the count, and places the page within it', () => {
    const page = transactionsView(all.slice(5, 10), {
      kind: 'sold',
      period: 'the last month',
      whole: { records: all, count: all.length, atLeast: false },
      firstNumber: 6,
    });
    expect(texts(page, 'text')).toEqual([
      '10 sales in the last month · median AED 130,000 · min AED 50,000 · max AED 400,000',
    ]);
    expect(texts(page, 'context')).toEqual([
      'Median by bedrooms: Studio too little data (2) · 1 bed AED 100,000 (3) · 2 beds too little data (2) · 3 beds too little data (1)',
      'Showing 6–10 of 10',
    ]);
  });

  it('past the page cap says "at least" and names the records the figures are of', () => {
    const page = transactionsView(all.slice(0, 5), {
      kind: 'rented',
      period: 'the last 12 months',
      whole: { records: all, count: all.length, atLeast: true },
      firstNumber: 1,
    });
    expect(texts(page, 'text')).toEqual([
      'At least 10 lettings in the last 12 months; figures of the 10 most recent: median AED 130,000 · min AED 50,000 · max AED 400,000',
    ]);
    expect(texts(page, 'context')).toContain('Showing 1–5 of at least 10');
  });

  it('with the service’s total beyond what was read, gives the total and names the records read', () => {
    const page = transactionsView(all.slice(0, 5), {
      kind: 'sold',
      period: 'the last 3 months',
      whole: { records: all, count: 1234, atLeast: false },
      firstNumber: 1,
    });
    expect(texts(page, 'text')).toEqual([
      '1,234 sales in the last 3 months; figures of the 10 most recent: median AED 130,000 · min AED 50,000 · max AED 400,000',
    ]);
  });

  it('when the period could not be read, says the figures are the page’s', () => {
    const page = transactionsView(all.slice(0, 5), { kind: 'sold', period: 'the last month' });
    expect(texts(page, 'text')).toEqual([
      'Of the 5 sales shown (the last month could not be read in full just now): median AED 90,000 · min AED 50,000 · max AED 130,000',
    ]);
  });

  // Property: whichever page of a period the table shows, the figures are the same, and they are the whole period's.
  const anyTransaction = fc.record({
    price: fc.option(fc.integer({ min: 1, max: 50_000_000 }), { nil: null }),
    bedrooms: fc.option(fc.integer({ min: 0, max: 6 }), { nil: null }),
  });
  it(
    'gives every page of a period the same figures: the count and median of all of its records',
    { timeout: 60_000 },
    () => {
      fc.assert(
        fc.property(
          fc.array(anyTransaction, { minLength: 1, maxLength: 120 }),
          fc.integer({ min: 1, max: 40 }),
          (drawn, size) => {
            const period: Transaction[] = drawn.map((d, i) => tx(`t${i}`, d.bedrooms, d.price));
            const whole = { records: period, count: period.length, atLeast: false };
            const summaries = new Set<string>();
            for (let from = 0; from < period.length; from += size) {
              const page = transactionsView(period.slice(from, from + size), {
                kind: 'sold',
                period: 'the last month',
                whole,
                firstNumber: from + 1,
              });
              summaries.add(texts(page, 'text')[0]!);
            }
            expect(summaries.size).toBe(1);
            const [line] = summaries;
            const prices = period.map((t) => t.price).filter((p): p is number => typeof p === 'number');
            expect(line).toMatch(new RegExp(`^${period.length} sales? in the last month`));
            // One minimum sample for every answer's median (src/market/definitions.ts): 3 prices.
            if (prices.length >= 3) expect(line).toContain(`median ${formatAed(median(prices)!)}`);
            else if (prices.length) expect(line).toContain('median too little data (a median needs 3 prices)');
          },
        ),
      );
    },
  );
});

describe('median', () => {
  it('takes the middle value, or the mean of the middle two', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeUndefined();
  });
});
