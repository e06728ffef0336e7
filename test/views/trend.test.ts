import { describe, expect, it } from 'vitest';
import { location, priceTrendPoint } from '../../src/api/records.js';
import { locationList, percentChange, sparkline, trendView } from '../../src/views/index.js';
import type { Block } from '../../src/views/model.js';

const point = (bedroom_id: number, date: string, community_price: unknown, tower_price: unknown = null) =>
  priceTrendPoint.parse({ bedroom_id, date, community_price, tower_price, period: '', time_frame: '1Y' });

// Given out of date order, as nothing promises the service sorts them.
const points = [
  point(1, '2025-05-01T00:00:00Z', 2000),
  point(1, '2025-02-01T00:00:00Z', 2000),
  point(1, '2025-04-01T00:00:00Z', 2100),
  point(1, '2025-03-01T00:00:00Z', 2050),
  point(1, '2025-06-01T00:00:00Z', 2150),
  point(1, '2026-01-01T00:00:00Z', 2200),
  point(0, '2025-02-01T00:00:00Z', 1500),
  point(0, '2025-07-01T00:00:00Z', null),
  point(0, '2026-01-01T00:00:00Z', '1400'),
  point(2, '2026-01-01T00:00:00Z', null, 1800),
];

describe('trendView', () => {
  const blocks = trendView(points, 'Dubai Marina');

  it('for townhouses and villas leaves out the studio and 1-bed rows the service sends, and says so', () => {
    const houses = [...points, point(3, '2026-01-01T00:00:00Z', 1300)];
    const town = trendView(houses, 'Arabian Ranches', 'townhouse');
    const table = town[0] as Extract<Block, { kind: 'table' }>;
    expect(table.rows.map((r) => r[0])).toEqual(['2 beds', '3 beds']);
    expect((town[1] as Extract<Block, { kind: 'context' }>).text).toContain(
      'The studio and 1-bed rows the service returns for townhouses are left out: townhouses have 2 bedrooms or more.',
    );
    // Apartments, or no type asked: every row, no note.
    for (const type of ['apartment', undefined]) {
      const all = trendView(houses, 'Arabian Ranches', type);
      expect((all[0] as Extract<Block, { kind: 'table' }>).rows.map((r) => r[0])).toEqual([
        'Studio',
        '1 bed',
        '2 beds',
        '3 beds',
      ]);
      expect((all[1] as Extract<Block, { kind: 'context' }>).text).not.toContain('left out');
    }
  });

  it('shows per bedroom count the latest AED/sqft, the change from first to last, and a sparkline in date order', () => {
    // The reply's own header already says what this is; the view starts with the figures.
    expect(blocks.some((b) => b.kind === 'header')).toBe(false);
    expect(blocks[0]).toEqual({
      kind: 'table',
      columns: ['Beds', 'AED/sqft', 'Change', 'Trend'],
      rows: [
        ['Studio', '1,400', '−6.7%', '█·▁'],
        ['1 bed', '2,200', '+10.0%', '▁▃▅▁▆█'],
        ['2 beds', '1,800', '–', '▄'],
      ],
    });
  });

  it('states the unit and the period covered', () => {
    expect(blocks[1]).toEqual({
      kind: 'context',
      text: 'Dubai Marina: AED per sqft, latest value; change from the first to the last point, Feb 2025 to Jan 2026.',
    });
  });

  it('falls back on the period label when a point has no date', () => {
    const labelled = [
      priceTrendPoint.parse({ bedroom_id: 1, period: 'Mar 2025', community_price: 2100 }),
      priceTrendPoint.parse({ bedroom_id: 1, period: 'Feb 2025', community_price: 2000 }),
    ];
    const table = trendView(labelled, 'Business Bay')[0];
    expect(table).toMatchObject({ rows: [['1 bed', '2,100', '+5.0%', '▁█']] });
  });

  it('shows a dash when a bedroom count has no value at all', () => {
    const table = trendView([point(3, '2025-02-01T00:00:00Z', null)], 'JVC')[0];
    expect(table).toMatchObject({ rows: [['3 beds', '–', '–', '–']] });
  });

  it('says so when there are no points', () => {
    expect(trendView([], 'Dubai Marina')).toEqual([
      { kind: 'text', text: 'No price trend data was found for Dubai Marina.' },
    ]);
  });
});

describe('sparkline and percentChange', () => {
  it('scales bars between the minimum and maximum, and marks gaps', () => {
    expect(sparkline([1, 2, 3, 4, 5, 6, 7, 8])).toBe('▁▂▃▄▅▆▇█');
    expect(sparkline([5, undefined, 5])).toBe('▄·▄');
    expect(sparkline([])).toBe('');
    // One text sparkline for every reply and fallback (a trend's table, a digest's or a compare's chart as text): a
    // gap stays visible as a dot, a flat series sits in the middle.
    expect(sparkline([2100, 2230, 2100])).toBe('▁█▁');
    expect(sparkline([-5, 0, 5])).toBe('▁▅█');
    expect(sparkline([42])).toBe('▄');
    expect(sparkline([7, 7, 7])).toBe('▄▄▄');
    expect(sparkline([1, Number.NaN, 3])).toBe('▁·█');
    expect(sparkline([Number.NaN, Number.POSITIVE_INFINITY])).toBe('');
  });

  it('rounds to one decimal with a sign', () => {
    expect(percentChange(2000, 2200)).toBe('+10.0%');
    expect(percentChange(1500, 1400)).toBe('−6.7%');
    expect(percentChange(1000, 1000)).toBe('0.0%');
    expect(percentChange(undefined, 1000)).toBeUndefined();
  });
});

describe('locationList', () => {
  it('lists the matches with their ids and coordinates, best first', () => {
    const found = [
      location.parse({ id: 50, name: 'Dubai Marina', coordinates: { lat: 25.0805, lon: 55.1403 } }),
      location.parse({ id: 5460, name: 'Vida Residences Dubai Marina' }),
    ];
    expect(locationList(found)).toEqual([
      {
        kind: 'table',
        columns: ['Location', 'ID', 'Coordinates'],
        rows: [
          ['Dubai Marina', '50', '25.0805, 55.1403'],
          ['Vida Residences Dubai Marina', '5460', '–'],
        ],
      },
    ]);
  });

  it('says so when nothing matches', () => {
    expect(locationList([])).toEqual([{ kind: 'text', text: 'No matching locations were found.' }]);
  });
});
