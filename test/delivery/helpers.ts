// What the delivery acceptance tests share: Manzil started by the composition root on the embedded sandbox with the
// real Slack poster (and discord.js) against the fakes, a clock the tests move, and the alerts a user would see.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { startManzil, type Manzil } from '../../src/app/index.js';
import type { FakeMessage, FakeSlack } from '../fakes/slack-api.js';

export const SECRET = 'delivery-signing-secret-15';
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

/**
 * The delivery core's clock: the real time (rows the store writes with the real clock are never in its future) plus
 * what the test advanced it by, plus `tickMs` each time it is read (time passes while the drainer works, so the
 * one-message-a-second spacing within a channel need not cost real time).
 */
export class FakeClock {
  /** How far ahead of the real time it is. */
  ahead = 0;
  constructor(private readonly tickMs = 0) {}
  readonly now = (): number => Date.now() + (this.ahead += this.tickMs);
  advance(ms: number): void {
    this.ahead += ms;
  }
}

export interface Booted {
  manzil: Manzil;
  /** Every log line, parsed. */
  logs: { level: string; msg: string; [field: string]: unknown }[];
  dbPath: string;
}

/** Manzil on Slack (the fake) and the embedded sandbox, its delivery core on `clock`. */
export async function bootSlack(
  slack: FakeSlack,
  clock: FakeClock | undefined,
  options: { serve?: boolean; env?: Record<string, string> } = {},
): Promise<Booted> {
  const dbPath = join(mkdtempSync(join(tmpdir(), 'manzil-delivery-')), 'manzil.db');
  const logs: Booted['logs'] = [];
  const manzil = await startManzil({
    env: {
      MANZIL_SANDBOX: '1',
      SLACK_BOT_TOKEN: 'xoxb-test',
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      MANZIL_DB_PATH: dbPath,
      LOG_LEVEL: 'info',
      ...options.env,
    },
    host: '127.0.0.1',
    serve: options.serve ?? false,
    writeLog: (line) => logs.push(JSON.parse(line) as Booted['logs'][number]),
    ...(clock ? { clock: clock.now } : {}),
  });
  return { manzil, logs, dbPath };
}

/**
 * The test alone drives delivery, on its clock: no background pass. (With `serve: false` nothing is scheduled, but a
 * poller run that queued something pokes the drainer, whose pass would then run on real timers alongside the test's.)
 */
export function driveByHand(manzil: Manzil): void {
  manzil.alerts.drainer.poke = () => {};
}

/** `/alerts add rent marina` in each channel. */
export async function saveAlerts(manzil: Manzil, channels: readonly string[]): Promise<void> {
  for (const channel of channels) {
    const reply = await manzil.bot.handleCommand({ user: 'U0ALICE', channel, text: 'alerts add rent marina' });
    expect(reply.text).toMatch(/^Saved as alert #\d+/);
  }
}

/** The market moves on and the poller runs: how many alerts it queued. */
export async function queueNewListings(manzil: Manzil, minutes = 60): Promise<number> {
  manzil.sandbox!.advance(minutes);
  const report = await manzil.alerts.poll();
  expect(report.failedQueries).toBe(0);
  return report.queued;
}

export const slackChannel = (channel: string) => `slack:T0TEST:${channel}`;

/** The alerts a channel shows. */
export const alertPosts = (slack: FakeSlack, channel: string): FakeMessage[] =>
  slack.messages(channel).filter((m) => m.metadata?.event_type === 'manzil_alert');
export const deliveryIdOf = (
  m: { metadata?: { event_payload: unknown } } | { args: Record<string, unknown> },
): string =>
  'args' in m
    ? (m.args.metadata as { event_payload: { delivery_id: string } }).event_payload.delivery_id
    : (m.metadata!.event_payload as { delivery_id: string }).delivery_id;

/** Nothing left to deliver: nothing pending, nothing claimed or in flight. */
export const settled = async (manzil: Manzil): Promise<boolean> => {
  const s = await manzil.alerts.outbox.stats();
  return s.pending + s.sending === 0;
};

/** Drains, moves the clock `stepMs`, and again, until nothing is left to deliver (or `maxSteps`). */
export async function drainUntilSettled(
  manzil: Manzil,
  clock: FakeClock,
  stepMs = MINUTE,
  maxSteps = 30,
): Promise<void> {
  for (let i = 0; i < maxSteps && !(await settled(manzil)); i++) {
    await manzil.alerts.drainer.drain();
    if (!(await settled(manzil))) clock.advance(stepMs);
  }
}
