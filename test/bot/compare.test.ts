// `/compare` through the bot's public surface, on a real ApiClient, MarketData and LocationResolver against the sandbox
// over loopback: every figure checked against the sandbox's own records, recomputed here straight from its dataset
// (test/support/period-truth.ts) or read raw over HTTP (the trend, the listings), not through the code under test.
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/index.js';
import { Bot } from '../../src/bot/index.js';
import { CompareCommands } from '../../src/compare/index.js';
import { LocationResolver } from '../../src/locations/index.js';
import { silentLogger } from '../../src/log.js';
import { MarketData } from '../../src/market/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createButtonStateRepo, createLocationCacheRepo, openStore } from '../../src/store/index.js';
import type { Block, Reply } from '../../src/views/model.js';
import { aed, periodTruth } from '../support/period-truth.js';
import { removeTempDirs, tempDbPath } from './harness.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = createSandbox({ key: 'compare' });
  await sandbox.listen();
});
afterAll(async () => {
  await sandbox.close();
  removeTempDirs();
});

/** A bot wired as src/app/chat.ts wires it, with its own market cache. */
function compareBot() {
  const store = openStore(tempDbPath());
  const api = new ApiClient({ baseUrl: sandbox.url!, key: sandbox.key, retry: { attempts: 1 } });
  const locations = new LocationResolver(api, createLocationCacheRepo(store, Date.now, 'sandbox'), 86_400_000);
  const market = new MarketData(api);
  const bot = new Bot({
    api,
    locations,
    state: createButtonStateRepo(store, Date.now, 'sandbox'),
    logger: silentLogger,
    compare: new CompareCommands({ market, locations, logger: silentLogger }),
  });
  const ask = (text: string) => bot.handleCommand({ user: 'U1', channel: 'test:1', text });
  return { ask, close: async () => (await api.close(), store.close()) };
}

const tables = (r: Reply) => r.blocks.filter((b): b is Extract<Block, { kind: 'table' }> => b.kind === 'table');
/** The table's cell for a row (by its label's start) and an area's column. */
function cell(table: Extract<Block, { kind: 'table' }>, row: string, area: string): string {
  const col = table.columns.indexOf(area);
  const r = table.rows.find((x) => x[0]!.startsWith(row));
  if (col < 0 || !r) throw new Error(`no ${row} / ${area} in ${JSON.stringify(table)}`);
  return r[col]!;
}
const unmarked = (s: string) => s.replace(' ★', '');

async function raw(path: string, params: Record<string, string>): Promise<unknown[]> {
  const qs = new URLSearchParams(params);
  const res = await fetch(`${sandbox.url}${path}?${qs.toString()}`, { headers: { 'x-gateway-key': sandbox.key } });
  return ((await res.json()) as { data: unknown[] }).data;
}

/** Listings for sale or rent in a place of a bedroom count, read raw (the first page of 25: "25+" when full). */
async function listed(op: 'search-buy' | 'search-rent', id: number, beds: number): Promise<string> {
  let n = 0;
  const rows = await raw(`/${op}`, { location_id: String(id), bedrooms: String(beds), page: '1' });
  n += rows.length;
  return rows.length < 25 ? String(n) : '25+';
}

