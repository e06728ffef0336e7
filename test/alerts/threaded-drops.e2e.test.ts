// Price drops in their cards' threads, and a listing back on the market (issue 40), end to end on each platform:
// Manzil started by the composition root on a real SQLite file, the sandbox on loopback, the real Slack Web API client
// against the fake Slack and the real discord.js client against the fake Discord, with a clock that moves by days.
// A drop replies under its listing's first card (Slack `thread_ts`, a Discord reply); several in one run also tell the
// channel once, in one line; a listing gone and relisted lower is announced once, as back on the market with its
// history, and not also as a drop in its card's thread.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { driveByHand, FakeClock, SECRET } from '../delivery/helpers.js';
import { startFakeDiscord } from '../fakes/discord.js';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';

const KEY = 'sk-threaded-drops-40';
const DAY = 86_400_000;
/** Fewer listings than a page (6 in the sandbox): its runs read the whole result, so a listing left out is missing. */
const NARROW = 'rent marina 3br over 300k';
/** More than a page, elsewhere: the runs learn from it how long a full page is. */
const BROAD = 'rent marina 2br';

/** A message as a person sees it in the channel: its text, and the message whose thread it is in (none: top level). */
interface Post {
  id: string;
  text: string;
  thread?: string;
}

/** One platform: Manzil's environment for it, its channels as the core names them, and what a channel shows. */
interface Platform {
  env: Record<string, string>;
  /** The core's name of the n-th channel (0: where the alert under test posts). */
  channel(n: number): string;
  posts(n: number): Post[];
  /** Whether the platform shows a post as a reply to that message (the reply resolved, not only asked for). */
  repliesTo(post: Post, parent: string): boolean;
  /** Whether Manzil must serve chat for its client to be ready. */
  serves: boolean;
  ready(): Promise<void>;
  close(): Promise<void>;
}

async function slackPlatform(): Promise<Platform & { slack: FakeSlack }> {
  const slack = await startFakeSlack();
  const ids = ['C0DROPS', 'C0PROBE', 'C0BROAD'];
  return {
    slack,
    env: { SLACK_BOT_TOKEN: 'xoxb-test', SLACK_SIGNING_SECRET: SECRET, SLACK_API_URL: slack.apiUrl },
    channel: (n) => `slack:T0TEST:${ids[n]!}`,
    posts: (n) =>
      slack
        .messages(ids[n]!)
        .filter((m) => m.metadata?.event_type === 'manzil_alert')
        .map((m) => ({
          id: m.ts,
          text: `${String(m.text)}\n${JSON.stringify(m.blocks ?? [])}`,
          ...(m.thread_ts ? { thread: m.thread_ts } : {}),
        })),
    // Slack lists a reply in its thread (conversations.replies), not in the channel's history.
    repliesTo: (post, parent) =>
      post.thread === parent && slack.messages(ids[0]!).some((m) => m.ts === parent && !m.thread_ts),
    serves: false,
    ready: async () => {},
    close: () => slack.close(),
  };
}

