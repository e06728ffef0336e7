// The digests job driven by the test's clock: one digest queued per slot across daily, weekly and monthly periods in
// Asia/Dubai and in Europe/London (across its clock changes), with the job run every simulated minute around each due
// time, twice at each instant, and by two instances (two connections to one database file, two holders) racing. Then
// a digest's numbers against the sandbox's own answers (read over raw HTTP and computed here), an area failing
// upstream, the call budget, and restarts between composing and recording.
import { describe, expect, it } from 'vitest';
import { DIGEST_JOB, renderDigest, type DigestComposer, type DigestPayload } from '../../src/digests/index.js';
import { SharedScheduler } from '../../src/jobs/index.js';
import type { Block, Reply } from '../../src/views/model.js';
import { freshPostgres } from '../support/postgres.js';
import {
  BUSINESS_BAY,
  bucketOf,
  ctx,
  digestRig,
  failingProxy,
  HOUR,
  MARINA,
  med,
  MINUTE,
  onCleanup,
  pngSize,
  type DigestRig,
} from './helpers.js';

const ms = (iso: string) => Date.parse(iso);
const iso = (t: number) => new Date(t).toISOString().replace('.000Z', 'Z');
const payloadOf = (row: { payload: string }) => JSON.parse(row.payload) as DigestPayload;

/**
 * The instants the job runs at: every `coarse` from `from` to `to`, and every minute from 5 minutes before to 5 after
 * each of `around` (so a digest queued a minute early or late, or an hour off, shows).
 */
function instants(from: string, to: string, around: string[], coarse = 30 * MINUTE): number[] {
  const set = new Set<number>();
  for (let t = ms(from); t <= ms(to); t += coarse) set.add(t);
  for (const a of around) for (let d = -5; d <= 5; d++) set.add(ms(a) + d * MINUTE);
  return [...set].filter((t) => t >= ms(from) && t <= ms(to)).sort((a, b) => a - b);
}

/** Runs the job at each instant: two instances at once, then the first again at the same instant. */
async function drive(rig: DigestRig, at: number[]) {
  const [a, b] = [rig.instance('instance-a'), rig.instance('instance-b')];
  let ran = 0;
  for (const t of at) {
    rig.clock.set(t);
    const both = await Promise.all([a.run(), b.run()]);
    // Never both at once: the lease lets one run.
    expect(both.filter((r) => r.ran).length).toBeLessThanOrEqual(1);
    const again = await a.run();
    expect(again.queued).toBe(0);
    ran += both.filter((r) => r.ran).length;
  }
  return ran;
}