/** The PNG inflated: its IDAT data holds a filter byte and the pixels of every row. */
function decodedPng(base64: string): { width: number; height: number } {
  const png = Buffer.from(base64, 'base64');
  expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const channels = { 0: 1, 2: 3, 4: 2, 6: 4 }[png[25]!]!;
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    if (png.toString('ascii', at + 4, at + 8) === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  expect(inflateSync(Buffer.concat(idat)).length).toBe(height * (1 + width * channels * (png[24]! / 8)));
  return { width, height };
}

describe('/compare', () => {
  it(
    'per area, 2 bedrooms: medians, yields and counts of the sandbox records, trend and listings, best marked, a chart',
    { timeout: 60_000 },
    async () => {
      const { ask, close } = compareBot();
      const reply = await ask('/compare marina, jlt 2br');
      await close();
      expect(reply.ephemeral).toBeFalsy();
      const [table] = tables(reply);
      expect(table!.columns).toEqual(['', 'Dubai Marina', 'Jumeirah Lake Towers']);
      const prices: number[] = [];
      for (const area of ['Dubai Marina', 'Jumeirah Lake Towers']) {
        const sold = periodTruth(sandbox, { area: area, kind: 'sold', months: 3, bedrooms: 2 });
        const rented = periodTruth(sandbox, { area: area, kind: 'rented', months: 3, bedrooms: 2 });
        expect(sold.count).toBeGreaterThanOrEqual(3);
        expect(rented.count).toBeGreaterThanOrEqual(3);
        expect(unmarked(cell(table!, 'Sale price', area))).toBe(aed(sold.median!));
        expect(unmarked(cell(table!, 'Rent a year', area))).toBe(aed(rented.median!));
        expect(unmarked(cell(table!, 'Gross yield', area))).toBe(
          `${((rented.median! / sold.median!) * 100).toFixed(1)} %`,
        );
        expect(cell(table!, 'Sales · lettings', area)).toBe(`${sold.count} · ${rented.count}`);
        prices.push(sold.median!);
        const points = (await raw('/price-trend-of-location', { location_id: String(sold.areaId) })) as {
          bedroom_id: number;
          date: string;
          community_price: number;
        }[];
        const series = points
          .filter((p) => p.bedroom_id === 2)
          .sort((a, b) => a.date.localeCompare(b.date))
          .map((p) => p.community_price);
        expect(unmarked(cell(table!, 'AED per sqft', area))).toBe(series.at(-1)!.toLocaleString('en-US'));
        const change = (series.at(-1)! / series[0]! - 1) * 100;
        expect(unmarked(cell(table!, 'Change over 12', area))).toBe(`${change > 0 ? '+' : ''}${change.toFixed(1)} %`);
        expect(unmarked(cell(table!, 'Listed for sale', area))).toBe(await listed('search-buy', sold.areaId, 2));
        expect(unmarked(cell(table!, 'Listed for rent', area))).toBe(await listed('search-rent', sold.areaId, 2));
      }
      // The lower median price is the best of its row, and only it.
      const cheaper = prices[0]! < prices[1]! ? 'Dubai Marina' : 'Jumeirah Lake Towers';
      const dearer = cheaper === 'Dubai Marina' ? 'Jumeirah Lake Towers' : 'Dubai Marina';
      expect(cell(table!, 'Sale price', cheaper)).toMatch(/★$/);
      expect(cell(table!, 'Sale price', dearer)).not.toMatch(/★/);
      const image = reply.blocks.find((b) => b.kind === 'image');
      expect(image?.kind === 'image' && decodedPng(image.image.pngBase64).width).toBeGreaterThan(0);
    },
  );

  it(
    'an area with too little data says so in its cells, and its rent over 12 months is said to be',
    { timeout: 60_000 },
    async () => {
      const { ask, close } = compareBot();
      const reply = await ask('is "arabian ranches 3" or dubai marina better for a 3 bed');
      await close();
      const [table] = tables(reply);
      const area = 'Arabian Ranches 3';
      const sold = periodTruth(sandbox, { area: area, kind: 'sold', months: 3, bedrooms: 3 });
      const rented3 = periodTruth(sandbox, { area: area, kind: 'rented', months: 3, bedrooms: 3 });
      const rented12 = periodTruth(sandbox, { area: area, kind: 'rented', months: 12, bedrooms: 3 });
      // The sandbox's records: too few sales and lettings in 3 months, enough lettings in 12.
      expect([sold.count < 3, rented3.count < 3, rented12.count >= 3]).toEqual([true, true, true]);
      expect(cell(table!, 'Sale price', area)).toBe('too little data');
      expect(cell(table!, 'Gross yield', area)).toBe('too little data');
      expect(unmarked(cell(table!, 'Rent a year', area))).toBe(`${aed(rented12.median!)} (12 mo)`);
      expect(cell(table!, 'Sales · lettings', area)).toBe(`${sold.count} · ${rented12.count}`);
      const notes = reply.blocks.flatMap((b) => (b.kind === 'context' ? [b.text] : [])).join(' ');
      expect(notes).toContain('Rents over 12 months for Arabian Ranches 3: 3 months had too few lettings.');
    },
  );
  it(
    'every bedroom count: every area read over its whole 3 months, each count equal to the sandbox records and to a one-count compare',
    { timeout: 60_000 },
    async () => {
      const { ask, close } = compareBot();
      const reply = await ask('/compare marina, "jumeirah village triangle"');
      const one = await ask('/compare marina, "jumeirah village triangle" studio');
      await close();
      const all = tables(reply);
      expect(all.map((t) => t.columns[0])).toEqual([
        'Studios',
        '1-bedroom homes',
        '2-bedroom homes',
        '3-bedroom homes',
        '4+-bedroom homes',
      ]);
      // Dubai Marina has more than 4 pages of each in 3 months: read whole, not the newest 30.
      const truth = (area: string, kind: 'sold' | 'rented') => periodTruth(sandbox, { area, kind, months: 3 });
      expect(truth('Dubai Marina', 'sold').count).toBeGreaterThan(60);
      for (const area of ['Dubai Marina', 'Jumeirah Village Triangle']) {
        for (const i of [0, 1, 2, 3]) {
          const t = all[i]!;
          const sold = periodTruth(sandbox, { area, kind: 'sold', months: 3, bedrooms: i });
          const rented = periodTruth(sandbox, { area, kind: 'rented', months: 3, bedrooms: i });
          expect(unmarked(cell(t, 'Sale price', area))).toBe(sold.count >= 3 ? aed(sold.median!) : 'too little data');
          if (rented.count >= 3) {
            expect(unmarked(cell(t, 'Rent a year', area))).toBe(aed(rented.median!));
            expect(cell(t, 'Sales · lettings', area)).toBe(`${sold.count} · ${rented.count}`);
          }
        }
      }
      // The studio rows of every count are the one-count compare's, cell for cell.
      const [studio] = tables(one);
      expect(all[0]!.rows.slice(0, 6).map((r) => r.slice(1))).toEqual(studio!.rows.slice(0, 6).map((r) => r.slice(1)));
      const notes = reply.blocks.flatMap((b) => (b.kind === 'context' ? [b.text] : [])).join(' ');
      expect(notes).not.toMatch(/newest|at least/);
      expect(reply.text).not.toMatch(/\d\+ ·/);
    },
  );

  it('an area the service fails for is named, and the others still answer', { timeout: 60_000 }, async () => {
    const { ask, close } = compareBot();
    // The first area's trend fails (the areas are read one after another); the second's is answered.
    sandbox.addFault({ path: '/price-trend-of-location', status: 500, count: 1 });
    try {
      const reply = await ask('marina vs jvc 1br');
      const [table] = tables(reply);
      expect(table!.columns).toEqual(['', 'Jumeirah Village Circle']);
      const truth = periodTruth(sandbox, { area: 'Jumeirah Village Circle', kind: 'sold', months: 3, bedrooms: 1 });
      expect(unmarked(cell(table!, 'Sale price', 'Jumeirah Village Circle'))).toBe(aed(truth.median!));
      const failed = reply.blocks.find((b) => b.kind === 'text' && b.text.startsWith('Dubai Marina'));
      expect(failed).toEqual({
        kind: 'text',
        text: 'Dubai Marina: not compared, the property service failed to answer.',
      });
      expect(reply.text).not.toMatch(/too little data|stack|error|status/i);
    } finally {
      sandbox.clearFaults();
      await close();
    }
  });

  it('one area, or six, is refused with a friendly word and no call', async () => {
    const { ask, close } = compareBot();
    const before = sandbox.requests().length;
    const one = await ask('/compare marina');
    const six = await ask('/compare marina, jlt, jvc, downtown, business bay, arabian ranches');
    await close();
    expect(one.ephemeral).toBe(true);
    expect(one.text).toMatch(/Which areas\? Name two to 5/);
    expect(six.text).toMatch(/at most 5 areas at once \(you named 6\)/);
    expect(sandbox.requests().length).toBe(before);
  });
});
