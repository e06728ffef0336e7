// The seeded market and its clock: realistic, deterministic, and moving when advanced.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';
import { useSandbox } from './helpers.js';

const sb = useSandbox();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe('the dataset', () => {
  it('is as large and varied as the brief asks', () => {
    const s = sb.sandbox.stats();
    expect(s.locations).toBeGreaterThanOrEqual(30);
    expect(s.emirates).toBeGreaterThanOrEqual(5);
    expect(s.listings).toBeGreaterThanOrEqual(3000);
    expect(s.adrec).toBeGreaterThan(0);
    expect(s.agents).toBeGreaterThan(s.brokers);
    expect(sb.sandbox.now().toISOString()).toBe('2026-11-01T00:00:00.000Z');
  });

  it('prices each area like the 2026 market (median AED per sqft of homes for sale)', async () => {
    const expected: [string, number][] = [
      ['41', 4150],
      ['51', 3150],
      ['86', 2550],
      ['42', 2430],
      ['50', 2230],
      ['43', 1480],
    ];
    for (const [id, ppsf] of expected) {
      const sales = await sb.all('/search-buy', { location_id: id });
      const m = median(sales.filter((l) => !l.price.is_hidden).map((l) => l.price.value / l.size.value));
      expect(m, `location ${id}`).toBeGreaterThan(ppsf * 0.9);
      expect(m, `location ${id}`).toBeLessThan(ppsf * 1.1);
    }
    const marina1 = await sb.all('/search-rent', { location_id: '50', bedrooms: '1', property_type: 'apartment' });
    const rent = median(marina1.filter((l) => !l.price.is_hidden).map((l) => l.price.value));
    expect(rent).toBeGreaterThan(90_000);
    expect(rent).toBeLessThan(140_000);
    const jvcStudio = await sb.all('/search-rent', { location_id: '43', bedrooms: '0', property_type: 'apartment' });
    const studio = median(jvcStudio.map((l) => l.price.value).filter((v) => v > 0));
    expect(studio).toBeGreaterThan(45_000);
    expect(studio).toBeLessThan(65_000);
    const ajman = await sb.all('/search-buy', { location_id: '5', bedrooms: '2', property_type: 'apartment' });
    expect(median(ajman.map((l) => l.price.value / l.size.value).filter((v) => v > 0))).toBeLessThan(1000);
  });

  it('has what the real service does: hidden prices, listings without images, null agent_details', async () => {
    const all = [
      ...(await sb.all('/search-buy', { location_id: '2' })),
      ...(await sb.all('/search-rent', { location_id: '2' })),
    ];
    expect(all.some((l) => l.price.is_hidden && l.price.value === 0)).toBe(true);
    expect(all.some((l) => l.images.length === 0)).toBe(true);
    expect(all.some((l) => l.agent_details === null)).toBe(true);
  });

  it('is the same for the same seed and different for another', async () => {
    const a = createSandbox({ seed: 7 });
    const b = createSandbox({ seed: 7 });
    const c = createSandbox({ seed: 8 });
    const urls = await Promise.all([a.listen(), b.listen(), c.listen()]);
    try {
      const page = async (url: string) =>
        (await fetch(`${url}/search-rent?location_id=50`, { headers: { 'x-gateway-key': 'sandbox-key' } })).text();
      const [ta, tb, tc] = await Promise.all(urls.map(page));
      expect(ta).toBe(tb);
      expect(ta).not.toBe(tc);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });
});

describe('the market clock', () => {
  it('advance adds higher property ids, listed at the new time, first in a newest search of Dubai Marina', async () => {
    const s = createSandbox();
    const url = await s.listen();
    try {
      const newest = async () =>
        (await (await fetch(`${url}/search-rent?location_id=50`, { headers: { 'x-gateway-key': s.key } })).json()) as {
          data: { property_id: string; listed_date: string }[];
        };
      const buy = async () =>
        (await (await fetch(`${url}/search-buy?location_id=50`, { headers: { 'x-gateway-key': s.key } })).json()) as {
          data: { property_id: string }[];
        };
      const listed = s.stats().listings;
      const before = [...(await newest()).data, ...(await buy()).data];
      const maxBefore = Math.max(...before.map((l) => Number(l.property_id)));
      const counts = s.advance(24 * 60);
      expect(counts.added).toBeGreaterThan(0);
      expect(counts.withdrawn).toBeGreaterThan(0);
      expect(counts.repriced).toBeGreaterThan(0);
      expect(s.now().toISOString()).toBe('2026-11-02T00:00:00.000Z');
      const after = [...(await newest()).data, ...(await buy()).data];
      const fresh = after.filter((l) => Number(l.property_id) > maxBefore);
      expect(fresh.length).toBeGreaterThan(0);
      const rent = (await newest()).data;
      const firstOld = rent.findIndex((l) => Number(l.property_id) <= maxBefore);
      const lastNew = rent.findLastIndex((l) => Number(l.property_id) > maxBefore);
      expect(lastNew).toBeLessThan(firstOld === -1 ? Infinity : firstOld);
      if (rent[0] && Number(rent[0].property_id) > maxBefore)
        expect(rent[0].listed_date).toBe('2026-11-02T00:00:00.000Z');
      expect(s.stats().listings).toBe(listed + counts.added + counts.relisted - counts.withdrawn);
    } finally {
      await s.close();
    }
  });

  it('is deterministic: the same seed and advances give the same counts and the same answers', async () => {
    const run = async () => {
      const s = createSandbox({ seed: 3 });
      const url = await s.listen();
      const counts = [s.advance(30), s.advance(240)];
      const body = await (
        await fetch(`${url}/search-buy?location_id=2`, { headers: { 'x-gateway-key': s.key } })
      ).text();
      await s.close();
      return { counts, body };
    };
    const [a, b] = [await run(), await run()];
    expect(a).toEqual(b);
  });

  it('withdrawn listings answer 404, and over HTTP /__sandbox/advance moves the clock', async () => {
    const s = createSandbox();
    const url = await s.listen();
    try {
      const listed = s.stats().listings;
      const r = await fetch(`${url}/__sandbox/advance?minutes=600`, { method: 'POST' });
      expect(r.status).toBe(200);
      const counts = (await r.json()) as { added: number; withdrawn: number; repriced: number; now: string };
      expect(counts).toMatchObject({ added: 120, withdrawn: 40, repriced: 60, now: '2026-11-01T10:00:00.000Z' });
      expect(s.stats().listings).toBe(listed + 120 + 1 - 40); // one relisted copy per advance
      expect((await fetch(`${url}/__sandbox/advance?minutes=-5`, { method: 'POST' })).status).toBe(400);
    } finally {
      await s.close();
    }
  });
});

describe('transactions as the clock moves', () => {
  const sold = async (url: string, key: string, location = '2') =>
    (await (
      await fetch(`${url}/get-get-transactions?location_id=${location}&transaction_type=sold&period=1m`, {
        headers: { 'x-gateway-key': key },
      })
    ).json()) as {
      data: { id: string; transaction_date: string }[];
    };

  it('arrive each day, dated at the market clock, the same however the clock got there', async () => {
    const a = createSandbox({ seed: 5 });
    const b = createSandbox({ seed: 5 });
    const [ua, ub] = await Promise.all([a.listen(), b.listen()]);
    try {
      const before = a.stats().transactions;
      a.advance(3 * 24 * 60 + 12 * 60);
      for (let i = 0; i < 7 * 24; i++) b.advance(30);
      expect(a.now()).toEqual(b.now());
      expect(a.stats().transactions).toBe(b.stats().transactions);
      expect(a.stats().transactions).toBeGreaterThan(before);
      const [sa, sb2] = [await sold(ua, a.key), await sold(ub, b.key)];
      expect(sa).toEqual(sb2);
      // Those of the clock's day so far are there, none of its later hours.
      expect(sa.data[0]!.transaction_date).toBe('2026-11-04');
      const later = a.stats().transactions;
      a.advance(6 * 60);
      expect(a.stats().transactions).toBeGreaterThan(later);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('the price trend keeps its past months as the clock moves into the next', async () => {
    const s = createSandbox();
    const url = await s.listen();
    try {
      const trend = async () =>
        (
          (await (
            await fetch(`${url}/price-trend-of-location?location_id=50`, { headers: { 'x-gateway-key': s.key } })
          ).json()) as {
            data: { bedroom_id: number; period: string; community_price: number }[];
          }
        ).data;
      const nov = await trend();
      s.advance(31 * 24 * 60);
      const dec = await trend();
      const at = (points: typeof nov, period: string) =>
        points.find((p) => p.bedroom_id === 2 && p.period === period)?.community_price;
      expect(at(dec, 'Nov 2026')).toBe(at(nov, 'Nov 2026'));
      expect(dec.filter((p) => p.bedroom_id === 2).at(-1)!.period).toBe('Dec 2026');
    } finally {
      await s.close();
    }
  });
});
