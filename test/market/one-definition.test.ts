// One definition per figure: a listing card, a transactions reply, a digest, `/compare` and `/value` quote the same
// number for the same scope (area, bedrooms, property type, period), on five areas, for sales and for lettings; each
// equal to the sandbox's own records recomputed straight from its data module (test/support/period-truth.ts), never
// through Manzil's figure code. Where two answers' scopes differ (a card of apartments, a digest of every type), each
// says its own.
import { describe, expect, it } from 'vitest';
import { listingSummary, type Transaction } from '../../src/api/records.js';
import {
  compareAreas,
  composeAreaDigest,
  contextText,
  periodTransactions,
  PERIOD_WORDS,
  readValue,
  type MarketData,
} from '../../src/market/index.js';
import { transactionsView } from '../../src/views/index.js';
import { aed, periodTruth } from '../support/period-truth.js';
import { marketRig } from './helpers.js';

const NAMES = ['Dubai Marina', 'Jumeirah Lake Towers', 'Business Bay', 'Jumeirah Village Circle', 'Downtown Dubai'];
const BEDS = 2;
const DAY = 86_400_000;

/** The summary line of a transactions reply, as the bot makes it for a search of these parameters. */
async function transactionsLine(market: MarketData, params: Record<string, string>): Promise<string> {
  const whole = await periodTransactions(market, params);
  const kind = params.transaction_type as 'sold' | 'rented';
  const blocks = transactionsView(whole.records.slice(0, 15) as Transaction[], {
    kind,
    period: PERIOD_WORDS[params.period!]!,
    whole,
  });
  return blocks.find((b) => b.kind === 'text')!.text as string;
}

const rentListing = (type: string | null) =>
  listingSummary.parse({
    property_id: '1',
    property_type: type,
    price: { value: 150_000, currency: 'AED', period: 'yearly', is_hidden: false },
    bedrooms: String(BEDS),
    size: { value: 1000, unit: 'sqft' },
  });

describe('the same number for the same scope, in every answer', () => {
  it('card, transactions, digest, compare and value agree with each other and with the sandbox', async () => {
    const rig = await marketRig();
    const market = rig.market;
    const now = rig.sandbox.now();
    // Ids as the sandbox's geography has them.
    const AREAS = NAMES.map((name) => ({
      id: periodTruth(rig.sandbox, { area: name, kind: 'sold', months: 1 }).areaId,
      name,
    }));
    const checked = { typedCards: 0, values: 0 };
    for (const area of AREAS) {
      const id = String(area.id);
      const digest = await composeAreaDigest(market, area, { since: new Date(now.getTime() - 7 * DAY), now });
      const compare = await compareAreas(market, [area, AREAS[(AREAS.indexOf(area) + 1) % AREAS.length]!], {});
      const compareOne = await compareAreas(market, [area, AREAS[0]!], { bedrooms: BEDS });
      for (const kind of ['sold', 'rented'] as const) {
        const nouns = kind === 'sold' ? ['sale', 'sales'] : ['letting', 'lettings'];
        const counted = (n: number) => `${n} ${nouns[n === 1 ? 0 : 1]}`;
        // The last month, 2 bedrooms, every type: the digest's bucket and a transactions reply.
        const month = periodTruth(rig.sandbox, { area: area.name, kind, months: 1, bedrooms: BEDS });
        // Fewer than 3 with a price: "too little data" in both, never a median of one or two.
        const median = month.count >= 3 ? month.median : undefined;
        const bucket = digest[kind].data!.buckets.find((b) => b.bucket === String(BEDS))!;
        expect([bucket.median, bucket.priced], `${area.name} digest ${kind}`).toEqual([median, month.count]);
        const params = { location_id: id, transaction_type: kind, period: '1m', bedrooms: String(BEDS) };
        const m = median === undefined ? 'too little data (a median needs 3 prices)' : aed(median);
        expect(await transactionsLine(market, params)).toBe(
          `${counted(month.count)} in the last month · median ${m} · min ${aed(month.min!)} · max ${aed(month.max!)}`,
        );
        // Three months, 2 bedrooms: a compare of every count and of one count, and a transactions reply.
        const quarter = periodTruth(rig.sandbox, { area: area.name, kind, months: 3, bedrooms: BEDS });
        const cellOf = (c: typeof compare) => {
          const cell = c.areas[0]!.cells.find((x) => x.bucket === String(BEDS))!;
          return kind === 'sold' ? cell.sale : cell.rent;
        };
        for (const c of [compare, compareOne])
          expect([cellOf(c).median, cellOf(c).priced], `${area.name} compare ${kind}`).toEqual([
            quarter.median,
            quarter.count,
          ]);
        expect(await transactionsLine(market, { ...params, period: '3m' })).toContain(
          `${counted(quarter.count)} in the last 3 months · median ${aed(quarter.median!)}`,
        );
      }
      // A 2-bed rent card: set against the month's 2-bed lettings of its own type, named; of every type when it says
      // none, then the digest's figure exactly.
      const apartments = periodTruth(rig.sandbox, {
        area: area.name,
        kind: 'rented',
        months: 1,
        bedrooms: BEDS,
        propertyType: 'apartment',
      });
      const typed = await market.listingContext(area, rentListing('Apartment'), { kind: 'rent' });
      if (apartments.count >= 3) {
        checked.typedCards++;
        expect(contextText(typed!)).toContain(
          `2-bed apartment median rent of ${aed(apartments.median!)} a year (last 30 days, ${apartments.count} lettings of apartments)`,
        );
        expect(
          await transactionsLine(market, {
            location_id: id,
            transaction_type: 'rented',
            period: '1m',
            bedrooms: '2',
            property_type: 'apartment',
          }),
        ).toContain(`${apartments.count} lettings in the last month · median ${aed(apartments.median!)}`);
      } else expect(typed).toBeUndefined();
      const everyType = await market.listingContext(area, rentListing(null), { kind: 'rent' });
      const bucket = digest.rented.data!.buckets.find((b) => b.bucket === String(BEDS))!;
      if (bucket.median === undefined) expect(everyType).toBeUndefined();
      else
        expect(contextText(everyType!)).toContain(
          `2-bed median rent of ${aed(bucket.median)} a year (last 30 days, ${bucket.priced} lettings of every type)`,
        );
      // `/value` without a size: the middle of the last 6 months' 2-bed apartment sales and lettings it reads, the same
      // as a transactions reply of that scope when they are all read (2 pages), and its yield says its own scope.
      const value = await readValue(market, area, { bedrooms: BEDS, propertyType: 'apartment' });
      for (const kind of ['sold', 'rented'] as const) {
        const half = periodTruth(rig.sandbox, {
          area: area.name,
          kind,
          months: 6,
          bedrooms: BEDS,
          propertyType: 'apartment',
        });
        const estimate = kind === 'sold' ? value.sale : value.rent;
        if (half.count <= 30 && half.count >= 5 && estimate.state === 'ok') {
          checked.values++;
          expect(estimate.range.mid, `${area.name} value ${kind}`).toBe(half.median);
          expect(estimate.count).toBe(half.count);
        }
      }
    }
    // Not vacuous: typed cards and value ranges were compared on several areas.
    expect(checked.typedCards).toBeGreaterThanOrEqual(3);
    expect(checked.values).toBeGreaterThanOrEqual(3);
  }, 120_000);
});
