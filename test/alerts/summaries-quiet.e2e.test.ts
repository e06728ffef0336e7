// Issue 40, end to end: Manzil started by the composition root on a real SQLite file, the real Slack poster against
// the fake Slack, the sandbox's market moving and a clock that moves. A daily and a weekly alert post one summary per
// period with the counts of what was new, none for an empty period; quiet hours hold instant posts and release them
// once, as one summary, also across a restart during quiet hours.
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Manzil } from '../../src/app/index.js';
import { bootSlack, driveByHand, FakeClock, HOUR, slackChannel } from '../delivery/helpers.js';
import { startFakeSlack, type FakeMessage, type FakeSlack } from '../fakes/slack-api.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

const DAY = 24 * HOUR;
const say = (manzil: Manzil, channel: string, text: string) =>
  manzil.bot.handleCommand({ user: 'U0ALICE', channel: slackChannel(channel), text });
const texts = (slack: FakeSlack, channel: string) => slack.messages(channel).map((m: FakeMessage) => String(m.text));

/** Moves the clock (and the market by `marketMinutes`), runs the poller, delivers everything due. */
async function step(manzil: Manzil, clock: FakeClock, ms: number, marketMinutes: number) {
  clock.advance(ms);
  if (marketMinutes > 0) manzil.sandbox!.advance(marketMinutes);
  const report = await manzil.alerts.poll();
  expect(report.failedQueries).toBe(0);
  for (let i = 0; i < 30; i++) {
    await manzil.alerts.drainer.drain();
    const s = await manzil.alerts.outbox.stats();
    if (s.pending + s.sending === 0) break;
    clock.advance(2_000);
  }
}

/** The clock moved to the next 00:30 UTC (04:30 in Dubai): a known place in the day, whatever time the test runs. */
function toHalfPastMidnightUtc(clock: FakeClock) {
  const now = clock.now();
  const next = Math.ceil((now - 30 * 60_000) / DAY) * DAY + 30 * 60_000 + DAY;
  clock.advance(next - now);
}

async function booted(slack: FakeSlack, clock: FakeClock, dbPath?: string) {
  const b = await bootSlack(slack, clock, {
    env: { MANZIL_TIMEZONE: 'UTC', ALERTS_MAX_PER_USER: '10', ...(dbPath ? { MANZIL_DB_PATH: dbPath } : {}) },
  });
  driveByHand(b.manzil);
  return b;
}

