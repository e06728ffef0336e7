// Chart inputs shared by the chart tests and bench/charts.ts: fixed numbers, so the golden images stay valid.
import type { TrendChartInput, TrendSeries } from '../../src/charts/index.js';

/** Twelve months from `first` (YYYY-MM). */
export function months(first: string, count = 12): string[] {
  const start = Number(first.slice(0, 4)) * 12 + Number(first.slice(5, 7)) - 1;
  return Array.from(
    { length: count },
    (_, i) => `${Math.floor((start + i) / 12)}-${String(((start + i) % 12) + 1).padStart(2, '0')}`,
  );
}

/** A gently moving series: `from` to about `to` over the months, with a fixed wobble. */
export function series(name: string, from: number, to: number, first = '2025-12', count = 12): TrendSeries {
  return {
    name,
    points: months(first, count).map((month, i) => ({
      month,
      value: Math.round(from + ((to - from) * i) / (count - 1) + (i > 0 && i < count - 1 ? 25 * Math.sin(i * 1.3) : 0)),
    })),
  };
}

export const MARINA: TrendChartInput = {
  title: 'AED per sqft in Dubai Marina',
  yLabel: 'AED per sqft',
  xLabel: 'Month',
  legendTitle: 'Bedrooms',
  series: [
    series('Studio', 1650, 1702),
    series('1 bed', 1880, 1955),
    series('2 bed', 2100, 2230),
    series('3 bed', 2310, 2290),
    series('4+ bed', 2580, 2490),
  ],
};

export const COMPARISON = {
  title: '2-bedroom AED per sqft: Dubai Marina, Business Bay, JVC',
  yLabel: 'AED per sqft',
  areas: [
    series('Dubai Marina', 2100, 2230),
    series('Business Bay', 2240, 2395),
    series('Jumeirah Village Circle', 1180, 1265),
  ],
};
