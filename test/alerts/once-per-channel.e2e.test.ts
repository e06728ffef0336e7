// One listing once per channel (issue 27), end to end: Manzil started by the composition root on a real SQLite file,
// the real Slack poster against the fake Slack, the sandbox's market moving. Three overlapping alerts share one
// channel; each of them also runs alone in a channel of its own, which says what it would post by itself. The shared
// channel gets every listing those got, once, in one post naming every alert it matched, across a restart and a price
// drop.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { alertPosts, FakeClock, SECRET, slackChannel } from '../delivery/helpers.js';
import { startFakeSlack, type FakeMessage, type FakeSlack } from '../fakes/slack-api.js';

const KEY = 'sk-once-per-channel-27';
const SHARED = 'C0SHARED';
// Overlapping by type and bedrooms, not by price: a copy of a flat (within 2 % of its price) matches the same alerts.
const ALERTS = ['rent dubai marina', 'rent marina apartment', 'rent marina 1-2 bed'];
const ALONE = ALERTS.map((_, k) => `C0ALONE${k + 1}`);

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

async function boot(sandbox: Sandbox, slack: FakeSlack, dbPath: string, clock: FakeClock): Promise<Manzil> {
  const manzil = await startManzil({
    env: {
      UAE_API_KEY: KEY,
      UAE_API_BASE_URL: sandbox.url!,
      SLACK_BOT_TOKEN: 'xoxb-test',
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      MANZIL_DB_PATH: dbPath,
      LOG_LEVEL: 'warn',
      ALERTS_MAX_PER_USER: '10',
    },
    host: '127.0.0.1',
    serve: false,
    writeLog: () => {},
    clock: clock.now,
  });
  // The test alone drives delivery: a run that queued something pokes no background pass.
  manzil.alerts.drainer.poke = () => {};
  return manzil;
}

/** The listings a post shows: its own and its copies' (linked on the card). */
const idsOf = (m: FakeMessage): Set<string> =>
  new Set([...JSON.stringify(m.blocks).matchAll(/\/property\/(\d+)/g)].map((x) => x[1]!));
/** The alert numbers a post names, from its text: "New listing for alerts #1, #3: …". */
const numbersOf = (m: FakeMessage): number[] =>
  [
    ...String(m.text)
      .split(':')[0]!
      .matchAll(/#(\d+)/g),
  ].map((x) => Number(x[1]));
const isNew = (m: FakeMessage) => String(m.text).startsWith('New listing for');
const isDrop = (m: FakeMessage) => String(m.text).startsWith('Price dropped');
const meets = (a: Set<string>, b: Set<string>) => [...a].some((id) => b.has(id));

describe('one listing once per channel', () => {
  it(
    'three overlapping alerts post each listing once, naming the alerts it matched, across a restart and a price drop',
    { timeout: 240_000 },
    async () => {
      const sandbox = createSandbox({ key: KEY });
      await sandbox.listen(0, '127.0.0.1');
      const slack = await startFakeSlack();
      const dbPath = join(mkdtempSync(join(tmpdir(), 'manzil-once-')), 'manzil.db');
      cleanups.push(
        () => sandbox.close(),
        () => slack.close(),
        () => rmSync(dirname(dbPath), { recursive: true, force: true }),
      );
      // Each read moves the delivery clock past the channel's one-message-a-second spacing.
      const clock = new FakeClock(1_100);
      let manzil = await boot(sandbox, slack, dbPath, clock);
      cleanups.push(() => manzil.stop());

      for (const [k, text] of ALERTS.entries()) {
        for (const channel of [SHARED, ALONE[k]!]) {
          const reply = await manzil.bot.handleCommand({
            user: 'U0ALICE',
            channel: slackChannel(channel),
            text: `alerts add ${text}`,
          });
          expect(reply.text).toMatch(/^Saved as alert #\d/);
        }
      }
      await manzil.alerts.poll(); // the first look: silent

      const round = async () => {
        sandbox.advance(40);
        expect((await manzil.alerts.poll()).failedQueries).toBe(0);
        for (let i = 0; i < 60 && (await manzil.alerts.outbox.stats()).pending > 0; i++)
          await manzil.alerts.drainer.drain();
      };
      for (let r = 0; r < 4; r++) await round();
      // A restart between runs: the same file, reopened by a new Manzil.
      await manzil.stop();
      manzil = await boot(sandbox, slack, dbPath, clock);
      for (let r = 0; r < 3; r++) await round();

      const shared = () => alertPosts(slack, SHARED);
      const alone = ALONE.map((c) => alertPosts(slack, c).filter(isNew));
      const news = shared().filter(isNew);
      expect(alone.every((posts) => posts.length > 0)).toBe(true);
      // Never the same listing (or flat) in two posts of the shared channel.
      for (const [i, a] of news.entries())
        for (const b of news.slice(i + 1))
          expect(meets(idsOf(a), idsOf(b)), `${String(a.text)} / ${String(b.text)}`).toBe(false);
      // Everything each alert would post alone is in the shared channel, once; and the post names exactly the alerts
      // that would have posted it alone (alert #k there is the k-th saved).
      for (const posts of alone)
        for (const p of posts)
          expect(
            news.filter((n) => meets(idsOf(n), idsOf(p))),
            String(p.text),
          ).toHaveLength(1);
      for (const n of news) {
        const expected = alone.flatMap((posts, k) => (posts.some((p) => meets(idsOf(p), idsOf(n))) ? [k + 1] : []));
        expect(numbersOf(n), String(n.text)).toEqual(expected);
      }
      const named = news.map((n) => numbersOf(n).length);
      expect(named).toContain(3);
      expect(named.some((k) => k === 2)).toBe(true);
      const three = news.find((n) => numbersOf(n).length === 3)!;
      expect(JSON.stringify(three.blocks)).toMatch(/Matches your alerts: #1 [^;]+; #2 [^;]+; #3 /);

      // A price drop of a listing all three matched: one post in the shared channel, one in each channel alone.
      const id = [...idsOf([...news].reverse().find((n) => numbersOf(n).length === 3)!)][0]!;
      const record = (await (
        await fetch(`${sandbox.url}/property-details?property_id=${id}`, { headers: { 'x-gateway-key': KEY } })
      ).json()) as {
        data?: { price?: { value?: number } };
      };
      const price = record.data?.price?.value;
      expect(price).toBeGreaterThan(0);
      const to = Math.round(price! * 0.9);
      const dropsOf = (posts: FakeMessage[]) => posts.filter((m) => isDrop(m) && idsOf(m).has(id));
      expect(sandbox.reprice(id, to)).toBe(true);
      for (let run = 0; run < 2; run++) {
        await manzil.alerts.poll();
        for (let i = 0; i < 60 && (await manzil.alerts.outbox.stats()).pending > 0; i++)
          await manzil.alerts.drainer.drain();
      }
      const drop = dropsOf(shared());
      expect(drop).toHaveLength(1);
      expect(String(drop[0]!.text)).toMatch(
        new RegExp(`^Price dropped from AED [\\d,]+ to AED ${to.toLocaleString('en-US')} for alerts #1, #2, #3:`),
      );
      for (const c of ALONE) expect(dropsOf(alertPosts(slack, c))).toHaveLength(1);
    },
  );
});