describe('one digest per slot, driven by the clock', () => {
  const cases: {
    name: string;
    tz: string;
    words: string;
    from: string;
    to: string;
    slots: string[];
    coarse?: number;
  }[] = [
    {
      name: 'daily at 09:00 in Dubai, three days',
      tz: 'Asia/Dubai',
      words: 'daily at 09:00',
      from: '2026-11-24T10:00:00Z',
      to: '2026-11-27T12:00:00Z',
      slots: ['2026-11-25T05:00:00Z', '2026-11-26T05:00:00Z', '2026-11-27T05:00:00Z'],
    },
    {
      name: 'weekly on Friday at 18:30 in Dubai, three weeks',
      tz: 'Asia/Dubai',
      words: 'weekly on friday at 18:30',
      from: '2026-11-24T10:00:00Z',
      to: '2026-12-12T00:00:00Z',
      slots: ['2026-11-27T14:30:00Z', '2026-12-04T14:30:00Z', '2026-12-11T14:30:00Z'],
      coarse: HOUR,
    },
    {
      name: 'monthly at 09:00 in Dubai, three months',
      tz: 'Asia/Dubai',
      words: 'monthly',
      from: '2026-11-24T10:00:00Z',
      to: '2027-02-02T00:00:00Z',
      slots: ['2026-12-01T05:00:00Z', '2027-01-01T05:00:00Z', '2027-02-01T05:00:00Z'],
      coarse: 2 * HOUR,
    },
    {
      name: 'daily at 09:00 in London across the March change',
      tz: 'Europe/London',
      words: 'daily at 09:00',
      from: '2027-03-26T12:00:00Z',
      to: '2027-03-30T12:00:00Z',
      slots: ['2027-03-27T09:00:00Z', '2027-03-28T08:00:00Z', '2027-03-29T08:00:00Z', '2027-03-30T08:00:00Z'],
    },
    {
      name: 'daily at 01:30 in London, a time the March change skips',
      tz: 'Europe/London',
      words: 'daily at 01:30',
      from: '2027-03-26T12:00:00Z',
      to: '2027-03-29T12:00:00Z',
      slots: ['2027-03-27T01:30:00Z', '2027-03-28T01:30:00Z', '2027-03-29T00:30:00Z'],
    },
    {
      name: 'weekly on Sunday at 09:00 in London across the October change',
      tz: 'Europe/London',
      words: 'every sunday at 09:00',
      from: '2027-10-20T00:00:00Z',
      to: '2027-11-08T00:00:00Z',
      slots: ['2027-10-24T08:00:00Z', '2027-10-31T09:00:00Z', '2027-11-07T09:00:00Z'],
      coarse: HOUR,
    },
    {
      name: 'monthly at 09:00 in London, GMT then BST',
      tz: 'Europe/London',
      words: 'monthly at 09:00',
      from: '2027-02-20T00:00:00Z',
      to: '2027-05-02T00:00:00Z',
      slots: ['2027-03-01T09:00:00Z', '2027-04-01T08:00:00Z', '2027-05-01T08:00:00Z'],
      coarse: 2 * HOUR,
    },
  ];
  for (const c of cases) {
    // Driving the clock through months of instants, a run at each, is CPU alone: a loaded machine took past 20 s.
    it(c.name, { timeout: 90_000 }, async () => {
      const rig = await digestRig({ start: c.from });
      const setup = rig.instance('setup');
      const saved = await setup.commands({ timezone: c.tz }).handle(ctx(), `add dubai marina ${c.words}`);
      expect(saved.text).toMatch(/^Saved digest #1: Dubai Marina, /);
      const id = (await setup.repo.byNumber('test:c1', 1))!.id;
      await drive(rig, instants(c.from, c.to, c.slots, c.coarse));
      const queued = await rig.digests();
      // One per slot, keyed by the slot, queued at the slot's very minute.
      expect(queued.map((r) => r.dedupeKey)).toEqual(c.slots.map((s) => `digest:${id}:${ms(s)}`));
      expect(queued.map((r) => iso(r.createdAt))).toEqual(c.slots);
      expect(queued.every((r) => r.channel === 'test:c1' && r.state === 'pending')).toBe(true);
      // What the channel is told next.
      const row = (await setup.repo.byId(id))!;
      expect(row.lastSlot).toBe(ms(c.slots.at(-1)!));
      expect(row.nextRunAt).toBeGreaterThan(ms(c.to) - (c.coarse ?? 30 * MINUTE));
    });
  }

  it('a run late by hours (Manzil was down) posts the latest missed slot once, not each one missed', async () => {
    const rig = await digestRig({ start: '2026-11-24T10:00:00Z' });
    const one = rig.instance('a');
    await one.commands().handle(ctx(), 'add marina daily at 09:00');
    rig.clock.set('2026-11-28T11:00:00Z'); // four due times missed
    expect((await one.run()).queued).toBe(1);
    expect((await one.run()).queued).toBe(0);
    expect((await rig.digests()).map((r) => r.dedupeKey.split(':')[2]).map((t) => iso(Number(t)))).toEqual([
      '2026-11-28T05:00:00Z',
    ]);
    expect(iso((await one.repo.byNumber('test:c1', 1))!.nextRunAt)).toBe('2026-11-29T05:00:00Z');
  });
});

/** The blocks of one place's part of a rendered digest: from its header to the divider. */
function section(reply: Reply, name: string): Block[] {
  const start = reply.blocks.findIndex((b) => b.kind === 'header' && b.text === name);
  expect(start, `a part headed "${name}"`).toBeGreaterThan(0);
  const end = reply.blocks.findIndex((b, i) => i > start && b.kind === 'divider');
  return reply.blocks.slice(start + 1, end);
}

/** The table following the text block that starts with `head`. */
function tableAfter(
  blocks: Block[],
  head: string,
): { text: string; columns: readonly string[]; rows: readonly (readonly string[])[] } {
  const i = blocks.findIndex((b) => b.kind === 'text' && b.text.startsWith(head));
  expect(i, `a part starting "${head}"`).toBeGreaterThanOrEqual(0);
  const table = blocks[i + 1];
  if (table?.kind !== 'table' || blocks[i]!.kind !== 'text') throw new Error(`no table after "${head}"`);
  return { text: (blocks[i] as { text: string }).text, columns: table.columns, rows: table.rows };
}

const LABEL: Record<string, string> = { studio: 'Studio', '1': '1 bed', '2': '2 beds', '3': '3 beds', '4+': '4+ beds' };
const BUCKETS = ['studio', '1', '2', '3', '4+'];
const aed = (n: number) => `AED ${Math.round(n).toLocaleString('en-US')}`;
const pct = (n: number) => `${n > 0 ? '+' : ''}${n.toFixed(1)} %`;

describe("a digest's numbers, checked against the sandbox's own answers", () => {
  it('sold and rented (count and median per bedroom count), trend changes and yields, as the channel sees them', async () => {
    const rig = await digestRig({ start: '2026-11-29T12:00:00Z' });
    const one = rig.instance('a');
    await one.commands().handle(ctx(), 'add dubai marina, business bay');
    rig.clock.set('2026-11-30T05:00:00Z');
    rig.sandbox.clearRequests();
    const report = await one.run();
    expect(report.queued).toBe(1);
    // One place costs about ten calls, not more; every call counted is one the sandbox saw.
    expect(report.calls).toBe(rig.upstream());
    expect(report.calls).toBeLessThanOrEqual(2 * 12);
    const [row] = await rig.digests();
    const reply = renderDigest(payloadOf(row!));
    expect(reply.text).toBe('Market digest: Dubai Marina, Business Bay');

    for (const area of [MARINA, BUSINESS_BAY]) {
      const blocks = section(reply, area.name);
      const id = String(area.id);
      const stats: Record<string, Record<string, number | undefined>> = {};
      for (const [type, head, priceHead] of [
        ['sold', 'Sold:', 'Median price'],
        ['rented', 'Rented:', 'Median annual rent'],
      ] as const) {
        const rows = (await rig.raw('/get-get-transactions', {
          location_id: id,
          transaction_type: type,
          period: '1m',
        })) as { bedrooms: number; price: number }[];
        expect(rows.length, `${area.name} ${type}`).toBeGreaterThan(5);
        const table = tableAfter(blocks, head);
        expect(table.text).toBe(
          `${head} ${rows.length.toLocaleString('en-US')} in the last 30 days, median ${aed(med(rows.map((t) => t.price))!)}`,
        );
        expect(table.columns).toEqual(['Bedrooms', 'Count', priceHead]);
        const expected = BUCKETS.flatMap((b) => {
          const prices = rows.filter((t) => bucketOf(t.bedrooms) === b).map((t) => t.price);
          return prices.length === 0
            ? []
            : [
                [
                  LABEL[b]!,
                  String(prices.length),
                  prices.length >= 3 ? aed(med(prices)!) : `too little data (${prices.length})`,
                ],
              ];
        });
        expect(table.rows, `${area.name} ${type}`).toEqual(expected);
        stats[type] = Object.fromEntries(
          BUCKETS.map((b) => {
            const prices = rows.filter((t) => bucketOf(t.bedrooms) === b).map((t) => t.price);
            return [b, prices.length >= 3 ? med(prices) : undefined];
          }),
        );
      }

      const points = (await rig.raw('/price-trend-of-location', { location_id: id })) as {
        bedroom_id: number;
        date: string;
        period: string;
        community_price: number;
      }[];
      const trend = tableAfter(blocks, 'Price trend, AED per sqft');
      const series = (bed: number) =>
        points.filter((p) => p.bedroom_id === bed).sort((a, b) => a.date.localeCompare(b.date));
      const first = series(0)[0]!.period;
      const last = series(0).at(-1)!.period;
      expect(trend.columns).toEqual(['Bedrooms', `Latest (${last})`, '1 month', '3 months', `Since ${first}`]);
      expect(trend.rows).toEqual(
        [0, 1, 2, 3, 4]
          .filter((bed) => series(bed).length > 0)
          .map((bed) => {
            const s = series(bed).map((p) => p.community_price);
            return [
              LABEL[bucketOf(bed)]!,
              Math.round(s.at(-1)!).toLocaleString('en-US'),
              pct((s.at(-1)! / s.at(-2)! - 1) * 100),
              pct((s.at(-1)! / s.at(-4)! - 1) * 100),
              pct((s.at(-1)! / s[0]! - 1) * 100),
            ];
          }),
      );

      const yields = tableAfter(blocks, 'Gross yield estimate');
      const counts = async (type: string, b: string) =>
        (
          (await rig.raw('/get-get-transactions', { location_id: id, transaction_type: type, period: '1m' })) as {
            bedrooms: number;
          }[]
        ).filter((t) => bucketOf(t.bedrooms) === b).length;
      const expectedYields: string[][] = [];
      for (const b of BUCKETS) {
        const [sold, rent] = [stats.sold![b], stats.rented![b]];
        if (sold === undefined || rent === undefined) continue;
        expectedYields.push([
          LABEL[b]!,
          `${((rent / sold) * 100).toFixed(1)} %`,
          `${aed(rent)} (${await counts('rented', b)})`,
          `${aed(sold)} (${await counts('sold', b)})`,
        ]);
      }
      expect(expectedYields.length).toBeGreaterThanOrEqual(2);
      expect(yields.rows).toEqual(expectedYields);
    }
    // A chart per area and one comparing them, each a 1000x560 PNG.
    const charts = reply.blocks.flatMap((b) => (b.kind === 'image' ? [b.image] : []));
    expect(charts.map((c) => c.title)).toEqual([
      'AED per sqft in Dubai Marina',
      'AED per sqft in Business Bay',
      '2-bedroom AED per sqft, compared',
    ]);
    for (const c of charts) expect(pngSize(Buffer.from(c.pngBase64, 'base64'))).toEqual({ width: 1000, height: 560 });
  });
});

describe('an area failing upstream', () => {
  for (const order of [
    [MARINA, BUSINESS_BAY],
    [BUSINESS_BAY, MARINA],
  ]) {
    it(`is left out and named, the other posted (${order.map((p) => p.name).join(', ')})`, async () => {
      const rig = await digestRig({ start: '2026-11-29T12:00:00Z' });
      const proxy = await failingProxy(rig.sandbox, new Set([String(BUSINESS_BAY.id)]), 503);
      const one = rig.instance('a', { baseUrl: proxy.url });
      const names = order.map((p) => p.name).join(', ');
      expect((await one.commands().handle(ctx(), `add ${names}`)).text).toMatch(/^Saved digest #1/);
      rig.clock.set('2026-11-30T05:00:00Z');
      expect((await one.run()).queued).toBe(1);
      expect(proxy.failed()).toBeGreaterThan(0);
      const reply = renderDigest(payloadOf((await rig.digests())[0]!));
      expect(reply.text).toBe(`Market digest: ${names} (left out: Business Bay)`);
      const bay = section(reply, 'Business Bay');
      expect(bay).toHaveLength(1);
      expect(bay[0]).toMatchObject({
        kind: 'text',
        text: expect.stringMatching(/^⚠️ Business Bay is left out this time: .+\. The rest of the digest is below\.$/),
      });
      const marina = section(reply, 'Dubai Marina');
      expect(tableAfter(marina, 'Sold:').rows.length).toBeGreaterThan(2);
      expect(tableAfter(marina, 'Price trend').rows.length).toBe(5);
      expect(JSON.stringify(marina)).not.toMatch(/could not be fetched|left out/);
      expect(reply.blocks.flatMap((b) => (b.kind === 'image' ? [b.image.title] : []))).toEqual([
        'AED per sqft in Dubai Marina',
      ]);
    });
  }

  it('when every area fails (the service is down), the period is not spent on an empty digest: it is tried again and posted once', async () => {
    const rig = await digestRig({ start: '2026-11-29T12:00:00Z' });
    const one = rig.instance('a', { client: { breaker: { cooldownMs: 50 } } });
    await one.commands().handle(ctx(), 'add dubai marina');
    rig.sandbox.addFault({ status: 503 });
    rig.clock.set('2026-11-30T05:00:00Z');
    await one.run();
    expect(
      (await rig.digests()).map((r) => renderDigest(payloadOf(r)).text),
      'a digest in which every place is left out',
    ).toEqual([]);
    rig.sandbox.clearFaults();
    await new Promise((r) => setTimeout(r, 60)); // the breaker's cooldown
    for (let t = ms('2026-11-30T05:01:00Z'); t <= ms('2026-11-30T07:00:00Z'); t += 5 * MINUTE) {
      rig.clock.set(t);
      await one.run();
    }
    const posted = (await rig.digests()).map((r) => renderDigest(payloadOf(r)));
    expect(posted.map((r) => r.text)).toEqual(['Market digest: Dubai Marina']);
  });
});

describe('the call budget', () => {
  it('a digest the budget cannot cover is postponed with one notice, however often it is tried, then posted once', async () => {
    const rig = await digestRig({ start: '2026-11-29T12:00:00Z' });
    const poor = rig.instance('a', { client: { budget: { perDay: 3 } } });
    await poor.commands().handle(ctx(), 'add dubai marina daily at 09:00');
    rig.sandbox.clearRequests();
    for (let t = ms('2026-11-30T05:00:00Z'); t <= ms('2026-11-30T08:00:00Z'); t += 5 * MINUTE) {
      rig.clock.set(t);
      await poor.run();
    }
    expect(rig.upstream(), 'nothing is fetched for a digest that cannot be covered').toBe(0);
    expect(await rig.digests()).toHaveLength(0);
    const notices = await rig.notices();
    expect(
      notices.map((n) => (JSON.parse(n.payload) as { text: string }).text),
      'one notice in the channel',
    ).toEqual([
      "⏳ Digest #1 is postponed: the property service's call budget for today is spent. I'll post it as soon as it allows (the schedule stays Tue 1 Dec 09:00 for the next one).",
    ]);
    expect(notices[0]!.channel).toBe('test:c1');
    expect((await poor.commands().handle(ctx(), 'list')).text).toMatch(
      /⚠️ postponed: the call budget cannot cover it now/,
    );

    // The budget allows again (a new day, on an instance whose client has calls left): posted once, for that day.
    const rich = rig.instance('b');
    for (let t = ms('2026-11-30T08:05:00Z'); t <= ms('2026-11-30T12:00:00Z'); t += 5 * MINUTE) {
      rig.clock.set(t);
      await rich.run();
    }
    expect((await rig.digests()).map((r) => renderDigest(payloadOf(r)).text)).toEqual(['Market digest: Dubai Marina']);
    expect(await rig.notices()).toHaveLength(1);
    expect(iso((await rich.repo.byNumber('test:c1', 1))!.nextRunAt)).toBe('2026-12-01T05:00:00Z');
  });
});

/** A composer that composes, then waits for `release` before answering (a process stalled or killed right there). */
function stalling(inner: DigestComposer) {
  let release!: () => void;
  let composed!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const done = new Promise<void>((r) => (composed = r));
  const composer: DigestComposer = {
    canAfford: (areas) => inner.canAfford(areas),
    async compose(request) {
      const out = await inner.compose(request);
      composed();
      await gate;
      return out;
    },
  };
  return { composer, composed: done, release: () => release() };
}

describe('exactly once across restarts and instances', () => {
  it('killed between composing and recording: the restarted process queues the slot once', async () => {
    const rig = await digestRig({ start: '2026-11-29T12:00:00Z' });
    const first = rig.instance('first-process');
    await first.commands().handle(ctx(), 'add dubai marina');
    const slot = ms('2026-11-30T05:00:00Z');
    rig.clock.set(slot);
    const stalled = stalling(first.composer);
    void first.run({ composer: stalled.composer });
    await stalled.composed;
    await first.close(); // the process dies with the digest composed, nothing recorded

    const restarted = rig.instance('restarted-process');
    expect((await restarted.run()).ran, 'the dead run’s lease holds for its two minutes').toBe(false);
    expect(await rig.digests()).toHaveLength(0);
    for (let t = slot + MINUTE; t <= slot + 10 * MINUTE; t += MINUTE) {
      rig.clock.set(t);
      await restarted.run();
    }
    const id = (await restarted.repo.byNumber('test:c1', 1))!.id;
    expect((await rig.digests()).map((r) => r.dedupeKey)).toEqual([`digest:${id}:${slot}`]);
    // And once more after another restart, at the same instant and later: nothing new.
    const again = rig.instance('restarted-again');
    await again.run();
    rig.clock.advance(HOUR);
    await again.run();
    expect(await rig.digests()).toHaveLength(1);
  });

  it('killed after recording: the restarted process finds nothing due for that slot', async () => {
    const rig = await digestRig({ start: '2026-11-29T12:00:00Z' });
    const first = rig.instance('first-process');
    await first.commands().handle(ctx(), 'add dubai marina');
    rig.clock.set('2026-11-30T05:00:00Z');
    expect((await first.run()).queued).toBe(1);
    await first.close();
    const restarted = rig.instance('restarted-process');
    for (const t of ['2026-11-30T05:00:00Z', '2026-11-30T05:03:00Z', '2026-12-06T00:00:00Z']) {
      rig.clock.set(t);
      expect((await restarted.run()).queued).toBe(0);
    }
    expect(await rig.digests()).toHaveLength(1);
  });

  it('an instance that stalled past its lease records nothing: the one that took over queued the slot, once', async () => {
    const rig = await digestRig({ start: '2026-11-29T12:00:00Z' });
    const [a, b] = [rig.instance('instance-a'), rig.instance('instance-b')];
    await a.commands().handle(ctx(), 'add dubai marina, business bay');
    rig.clock.set('2026-11-30T05:00:00Z');
    const stalled = stalling(a.composer);
    const slow = a.run({ composer: stalled.composer });
    await stalled.composed;
    expect((await b.run()).ran).toBe(false);
    rig.clock.advance(3 * MINUTE); // a's lease (two minutes) ran out
    expect((await b.run()).queued).toBe(1);
    stalled.release();
    expect((await slow).queued).toBe(0);
    expect(await rig.digests()).toHaveLength(1);
    expect(rig.logs.some((l) => l.includes('the digests lease was taken over during this run'))).toBe(true);
    expect(iso((await b.repo.byNumber('test:c1', 1))!.nextRunAt)).toBe('2026-12-07T05:00:00Z');
  });

  it('split into one part per digest (pg-boss on Postgres): the parts are the due digests, and one part run by two instances at once queues its slot once', async () => {
    const rig = await digestRig({ start: '2026-11-29T12:00:00Z' });
    const pg = await freshPostgres();
    onCleanup(() => pg.drop());
    const [a, b] = [await rig.pgInstance('instance-a', pg.url), await rig.pgInstance('instance-b', pg.url)];
    await a.commands().handle(ctx(), 'add dubai marina');
    await a.commands().handle(ctx(), 'add business bay daily at 09:00');
    await a.commands().handle(ctx('test:c2'), 'add business bay monthly');
    const weekly = (await a.repo.byNumber('test:c1', 1))!.id;
    const daily = (await a.repo.byNumber('test:c1', 2))!.id;
    const monthly = (await a.repo.byNumber('test:c2', 1))!.id;
    const numeric = (x: number, y: number) => x - y;
    const digestsOf = async () =>
      (await b.outbox.list()).filter((r) => r.kind === 'digest').map((r) => Number(r.dedupeKey.split(':')[1]));
    // Each instance's scheduler runs the digests job as the server registers it (src/app/background.ts), a digest a
    // job.
    const listed: number[][] = [];
    const parts: { id: number; queued: number }[] = [];
    const schedulers: SharedScheduler[] = [];
    for (const i of [a, b]) {
      const scheduler = new SharedScheduler({
        url: pg.url,
        timezone: 'UTC',
        logger: rig.logger,
        pollSeconds: 0.2,
        partsPerJob: 1,
      });
      scheduler.register({
        name: DIGEST_JOB,
        cron: '0 0 1 1 *', // never within the test: runSoon starts the run
        run: () => Promise.reject(new Error('a shared run runs its parts')),
        parts: {
          list: async () => {
            const ids = await i.due();
            listed.push(ids);
            return ids.map(String);
          },
          run: async (id) => {
            parts.push({ id: Number(id), queued: (await i.run({ only: Number(id) })).queued });
          },
        },
      });
      onCleanup(() => scheduler.stop());
      await scheduler.start();
      schedulers.push(scheduler);
    }
    // Monday 09:00 in Dubai: the weekly and the daily one are due, not the monthly one.
    rig.clock.set('2026-11-30T05:00:00Z');
    schedulers[0]!.runSoon(DIGEST_JOB);
    await expect.poll(() => parts.length, { timeout: 30_000, interval: 50 }).toBe(2);
    expect(listed.map((ids) => [...ids].sort(numeric))).toEqual([[weekly, daily]]);
    // Each part run once, and queued its digest.
    expect(parts.sort((x, y) => x.id - y.id)).toEqual([weekly, daily].map((id) => ({ id, queued: 1 })));
    expect((await digestsOf()).sort(numeric)).toEqual([weekly, daily]);
    expect(await b.due()).toEqual([]);

    // Tuesday 1 December, 09:00: the daily one's next slot (and the monthly one's first). The daily one's part run by
    // both instances at once (as when pg-boss hands a part out again, its job expired while the first instance still
    // ran
    // it) queues the slot once.
    rig.clock.set('2026-12-01T05:00:00Z');
    expect((await a.due()).sort(numeric)).toEqual([daily, monthly]);
    const [ra, rb] = await Promise.all([a.run({ only: daily }), b.run({ only: daily })]);
    expect(ra.queued + rb.queued).toBe(1);
    expect((await b.run({ only: daily })).queued).toBe(0);
    expect(await a.due()).toEqual([monthly]);
    expect((await digestsOf()).filter((id) => id === daily)).toHaveLength(2);
    expect(parts).toHaveLength(2);
  }, 60_000);
});
