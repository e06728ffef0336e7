import { describe, expect, it } from 'vitest';
import { transaction } from '../../src/api/records.js';
import { median, transactionsView, type Block } from '../../src/views/index.js';

const tx = (id: string, bedrooms: unknown, price: unknown, date = '2026-01-15') =>
  transaction.parse({ id, bedrooms, price, high_level_location_name: 'Dubai Marina', property_type: 'Apartment', transaction_date: date });

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

  it('summarises count, median, min and max over the priced transactions', () => {
    expect(texts(blocks, 'text')).toEqual(['8 transactions · median AED 100,000 · min AED 50,000 · max AED 200,000']);
  });

  it('gives the median per bedroom count, studios first, with how many sales each', () => {
    expect(texts(blocks, 'context')).toEqual(['Median by bedrooms: Studio AED 55,000 (2) · 1 bed AED 100,000 (3) · 2 beds AED 150,000 (1)']);
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
    expect(texts(blocks, 'text')).toEqual(['1 transaction, none with a price.']);
    expect(texts(blocks, 'context')).toEqual([]);
  });
});

describe('median', () => {
  it('takes the middle value, or the mean of the middle two', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeUndefined();
  });
});