describe('summaries and quiet hours (issue 40)', () => {
  it(
    'a daily and a weekly alert each post one summary per period with its counts, none for an empty one',
    { timeout: 120_000 },
    async () => {
      const slack = await startFakeSlack();
      const clock = new FakeClock();
      const { manzil, dbPath } = await booted(slack, clock);
      cleanups.push(
        () => slack.close(),
        () => manzil.stop(),
        () => rmSync(dirname(dbPath), { recursive: true, force: true }),
      );
      toHalfPastMidnightUtc(clock);
      const daily = await say(manzil, 'C0DAILY', 'alerts add rent marina, send me a daily summary at 9');
      expect(daily.text).toMatch(/^Saved as alert #1: .*one daily summary here at 09:00 \(UTC\)/);
      const weekly = await say(manzil, 'C0WEEKLY', 'alerts add rent marina every sunday at 8am');
      expect(weekly.text).toMatch(/one weekly summary here on Sundays at 08:00 \(UTC\)/);
      await step(manzil, clock, 60_000, 0); // first looks: silent
      expect(texts(slack, 'C0DAILY')).toEqual([]);

      // Hours of a moving market before 09:00: nothing is posted until the slot.
      for (let h = 0; h < 4; h++) await step(manzil, clock, HOUR, 60);
      expect(texts(slack, 'C0DAILY')).toEqual([]);
      await step(manzil, clock, 5 * HOUR, 0); // 09:31: the slot passed
      const first = texts(slack, 'C0DAILY');
      expect(first).toHaveLength(1);
      expect(first[0]).toMatch(
        /^📬 Daily summary for alert #1 \(.*\): \d+ new listings?( and \d+ price drops?)? since the last summary\.$/,
      );
      // The counts are what it found: as many new listings as the alert's seen rows gained since its first look.
      const n = Number(/: (\d+) new listing/.exec(first[0]!)![1]);
      expect(n).toBeGreaterThan(0);
      const blocks = JSON.stringify(slack.messages('C0DAILY')[0]!.blocks);
      if (n > 3) expect(blocks).toContain(`and ${n - 3} more: \`/alerts more 1\``);
      if (n > 3) {
        const more = await say(manzil, 'C0DAILY', 'alerts more 1');
        expect(more.text).toMatch(/^The rest of the last summary \(\d+ more\), page 1:/);
      }
      // More runs the same day post nothing more; the next day's slot posts again only if something is new.
      await step(manzil, clock, HOUR, 0);
      await step(manzil, clock, HOUR, 0);
      expect(texts(slack, 'C0DAILY')).toHaveLength(1);
      // An empty period: the market stands still for a day.
      await step(manzil, clock, DAY, 0);
      expect(texts(slack, 'C0DAILY')).toHaveLength(1);
      // A day with new listings: one more summary.
      await step(manzil, clock, 6 * HOUR, 0);
      manzil.sandbox!.advance(600);
      await step(manzil, clock, DAY - 6 * HOUR, 0);
      expect(texts(slack, 'C0DAILY')).toHaveLength(2);

      // The weekly one: one summary in the week, on Sunday, whatever the days between did.
      const before = texts(slack, 'C0WEEKLY').length;
      for (let d = 0; d < 7; d++) await step(manzil, clock, DAY, 60);
      const week = texts(slack, 'C0WEEKLY');
      expect(week).toHaveLength(before + 1);
      expect(week.at(-1)).toMatch(/^📬 Weekly summary for alert #1 .*: \d+ new listings?/);
      await step(manzil, clock, DAY, 0);
      expect(texts(slack, 'C0WEEKLY')).toHaveLength(before + 1);
    },
  );

  it(
    'quiet hours hold instant posts and release them once, as one summary, across a restart during them',
    { timeout: 120_000 },
    async () => {
      const slack = await startFakeSlack();
      const clock = new FakeClock();
      const first = await booted(slack, clock);
      const { dbPath } = first;
      let { manzil } = first;
      cleanups.push(
        () => slack.close(),
        () => manzil.stop(),
        () => rmSync(dirname(dbPath), { recursive: true, force: true }),
      );
      toHalfPastMidnightUtc(clock); // 00:30 UTC
      expect((await say(manzil, 'C0QUIET', 'alerts timezone Mars/Olympus')).text).toMatch(/is not a time zone I know/);
      expect((await say(manzil, 'C0QUIET', 'alerts quiet 00:00-06:00')).text).toMatch(
        /^Quiet hours here: 00:00-06:00 \(UTC\)/,
      );
      expect((await say(manzil, 'C0QUIET', 'alerts add rent marina')).text).toMatch(/^Saved as alert #1/);
      expect((await say(manzil, 'C0QUIET', 'alerts list')).text).toContain('Quiet hours 00:00-06:00 (UTC)');
      await step(manzil, clock, 60_000, 0); // first look
      await step(manzil, clock, HOUR, 90);
      await step(manzil, clock, HOUR, 90);
      expect(texts(slack, 'C0QUIET')).toEqual([]);
      const held = (await manzil.alerts.outbox.list({ channel: slackChannel('C0QUIET'), state: 'held' })).length;
      expect(held).toBeGreaterThan(1);

      // A restart in the quiet hours: a new Manzil on the same file.
      await manzil.stop();
      ({ manzil } = await booted(slack, clock, dbPath));
      await step(manzil, clock, HOUR, 0); // 03:31: still quiet
      expect(texts(slack, 'C0QUIET')).toEqual([]);
      await step(manzil, clock, 3 * HOUR, 0); // past 06:00
      const posts = texts(slack, 'C0QUIET');
      expect(posts).toHaveLength(1);
      expect(posts[0]).toMatch(/^🌙 While this channel's quiet hours were on: \d+ new listings?/);
      // Released once: more passes, and another restart, post nothing more.
      await step(manzil, clock, HOUR, 0);
      await manzil.stop();
      ({ manzil } = await booted(slack, clock, dbPath));
      await step(manzil, clock, HOUR, 0);
      expect(texts(slack, 'C0QUIET')).toHaveLength(1);
      // Out of quiet hours instant alerts post as before.
      await step(manzil, clock, HOUR, 600);
      expect(texts(slack, 'C0QUIET').length).toBeGreaterThan(1);
      expect(texts(slack, 'C0QUIET')[1]).toMatch(/^(New listing|Price dropped|…and)/);
    },
  );
});
