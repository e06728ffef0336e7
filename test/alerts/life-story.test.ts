// A listing's life story (issue 40), through the real poller, the sandbox on loopback, a real SQLite file and the
// outbox drainer, with a clock that moves by days: a listing gone (missing from two complete runs in a row) and then
// relisted lower is announced once as back on the market, with its history (not as a back post and a drop); a listing
// gone is told to an alert that follows it; a card says its history line; stories nobody saw for long are pruned.
import { describe, expect, it } from 'vitest';
import { pollOnce } from '../../src/alerts/index.js';
import type { Reply } from '../../src/views/model.js';
import { alertsRig, ctx, POLLER, type Rig } from './helpers.js';

const DAY = 86_400_000;
/** A search with fewer listings than a page (6 in the sandbox): its runs read the whole result. */
const NARROW = 'rent marina 3br over 300k';
/** One with more than a page, in another channel: the runs learn from it how long a full page is. */
const BROAD = 'rent marina 2br';

const textOf = (r: Reply) => [r.text, ...r.blocks.map((b) => ('text' in b ? b.text : ''))].join('\n');

async function rigWithClock() {
  const rig = await alertsRig();
  let at = 0;
  // The clock starts at the first run (after the alerts were saved, on the wall clock), then moves by days.
  const poll = async (days = 0, o: Partial<typeof POLLER> & { historyDays?: number } = {}) => {
    at = Math.max(at, Date.now()) + days * DAY;
    const report = await pollOnce({
      api: rig.api,
      repo: rig.repo,
      leases: rig.leases,
      service: rig.service,
      logger: rig.logger,
      options: { ...POLLER, ...o },
      now: () => at,
    });
    await rig.drainer.drain();
    return report;
  };
  return { rig, poll, now: () => at };
}

const postsIn = (rig: Rig, channel: string) => rig.poster.posts.filter((p) => p.channel === channel);

/**
 * An alert in `test:g` that follows gone, and a listing Y it posted: Y was off the market when the alert was saved,
 * then listed (its new card). `before` counts the channel's posts by then.
 */
async function postedToGoneAlert() {
  const { rig, poll } = await rigWithClock();
  await rig.commands.handle(ctx('test:broad'), `add ${BROAD}`);
  const probe = await rig.commands.handle(ctx('test:probe'), `add ${NARROW}`);
  expect(probe.text).toContain('6 listings match');
  const p = await rig.repo.byNumber('test:probe', 1);
  const y = (await rig.repo.seen(p!.id))[0]!.propertyId;
  rig.sandbox.withdraw(y);
  await rig.commands.handle(ctx('test:g'), `add ${NARROW}, tell me when they're gone`);
  await poll();
  rig.sandbox.relist(y);
  await poll(1);
  expect(rig.poster.postedIds()).toContain(y); // the new card
  return { rig, poll, y, before: postsIn(rig, 'test:g').length };
}

