// Figures of a period cover the period: a transactions reply's count, median, min and max are those of every sale or
// letting of the period asked for, not of the page its table shows. Checked against the period recomputed straight
// from the sandbox's data module (test/support/period-truth.ts), for several areas, kinds, filters and periods; the
// page cap says "at least"; the extra pages are cached. A real Bot, ApiClient and MarketData, the sandbox over
// loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MarketData, periodTransactions } from '../../src/market/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { Reply } from '../../src/views/model.js';
import { aed, medianOf, periodTruth, type PeriodAsk } from '../support/period-truth.js';
import { ask, button, harness, press, removeTempDirs, type Harness } from './harness.js';

let sandbox: Sandbox;
let nested: Sandbox;
beforeAll(async () => {
  sandbox = createSandbox({ key: 'period-figures' });
  nested = createSandbox({ key: 'period-figures-nested', transactionShape: 'nested' });
  await Promise.all([sandbox.listen(), nested.listen()]);
});
afterAll(async () => {
  await Promise.all([sandbox.close(), nested.close()]);
  removeTempDirs();
});

/** A Bot wired as src/app/chat.ts wires it: the period read through MarketData on the same client, within its page cap. */
function withPeriods(on: Sandbox, maxPages?: number): Harness & { ref: { market?: MarketData } } {
  const ref: { market?: MarketData } = {};
  const h = harness(on, {
    bot: { periods: { transactions: (params, use) => periodTransactions(ref.market!, params, use) } },
  });
  ref.market = new MarketData(h.api, maxPages === undefined ? {} : { maxPages });
  return { ...h, ref };
}

const texts = (r: Reply, kind: 'text' | 'context') => r.blocks.flatMap((b) => (b.kind === kind ? [b.text] : []));
const rows = (r: Reply) => r.blocks.flatMap((b) => (b.kind === 'table' ? b.rows : []));
const transactionCalls = (s: Sandbox) => s.requests().filter((q) => q.path === '/get-get-transactions').length;

const SUMMARY =
  /^(At least )?([\d,]+) (sales|lettings) in (the last month|the last \d+ months)(?: · |; figures of the ([\d,]+) most recent: )median (AED [\d,]+) · min (AED [\d,]+) · max (AED [\d,]+)$/;

/** The figures a reply states, read back from its summary line. */
function stated(r: Reply) {
  const line = texts(r, 'text')[0] ?? '';
  const m = SUMMARY.exec(line);
  if (!m) throw new Error(`no period summary in ${JSON.stringify(r.blocks.filter((b) => b.kind !== 'table'))}`);
  return {
    atLeast: Boolean(m[1]),
    count: Number(m[2]!.replace(/,/g, '')),
    noun: m[3],
    period: m[4],
    over: m[5] && Number(m[5].replace(/,/g, '')),
    median: m[6],
    min: m[7],
    max: m[8],
  };
}

const CASES: { text: string; truth: PeriodAsk; header: RegExp }[] = [
  {
    text: 'what sold in dubai marina last month',
    truth: { area: 'Dubai Marina', kind: 'sold', months: 1 },
    header: /Sold transactions in Dubai Marina/,
  },
  {
    text: 'rented dubai marina last 3 months',
    truth: { area: 'Dubai Marina', kind: 'rented', months: 3 },
    header: /Rental transactions in Dubai Marina/,
  },
  {
    // Sorted by price, the table's page is not one of the period's (read newest first): the figures still are.
    text: 'rented dubai marina last 3 months highest price',
    truth: { area: 'Dubai Marina', kind: 'rented', months: 3 },
    header: /Rental transactions in Dubai Marina/,
  },
  {
    text: 'sold jvc 2br last 6 months',
    truth: { area: 'Jumeirah Village Circle', kind: 'sold', months: 6, bedrooms: 2 },
    header: /Jumeirah Village Circle, 2 bedrooms/,
  },
  {
    text: 'sold dubai silicon oasis last year',
    truth: { area: 'Dubai Silicon Oasis', kind: 'sold', months: 12 },
    header: /Dubai Silicon Oasis/,
  },
  {
    text: 'rented marina gate last year',
    truth: { area: 'Marina Gate', kind: 'rented', months: 12 },
    header: /Marina Gate/,
  },
  {
    text: 'rented palm jumeirah villas last year',
    truth: { area: 'Palm Jumeirah', kind: 'rented', months: 12, propertyType: 'villa' },
    header: /Palm Jumeirah, villas/,
  },
];

