// Issue 40, acceptance: quiet hours across a SIGKILL. A real Manzil process (serve-child.ts: the composition root with
// its poller on a cron and its background delivery) runs during a channel's quiet hours while the market moves: it
// holds what it finds and posts nothing. It is killed with SIGKILL in the quiet hours; a second process, started on
// the same file, releases everything held once the quiet hours end: one summary message, nothing lost (every held
// entry folded into it), nothing posted twice. Real time: the quiet hours end at the next minute boundary at least
// 40 s away (quiet hours are HH:MM), so the test takes one to two minutes.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startManzil } from '../../src/app/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';
import { nodeArgs } from '../support/child.js';
import { driveByHand, SECRET, slackChannel } from './helpers.js';

const KEY = 'sk-delivery-quiet-4040';
const CHILD = fileURLToPath(new URL('./serve-child.ts', import.meta.url));
const CHANNEL = 'C0QUIETKILL';
let sandbox: Sandbox;
let slack: FakeSlack;
let dbPath: string;
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(async () => {
  sandbox = createSandbox({ key: KEY });
  await sandbox.listen();
  slack = await startFakeSlack();
  dbPath = join(mkdtempSync(join(tmpdir(), 'manzil-quiet-kill-')), 'manzil.db');
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await slack.close();
  await sandbox.close();
  rmSync(dirname(dbPath), { recursive: true, force: true });
});

const env = (): Record<string, string> => ({
  UAE_API_KEY: KEY,
  UAE_API_BASE_URL: sandbox.url!,
  SLACK_BOT_TOKEN: 'xoxb-test',
  SLACK_SIGNING_SECRET: SECRET,
  SLACK_API_URL: slack.apiUrl,
  PORT: '0',
  MANZIL_DB_PATH: dbPath,
  MANZIL_TIMEZONE: 'UTC',
  LOG_LEVEL: 'info',
  // The alerts job every 2 seconds: a process runs several polls in the quiet hours.
  ALERTS_CRON: '*/2 * * * * *',
  DELIVERY_THREAD: 'off',
});

/** A Manzil process, started; resolves once it serves. */
async function spawnManzil() {
  const child = spawn(process.execPath, nodeArgs(CHILD), {
    env: { ...process.env, ...env() },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => {
      if (log.includes('{"loaded":true}') && !log.includes('started')) {
        log += 'started';
        child.stdin.write('start\n');
      }
      if (log.includes('{"ready":true')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`manzil exited (${code}) before it served\n${log}`)));
  });
  return { child, log: () => log };
}

const hhmm = (at: number) => new Date(at).toISOString().slice(11, 16);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, cond: () => boolean | Promise<boolean>, ms: number, log: () => string) {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}\n${log().slice(-4_000)}`);
    await sleep(200);
  }
}

describe('quiet hours across a SIGKILL', () => {
  it(
    'what a killed process held in quiet hours is posted once, as one summary, by the next one when they end',
    {
      timeout: 240_000,
    },
    async () => {
      // Quiet from an hour ago until the next minute boundary at least 40 s away (real time, UTC).
      const end = Math.ceil((Date.now() + 40_000) / 60_000) * 60_000;
      const setup = await startManzil({ env: env(), serve: false, writeLog: () => {} });
      driveByHand(setup);
      const say = (text: string) => setup.bot.handleCommand({ user: 'U0ALICE', channel: slackChannel(CHANNEL), text });
      expect((await say(`alerts quiet ${hhmm(Date.now() - 3_600_000)}-${hhmm(end)}`)).text).toMatch(
        /^Quiet hours here/,
      );
      expect((await say('alerts add rent marina')).text).toMatch(/^Saved as alert #1/);
      const outbox = setup.alerts.outbox;
      const held = async () => (await outbox.list({ channel: slackChannel(CHANNEL), state: 'held' })).length;

      // The first process polls on its cron while the market moves, holding what it finds.
      const first = await spawnManzil();
      await until(
        'the first process held several listings',
        async () => {
          sandbox.advance(60);
          await sleep(500);
          return (await held()) > 2;
        },
        60_000,
        first.log,
      );
      expect(Date.now()).toBeLessThan(end); // still in the quiet hours
      first.child.kill('SIGKILL');
      await once(first.child, 'exit');
      const heldAtKill = await held();
      expect(slack.messages(CHANNEL)).toEqual([]);

      // The second one, in the quiet hours still: it posts nothing until they end, then one summary.
      const second = await spawnManzil();
      const posts = () => slack.messages(CHANNEL).map((m) => String(m.text));
      await until('the quiet hours ended', () => Date.now() > end, 120_000, second.log);
      await until('the summary was posted', () => posts().length > 0, 60_000, second.log);
      await sleep(5_000); // more passes and polls: nothing more is posted of what was held
      const summary = posts().filter((t) => t.startsWith("🌙 While this channel's quiet hours were on"));
      expect(summary).toHaveLength(1);
      // Every entry held (at the kill and after) went into that one message: none is left, none was posted alone.
      const rows = await outbox.list({ channel: slackChannel(CHANNEL) });
      expect(rows.filter((r) => r.state === 'held')).toEqual([]);
      const folded = rows.filter((r) => r.state === 'folded').length;
      expect(folded).toBeGreaterThanOrEqual(heldAtKill);
      const n = Number(/: (\d+) new listings?/.exec(summary[0]!)?.[1] ?? NaN);
      expect(n).toBeGreaterThanOrEqual(heldAtKill);
      expect(posts()[0]).toBe(summary[0]);
      second.child.kill('SIGTERM');
      await once(second.child, 'exit');
      await setup.stop();
    },
  );
});