async function discordPlatform(): Promise<Platform> {
  const fake = await startFakeDiscord({ extraChannelIds: ['900000000000000402', '900000000000000403'] });
  const ids = [fake.channelId, '900000000000000402', '900000000000000403'];
  return {
    env: { DISCORD_TOKEN: fake.botToken, DISCORD_API_URL: fake.apiUrl },
    channel: (n) => `discord:${fake.guildId}:${ids[n]!}`,
    posts: (n) =>
      fake.messages(ids[n]!).map((m) => {
        const ref = (m.body as { message_reference?: { message_id?: string } }).message_reference;
        return { id: m.id, text: JSON.stringify(m.body), ...(ref?.message_id ? { thread: ref.message_id } : {}) };
      }),
    // The message as Discord made it: a reply (type 19) pointing at its parent.
    repliesTo: (post, parent) => {
      const made = fake.message(post.id);
      return made?.type === 19 && made.message_reference?.message_id === parent;
    },
    serves: true,
    ready: () => fake.ready(),
    close: () => fake.close(),
  };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

async function boot(platform: Platform) {
  const sandbox: Sandbox = createSandbox({ key: KEY });
  await sandbox.listen(0, '127.0.0.1');
  const dir = mkdtempSync(join(tmpdir(), 'manzil-threads-'));
  const clock = new FakeClock(1_100); // each read passes a channel's one-message-a-second spacing
  const manzil: Manzil = await startManzil({
    env: {
      UAE_API_KEY: KEY,
      UAE_API_BASE_URL: sandbox.url!,
      ...platform.env,
      PORT: '0',
      MANZIL_DB_PATH: join(dir, 'manzil.db'),
      LOG_LEVEL: 'warn',
      // The test alone runs the poller, on its clock.
      ALERTS_CRON: '0 0 1 1 *',
    },
    host: '127.0.0.1',
    // Discord's gateway client logs in only when Manzil serves chat; Slack's poster needs no server.
    serve: platform.serves,
    clock: clock.now,
    writeLog: () => {},
  });
  cleanups.push(
    () => sandbox.close(),
    () => platform.close(),
    () => rmSync(dir, { recursive: true, force: true }),
    () => manzil.stop(),
  );
  driveByHand(manzil);
  await platform.ready();
  /** The clock moves, the poller runs, everything due is delivered. */
  const run = async (ms = 60_000) => {
    clock.advance(ms);
    expect((await manzil.alerts.poll()).failedQueries).toBe(0);
    for (let i = 0; i < 30; i++) {
      await manzil.alerts.drainer.drain();
      const s = await manzil.alerts.outbox.stats();
      if (s.pending + s.sending === 0) break;
      clock.advance(2_000);
    }
  };
  const add = async (n: number, text: string) => {
    const reply = await manzil.bot.handleCommand({ user: 'U0ALICE', channel: platform.channel(n), text });
    expect(reply.text).toMatch(/Saved as alert #1/);
  };
  return { sandbox, manzil, run, add, clock };
}

const PLATFORMS: [string, () => Promise<Platform>][] = [
  ['Slack', slackPlatform],
  ['Discord', discordPlatform],
];

describe.each(PLATFORMS)('price drops in their cards’ threads, on %s (issue 40)', (_name, start) => {
  it(
    'a drop replies under its first card; several in one run tell the channel once; a listing back lower is one post',
    { timeout: 180_000 },
    async () => {
      const platform = await start();
      const { sandbox, manzil, run, add } = await boot(platform);
      const top = () => platform.posts(0).filter((p) => p.thread === undefined);
      const replies = () => platform.posts(0).filter((p) => p.thread !== undefined);

      // A probe learns the narrow search's listings; four are off the market when the alert is saved, then listed:
      // each a new card of its own in the channel.
      await add(2, `alerts add ${BROAD}`);
      await add(1, `alerts add ${NARROW}`);
      await run();
      const probe = await manzil.alerts.repo.byNumber(platform.channel(1), 1);
      const listings = await manzil.alerts.repo.seen(probe!.id);
      expect(listings.length).toBeGreaterThanOrEqual(4);
      const [a, b, c, d] = listings as [
        (typeof listings)[0],
        (typeof listings)[0],
        (typeof listings)[0],
        (typeof listings)[0],
      ];
      for (const x of [a, b, c, d]) expect(sandbox.withdraw(x.propertyId)).toBe(true);
      await add(0, `alerts add ${NARROW} with back on market`);
      await run(); // the first look: silent
      for (const x of [a, b, c, d]) expect(sandbox.relist(x.propertyId, x.lastPrice!)).toBe(true);
      await run();
      const cards = top();
      expect(cards).toHaveLength(4);
      expect(replies()).toEqual([]);
      const cardOf = (id: string) => cards.find((p) => p.text.includes(`/property/${id}`))!;
      for (const x of [a, b, c, d]) expect(cardOf(x.propertyId), x.propertyId).toBeDefined();

      // (a) One drop: a reply in its card's thread, and nothing more in the channel.
      const lower = (x: typeof a) => Math.round(x.lastPrice! * 0.9);
      expect(sandbox.reprice(a.propertyId, lower(a))).toBe(true);
      await run();
      expect(top()).toHaveLength(4);
      const [dropA] = replies();
      expect(replies()).toHaveLength(1);
      expect(dropA!.text).toContain('Price dropped from');
      expect(dropA!.text).toContain(`/property/${a.propertyId}`);
      expect(dropA!.thread).toBe(cardOf(a.propertyId).id);
      expect(platform.repliesTo(dropA!, cardOf(a.propertyId).id)).toBe(true);

      // (b) Two drops in one run: each in its card's thread, and one line in the channel for both, once.
      expect(sandbox.reprice(b.propertyId, lower(b))).toBe(true);
      expect(sandbox.reprice(c.propertyId, lower(c))).toBe(true);
      await run();
      await run(); // a later run adds nothing
      const lines = top().slice(4);
      expect(lines).toHaveLength(1);
      expect(lines[0]!.text).toContain('Price drops in this check: each is a reply to its listing’s first card.');
      const later = replies().slice(1);
      expect(later).toHaveLength(2);
      for (const x of [b, c]) {
        const reply = later.find((p) => p.text.includes(`/property/${x.propertyId}`));
        expect(reply?.thread, x.propertyId).toBe(cardOf(x.propertyId).id);
        expect(platform.repliesTo(reply!, cardOf(x.propertyId).id)).toBe(true);
      }

      // (c) d goes (missing from two complete runs), and is back three weeks later 10 % cheaper: one post in the
      // channel, back on the market with its history; no drop, in its thread or anywhere.
      const before = platform.posts(0).length;
      expect(sandbox.withdraw(d.propertyId)).toBe(true);
      await run(DAY);
      await run(DAY);
      expect(platform.posts(0)).toHaveLength(before); // this alert does not follow "gone"
      expect(sandbox.relist(d.propertyId, lower(d))).toBe(true);
      await run(21 * DAY);
      await run(DAY);
      const after = platform.posts(0).slice(before);
      expect(after).toHaveLength(1);
      expect(after[0]!.thread).toBeUndefined();
      expect(after[0]!.text).toMatch(/Back on the market after 3 weeks, at AED [\d,]+ \(was AED [\d,]+, −10 %\)/);
      expect(after[0]!.text).toContain('price cut once since, −10 % · back on the market after 3 weeks');
      expect(after[0]!.text).not.toContain('Price dropped');
    },
  );
});

describe('a price drop that may have landed in its thread (Slack, issue 40)', () => {
  it('is looked for in the thread before it is sent again: one reply, not two', { timeout: 120_000 }, async () => {
    const platform = await slackPlatform();
    const { sandbox, manzil, run, add, clock } = await boot(platform);
    await add(1, `alerts add ${NARROW}`);
    await run();
    const probe = await manzil.alerts.repo.byNumber(platform.channel(1), 1);
    const [x] = await manzil.alerts.repo.seen(probe!.id);
    expect(sandbox.withdraw(x!.propertyId)).toBe(true);
    await add(0, `alerts add ${NARROW}`);
    await run(); // the first look: silent
    expect(sandbox.relist(x!.propertyId, x!.lastPrice!)).toBe(true);
    await run();
    const [card] = platform.posts(0);
    expect(card?.text).toContain(`/property/${x!.propertyId}`);
    // Slack stores the reply but answers internal_error: it may have posted, so it is looked for before any re-send.
    platform.slack.failNext('chat.postMessage', { error: 'internal_error', carryOut: true });
    expect(sandbox.reprice(x!.propertyId, Math.round(x!.lastPrice! * 0.9))).toBe(true);
    await run();
    clock.advance(5 * 60_000); // past the time Slack is given to store a slow post
    for (let i = 0; i < 5; i++) await manzil.alerts.drainer.drain();
    const replies = platform.posts(0).filter((p) => p.thread !== undefined);
    expect(replies).toHaveLength(1);
    expect(replies[0]!.thread).toBe(card!.id);
    expect(platform.slack.callsTo('conversations.replies').length).toBeGreaterThan(0);
    const [drop] = await manzil.alerts.outbox
      .list({ channel: platform.channel(0), state: 'delivered' })
      .then((rows) => rows.filter((r) => r.kind === 'price_drop'));
    expect(drop).toMatchObject({ messageId: replies[0]!.id, possibleDuplicate: false });
  });
});

describe('a listing gone during quiet hours (Slack, issue 40)', () => {
  it(
    'waits with the other held posts, and several are named in the one summary when the quiet hours end',
    { timeout: 120_000 },
    async () => {
      const platform = await slackPlatform();
      const { sandbox, manzil, run, add, clock } = await boot(platform);
      // A broad search shows the service's full page (so the narrow one's short page is its whole result); a probe
      // learns two listings, off the market when the alert is saved and then listed: cards of the alert's own.
      await add(2, `alerts add ${BROAD}`);
      await add(1, `alerts add ${NARROW}`);
      await run();
      const probe = await manzil.alerts.repo.byNumber(platform.channel(1), 1);
      const [x, y] = await manzil.alerts.repo.seen(probe!.id);
      for (const l of [x!, y!]) expect(sandbox.withdraw(l.propertyId)).toBe(true);
      await add(0, `alerts add ${NARROW} with gone`);
      await run(); // the first look: silent
      for (const l of [x!, y!]) expect(sandbox.relist(l.propertyId, l.lastPrice!)).toBe(true);
      await run();
      expect(platform.posts(0)).toHaveLength(2); // their cards
      const say = (text: string) => manzil.bot.handleCommand({ user: 'U0ALICE', channel: platform.channel(0), text });
      const hhmm = (at: number) => new Date(at).toISOString().slice(11, 16);
      expect((await say('alerts timezone UTC')).text).toMatch(/UTC/);
      const quietTo = clock.now() + 3 * 3_600_000;
      expect((await say(`alerts quiet ${hhmm(clock.now() - 60_000)}-${hhmm(quietTo)}`)).text).toMatch(
        /^Quiet hours here/,
      );
      // Missing from two complete runs in a row, in the quiet hours: gone, and held.
      for (const l of [x!, y!]) expect(sandbox.withdraw(l.propertyId)).toBe(true);
      await run();
      await run();
      expect(platform.posts(0)).toHaveLength(2);
      expect(
        (await manzil.alerts.outbox.list({ channel: platform.channel(0), state: 'held' })).map((r) => r.kind),
      ).toEqual(['gone', 'gone']);
      clock.advance(quietTo - clock.now() + 120_000);
      await run();
      const posts = platform.posts(0).slice(2);
      expect(posts).toHaveLength(1);
      expect(posts[0]!.text).toMatch(/^🌙 While this channel's quiet hours were on: 2 listings gone from the market\./);
      expect(posts[0]!.text).toContain('Gone from the market (let, sold or withdrawn)');
      await run();
      expect(platform.posts(0)).toHaveLength(3);
    },
  );
});