describe('a transactions reply’s figures are its period’s', () => {
  it.each(CASES)(
    '"$text": the count, median, min and max of every record of the period',
    { timeout: 60_000 },
    async ({ text, truth: asked, header }) => {
      const h = withPeriods(sandbox);
      try {
        const truth = periodTruth(sandbox, asked);
        // More than one service page (15), and within the default cap of 8 pages: the figures can only come from all of
        // them.
        expect(truth.count).toBeGreaterThan(15);
        expect(truth.count).toBeLessThanOrEqual(120);
        const reply = await ask(h.bot, text);
        expect(reply.blocks[0]).toMatchObject({ kind: 'header', text: expect.stringMatching(header) });
        const s = stated(reply);
        expect(s).toMatchObject({
          atLeast: false,
          count: truth.count,
          noun: asked.kind === 'sold' ? 'sales' : 'lettings',
          over: undefined,
        });
        expect(s.period).toBe(asked.months === 1 ? 'the last month' : `the last ${asked.months} months`);
        expect([s.median, s.min, s.max]).toEqual([aed(truth.median!), aed(truth.min!), aed(truth.max!)]);
        // The table stays one page, and says where it is in the period.
        expect(rows(reply)).toHaveLength(15);
        expect(texts(reply, 'context')).toContain(`Showing 1–15 of ${truth.count}`);
      } finally {
        await h.close();
      }
    },
  );

  it(
    'Next shows the next rows under the same figures, and the medians per bedroom count are the period’s too',
    { timeout: 60_000 },
    async () => {
      const h = withPeriods(sandbox);
      try {
        const truth = periodTruth(sandbox, { area: 'Dubai Marina', kind: 'sold', months: 1 });
        const first = await ask(h.bot, 'what sold in dubai marina last month');
        const second = await press(h.bot, button(first, /Next/));
        expect(texts(second, 'text')).toEqual(texts(first, 'text'));
        expect(rows(second)).toHaveLength(Math.min(15, truth.count - 15));
        expect(texts(second, 'context')).toContain(`Showing 16–${Math.min(30, truth.count)} of ${truth.count}`);
        const byBeds = new Map<number, number[]>();
        for (const t of truth.records) byBeds.set(t.bedrooms, [...(byBeds.get(t.bedrooms) ?? []), t.price]);
        const label = (b: number) => (b === 0 ? 'Studio' : `${b} ${b === 1 ? 'bed' : 'beds'}`);
        const expected = [...byBeds.entries()]
          .sort(([a], [b]) => a - b)
          .map(
            ([b, prices]) =>
              `${label(b)} ${prices.length >= 3 ? aed(medianOf(prices)!) : 'too little data'} (${prices.length})`,
          )
          .join(' · ');
        expect(texts(first, 'context')).toContain(`Median by bedrooms: ${expected}`);
        expect(texts(second, 'context')).toContain(`Median by bedrooms: ${expected}`);
      } finally {
        await h.close();
      }
    },
  );

  it(
    'past the page cap the count says "at least" and the figures name the records they are of',
    { timeout: 60_000 },
    async () => {
      const h = withPeriods(sandbox, 2);
      try {
        const truth = periodTruth(sandbox, { area: 'Dubai Marina', kind: 'sold', months: 12 });
        expect(truth.count).toBeGreaterThan(30);
        const recent = truth.records.slice(0, 30).map((t) => t.price);
        const s = stated(await ask(h.bot, 'sold dubai marina last year'));
        expect(s).toMatchObject({
          atLeast: true,
          count: 30,
          over: 30,
          median: aed(medianOf(recent)!),
          min: aed(Math.min(...recent)),
          max: aed(Math.max(...recent)),
        });
      } finally {
        await h.close();
      }
    },
  );

  it(
    'past the page cap, a service that gives its total has the count exact, the figures still named as the most recent',
    { timeout: 60_000 },
    async () => {
      const h = withPeriods(nested, 2);
      try {
        const truth = periodTruth(nested, { area: 'Dubai Marina', kind: 'sold', months: 12 });
        const recent = truth.records.slice(0, 30).map((t) => t.price);
        const reply = await ask(h.bot, 'sold dubai marina last year');
        expect(stated(reply)).toMatchObject({
          atLeast: false,
          count: truth.count,
          over: 30,
          median: aed(medianOf(recent)!),
        });
        expect(texts(reply, 'context')).toContain(`Showing 1–15 of ${truth.count.toLocaleString('en-US')}`);
      } finally {
        await h.close();
      }
    },
  );

  it(
    'reads each page of the period once: Next and the same question again cost no more pages of it',
    { timeout: 60_000 },
    async () => {
      const h = withPeriods(sandbox);
      try {
        const truth = periodTruth(sandbox, { area: 'Downtown Dubai', kind: 'rented', months: 1 });
        sandbox.clearRequests();
        const first = await ask(h.bot, 'rented downtown dubai last month');
        expect(stated(first).count).toBe(truth.count);
        // The period's pages until a short one, the table's page first among them (read once: the table shows the
        // period's first page), and the next one (a full page may be the last: Next is offered only when the next has
        // records): nothing more.
        expect(truth.count).toBeGreaterThan(15);
        const periodPages = Math.floor(truth.count / 15) + 1;
        expect(transactionCalls(sandbox)).toBe(1 + periodPages);
        await press(h.bot, button(first, /Next/));
        expect(transactionCalls(sandbox)).toBe(1 + periodPages);
        await ask(h.bot, 'rented downtown dubai last month');
        expect(transactionCalls(sandbox)).toBe(1 + periodPages);
      } finally {
        await h.close();
      }
    },
  );

  it(
    'when the rest of the period cannot be read, the reply still comes, its figures named as the page’s',
    { timeout: 60_000 },
    async () => {
      const h = withPeriods(sandbox);
      try {
        // The table's page is in the bot's answer cache; the period is not cached (a market cache of its own, empty)
        // and
        // the service fails when it is read.
        await ask(h.bot, 'sold business bay last month');
        h.ref.market = new MarketData(h.api);
        sandbox.addFault({ path: '/get-get-transactions', status: 500 });
        const reply = await ask(h.bot, 'sold business bay last month');
        const line = texts(reply, 'text')[0]!;
        expect(line).toMatch(
          /^Of the 15 sales shown \(the last month could not be read in full just now\): median AED [\d,]+/,
        );
        expect(line).not.toMatch(/in the last month ·/);
      } finally {
        sandbox.clearFaults();
        await h.close();
      }
    },
  );
});