describe("a listing's life story", () => {
  it('a listing gone and relisted lower is announced once, as back on the market with its history', async () => {
    const { rig, poll } = await rigWithClock();
    await rig.commands.handle(ctx('test:broad'), `add ${BROAD}`);
    const saved = await rig.commands.handle(ctx('test:b'), `add ${NARROW} with back on market`);
    expect(saved.text).toContain('with back on the market');
    const alert = await rig.repo.byNumber('test:b', 1);
    await poll(); // learns a full page's length from the broad search
    const seen = await rig.repo.seen(alert!.id);
    expect(seen.length).toBeGreaterThan(1);
    const x = seen[0]!;
    expect(rig.sandbox.withdraw(x.propertyId)).toBe(true);
    await poll(1); // missing once: not gone yet
    expect((await rig.repo.history(rig.service, [x.propertyId]))[0]!.goneSince).toBeNull();
    await poll(1); // missing twice in a row: gone
    const [gone] = await rig.repo.history(rig.service, [x.propertyId]);
    expect(gone!.goneSince).not.toBeNull();
    expect(postsIn(rig, 'test:b')).toHaveLength(0); // this alert does not follow "gone"

    // Three weeks later it is back, 10 % cheaper: one post, back on the market, saying how long and at what price.
    const lower = Math.round(x.lastPrice! * 0.9);
    expect(rig.sandbox.relist(x.propertyId, lower)).toBe(true);
    await poll(21);
    const posts = postsIn(rig, 'test:b');
    expect(posts).toHaveLength(1);
    const text = textOf(posts[0]!.reply);
    expect(text).toMatch(/Back on the market after 3 weeks, at AED [\d,]+ \(was AED [\d,]+, −10 %\)/);
    expect(text).not.toContain('Price dropped');
    // The card's history line: known for 23 days, one cut, back after 3 weeks.
    expect(text).toContain('First seen 23 days ago · price cut once since, −10 % · back on the market after 3 weeks');
    const [back] = await rig.repo.history(rig.service, [x.propertyId]);
    expect(back).toMatchObject({ goneSince: null, timesBack: 1, lastPrice: lower });

    // Nothing more: not again as back, nor as a drop, at the next runs.
    await poll(1);
    await poll(1);
    expect(postsIn(rig, 'test:b')).toHaveLength(1);
  });

  it('without "with back on market" a listing relisted lower is the price drop it is today', async () => {
    const { rig, poll } = await rigWithClock();
    await rig.commands.handle(ctx('test:broad'), `add ${BROAD}`);
    await rig.commands.handle(ctx('test:b'), `add ${NARROW}`);
    const alert = await rig.repo.byNumber('test:b', 1);
    await poll();
    const x = (await rig.repo.seen(alert!.id))[0]!;
    rig.sandbox.withdraw(x.propertyId);
    await poll(1);
    await poll(1);
    rig.sandbox.relist(x.propertyId, Math.round(x.lastPrice! * 0.9));
    await poll(14);
    const posts = postsIn(rig, 'test:b');
    expect(posts).toHaveLength(1);
    expect(textOf(posts[0]!.reply)).toContain('Price dropped');
    expect(textOf(posts[0]!.reply)).toContain('back on the market after 2 weeks');
  });

  it('tells an alert that follows it when a listing it posted is gone, once; a cut run never counts as missing', async () => {
    const { rig, poll, y, before } = await postedToGoneAlert();
    rig.sandbox.withdraw(y);
    // A run that fails reads nothing: it is not a run without the listing.
    rig.sandbox.addFault({ status: 500 });
    await poll(1);
    rig.sandbox.clearFaults();
    await poll(1);
    expect(postsIn(rig, 'test:g')).toHaveLength(before); // missed once
    await poll(1);
    const gone = postsIn(rig, 'test:g').slice(before);
    expect(gone).toHaveLength(1);
    expect(gone[0]!.reply.text).toMatch(/^🏁 Gone from the market \(let, sold or withdrawn\): .+ at AED [\d,]+/);
    await poll(1);
    expect(postsIn(rig, 'test:g')).toHaveLength(before + 1);
  });

  it('a listing missed once and listed again starts its count over: gone only after two misses in a row', async () => {
    const { rig, poll, y, before } = await postedToGoneAlert();
    rig.sandbox.withdraw(y);
    await poll(1); // missed once
    rig.sandbox.relist(y);
    await poll(1); // listed again, unchanged: its count starts over
    const g = await rig.repo.byNumber('test:g', 1);
    expect((await rig.repo.seen(g!.id)).find((r) => r.propertyId === y)).toMatchObject({ missed: 0 });
    rig.sandbox.withdraw(y);
    await poll(1); // missed once more: not gone yet
    expect(postsIn(rig, 'test:g')).toHaveLength(before);
    await poll(1); // twice in a row: gone, told once
    const gone = postsIn(rig, 'test:g').slice(before);
    expect(gone.map((x) => x.reply.text)).toEqual([expect.stringMatching(/^🏁 Gone from the market/)]);
  });

  it('prunes the stories nobody has seen for MANZIL_HISTORY_DAYS, in the run', async () => {
    const { rig, poll } = await rigWithClock();
    await rig.commands.handle(ctx('test:b'), `add ${NARROW}`);
    const alert = await rig.repo.byNumber('test:b', 1);
    await poll();
    const x = (await rig.repo.seen(alert!.id))[0]!.propertyId;
    const other = (await rig.repo.seen(alert!.id))[1]!.propertyId;
    rig.sandbox.withdraw(x);
    await poll(1);
    expect(await rig.repo.history(rig.service, [x, other])).toHaveLength(2);
    await poll(30, { historyDays: 20 }); // x last seen 31 days ago, `other` now
    const left = await rig.repo.history(rig.service, [x, other]);
    expect(left.map((h) => h.propertyId)).toEqual([other]);
  });
});
