// Issue 40 on Discord, end to end: the real discord.js client logged in to the fake Discord, the sandbox's market
// moving and a clock that moves. `/alerts quiet`, `/alerts edit`, `/alerts timezone` and `/alerts more` come as their
// options (no text in between); quiet hours hold instant posts and release them once, as one message; a daily summary
// is posted once per period, none for an empty one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { driveByHand, FakeClock, HOUR } from '../delivery/helpers.js';
import { startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';

const KEY = 'sk-discord-summaries-4040';
const ALICE = '700000000000000041';
const DAY = 24 * HOUR;
let sandbox: Sandbox;
let fake: FakeDiscord;
let manzil: Manzil;
let dir: string;
const clock = new FakeClock();

/** Runs `/alerts <sub>` with its options; what the person saw, as JSON. */
async function alerts(sub: string, options: unknown[] = []): Promise<string> {
  const { token } = await fake.slashCommand('alerts', [{ name: sub, type: 1, options }], {
    user: ALICE,
    channelId: fake.channelId,
  });
  await fake.waitFor(() => fake.responses(token).some((r) => r.kind === 'edit' || r.kind === 'followup'), 15_000);
  return JSON.stringify(fake.responses(token).filter((r) => r.kind !== 'callback'));
}

/** What the channel was posted, each message's content and embeds' text, oldest first. */
const posts = () => fake.messages(fake.channelId).map((m) => JSON.stringify(m.body));

/** Moves the clock (and the market by `marketMinutes`), runs the poller and delivers everything due. */
async function step(ms: number, marketMinutes: number): Promise<void> {
  clock.advance(ms);
  if (marketMinutes > 0) sandbox.advance(marketMinutes);
  expect((await manzil.alerts.poll()).failedQueries).toBe(0);
  for (let i = 0; i < 30; i++) {
    await manzil.alerts.drainer.drain();
    const s = await manzil.alerts.outbox.stats();
    if (s.pending + s.sending === 0) break;
    clock.advance(2_000);
  }
}

/** The clock moved to the next 00:30 UTC: a known place in the day, whatever time the test runs. */
function toHalfPastMidnightUtc(): void {
  const now = clock.now();
  clock.advance(Math.ceil((now - 30 * 60_000) / DAY) * DAY + 30 * 60_000 + DAY - now);
}

beforeAll(async () => {
  sandbox = createSandbox({ key: KEY });
  await sandbox.listen();
  fake = await startFakeDiscord();
  dir = mkdtempSync(join(tmpdir(), 'manzil-discord-summaries-'));
  manzil = await startManzil({
    env: {
      UAE_API_KEY: KEY,
      UAE_API_BASE_URL: sandbox.url!,
      DISCORD_TOKEN: fake.botToken,
      DISCORD_API_URL: fake.apiUrl,
      PORT: '0',
      MANZIL_DB_PATH: join(dir, 'manzil.db'),
      MANZIL_TIMEZONE: 'UTC',
      LOG_LEVEL: 'warn',
      // The test alone runs the poller, on its clock: the job's own schedule never comes round.
      ALERTS_CRON: '0 0 1 1 *',
    },
    host: '127.0.0.1',
    clock: clock.now,
    writeLog: () => {},
  });
  driveByHand(manzil);
  await fake.ready();
}, 60_000);
afterAll(async () => {
  await manzil.stop();
  await fake.close();
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('summaries and quiet hours on Discord (issue 40)', () => {
  it(
    'quiet hours set by option hold instant posts and release them once; an edited alert posts one daily summary',
    {
      timeout: 180_000,
    },
    async () => {
      toHalfPastMidnightUtc();
      expect(await alerts('timezone', [{ name: 'zone', type: 3, value: 'Mars/Olympus' }])).toMatch(
        /is not a time zone I know/,
      );
      expect(await alerts('timezone')).toMatch(/This channel's time zone is UTC/);
      expect(await alerts('quiet', [{ name: 'hours', type: 3, value: '00:00-06:00' }])).toMatch(
        /Quiet hours here: 00:00-06:00 \(UTC\)/,
      );
      expect(await alerts('quiet')).toMatch(/Quiet hours here: 00:00-06:00 \(UTC\)\. `\/alerts quiet off`/);
      expect(await alerts('add', [{ name: 'query', type: 3, value: 'rent marina' }])).toMatch(/Saved as alert #1/);
      await step(60_000, 0); // the first look: silent
      await step(HOUR, 90);
      await step(HOUR, 90);
      expect(posts()).toEqual([]);
      const held = await manzil.alerts.outbox.list({
        channel: `discord:${fake.guildId}:${fake.channelId}`,
        state: 'held',
      });
      expect(held.length).toBeGreaterThan(1);

      await step(4 * HOUR, 0); // 06:31: the quiet hours are over
      expect(posts()).toHaveLength(1);
      expect(posts()[0]).toMatch(/While this channel's quiet hours were on: \d+ new listings?/);
      await step(HOUR, 0);
      expect(posts()).toHaveLength(1);
      expect(await alerts('more')).toMatch(
        /The rest of the last summary \(\d+ more\), page 1|showed everything it counted/,
      );

      // How often, by option: a daily summary at 09:00, nothing before its slot, one at it, none for an empty day.
      expect(
        await alerts('edit', [
          { name: 'number', type: 4, value: 1 },
          { name: 'every', type: 3, value: 'daily at 9:00' },
        ]),
      ).toMatch(/Alert #1 \(.*\) now posts one daily summary at 09:00 \(UTC\)/);
      await step(HOUR, 120); // 07:31
      expect(posts()).toHaveLength(1);
      await step(2 * HOUR, 0); // 09:31: the slot passed
      expect(posts()).toHaveLength(2);
      expect(posts()[1]).toMatch(/Daily summary for alert #1 \(.*\): \d+ new listings?/);
      await step(HOUR, 0);
      await step(DAY, 0); // a day with nothing new
      expect(posts()).toHaveLength(2);
      expect(await alerts('list')).toMatch(/#1 · [^"]*daily at 09:00/);
    },
  );
});
