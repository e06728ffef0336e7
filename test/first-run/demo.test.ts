// Demo mode: on a first run (the embedded sandbox, the terminal chat, no keys) the sample market moves every few
// seconds and alerts are checked often, so a newcomer's saved alert fires within a minute.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ConsolePoster } from '../../adapters/console/poster.js';
import { renderText } from '../../adapters/console/render.js';
import { loadConfig } from '../../src/config.js';
import { DEMO_MINUTES_PER_TICK, DemoClock } from '../../src/demo.js';
import { silentLogger } from '../../src/log.js';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { advance, buildDataset } from '../../src/sandbox/dataset.js';
import { createSandbox, DEFAULT_START } from '../../src/sandbox/index.js';

const started: Manzil[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((m) => m.stop()));
});

/** Manzil as `npm start` builds it with the terminal chat: no keys, its own database, these variables only. */
async function firstRun(env: Record<string, string> = {}): Promise<Manzil> {
  const dir = mkdtempSync(join(tmpdir(), 'manzil-demo-'));
  const manzil = await startManzil({
    env: { MANZIL_DB_PATH: join(dir, 'm.db'), ...env },
    writeLog: () => {},
    terminal: new ConsolePoster(new PassThrough(), false),
  });
  started.push(manzil);
  return manzil;
}

/** Searches, presses "Save as alert" and returns the confirmation as the terminal shows it. */
async function saveAlert(manzil: Manzil, command: string): Promise<string> {
  const who = { user: 'terminal', channel: 'console:local', isAdmin: async () => true };
  const { buttons } = renderText(await manzil.bot.handleCommand({ ...who, text: command }));
  const save = buttons.find((b) => b.label === 'Save as alert');
  expect(save).toBeDefined();
  return renderText(await manzil.bot.handleAction({ ...who, action: save!.action, token: save!.token })).text;
}

const waitUntil = async (ok: () => boolean, ms: number) => {
  for (const end = Date.now() + ms; !ok();) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('the demo clock', () => {
  it('moves the sandbox market on every tick and stands still once stopped', async () => {
    const sandbox = createSandbox();
    const clock = new DemoClock({ market: sandbox, tickMs: 10, logger: silentLogger });
    const t0 = sandbox.now().getTime();
    clock.start();
    await waitUntil(() => clock.moved >= 3, 2_000);
    clock.stop();
    const moved = clock.moved;
    expect(sandbox.now().getTime() - t0).toBe(moved * DEMO_MINUTES_PER_TICK * 60_000);
    await new Promise((r) => setTimeout(r, 50));
    expect(clock.moved).toBe(moved);
  });

  it('with the default tick, a rental and a sale in Dubai Marina appear well within a minute, all along', () => {
    // The sandbox is seeded: this is the market a newcomer's demo sees, tick after tick, for its first 50 minutes.
    const { demo } = loadConfig({});
    expect(demo.tickSeconds).toBe(5);
    const ds = buildDataset(1, DEFAULT_START);
    const marina = (areaId: number): boolean => {
      const channel = ds.geo.byId.get(areaId);
      return (
        channel !== undefined && (channel.id === 50 || (channel.parentId !== undefined && marina(channel.parentId)))
      );
    };
    const gaps = { residential_rent: 0, residential_sale: 0 };
    const longest = { residential_rent: 0, residential_sale: 0 };
    for (let tick = 0; tick < 600; tick++) {
      const before = ds.listings.length;
      advance(ds, DEMO_MINUTES_PER_TICK);
      const fresh = ds.listings.slice(before).filter((l) => marina(l.areaId));
      for (const category of ['residential_rent', 'residential_sale'] as const) {
        gaps[category] = fresh.some((l) => l.category === category) ? 0 : gaps[category] + 1;
        longest[category] = Math.max(longest[category], gaps[category]);
      }
    }
    // The longest wait for a new listing, plus one alerts period (every 10 seconds in demo mode), stays under a minute.
    for (const gap of Object.values(longest)) expect((gap + 1) * demo.tickSeconds + 10).toBeLessThan(60);
  });
});

describe('demo mode in npm start', () => {
  it('is on for the terminal chat on the sandbox: the market moves and alerts are checked every 10 seconds', async () => {
    const manzil = await firstRun({ MANZIL_DEMO_TICK_S: '0.02' });
    expect(manzil.demo).toBeDefined();
    const t0 = manzil.sandbox!.now().getTime();
    await waitUntil(() => manzil.sandbox!.now().getTime() > t0, 2_000);
    expect(await saveAlert(manzil, 'rent marina')).toMatch(/Saved as alert #1: .*Checked every 10 seconds/);
  });

  it('keeps ALERTS_CRON when it is set', async () => {
    const manzil = await firstRun({ ALERTS_CRON: '*/30 * * * * *' });
    expect(manzil.demo).toBeDefined();
    expect(await saveAlert(manzil, 'buy marina')).toMatch(/Checked every 30 seconds/);
  });

  it('is off with MANZIL_DEMO_TICK_S=0: the market stands still and alerts keep their usual schedule', async () => {
    const manzil = await firstRun({ MANZIL_DEMO_TICK_S: '0' });
    expect(manzil.demo).toBeUndefined();
    expect(await saveAlert(manzil, 'rent marina')).toMatch(/Checked every 15 minutes/);
  });

  it('refuses a demo tick that is not a number of seconds', () => {
    expect(() => loadConfig({ MANZIL_DEMO_TICK_S: 'fast' })).toThrow(/MANZIL_DEMO_TICK_S/);
    expect(() => loadConfig({ MANZIL_DEMO_TICK_S: '-1' })).toThrow(/MANZIL_DEMO_TICK_S/);
  });
});

describe("demo mode across restarts and for the README's first alert", () => {
  const who = { user: 'terminal', channel: 'console:local', isAdmin: async () => true };
  /** `npm start` on a data directory that may have run before; alerts are polled by the test, not on a schedule. */
  async function boot(dir: string, logs: string[] = []): Promise<Manzil> {
    const env = { MANZIL_DB_PATH: join(dir, 'm.db'), MANZIL_DEMO_TICK_S: '0.1', ALERTS_CRON: '0 0 1 1 *' };
    const manzil = await startManzil({
      env,
      writeLog: (l) => logs.push(l),
      terminal: new ConsolePoster(new PassThrough(), false),
    });
    started.push(manzil);
    return manzil;
  }
  /**
   * Polls after each move of the market until something is queued, or `ticks` moves have gone by; the moves it took.
   */
  async function ticksUntilQueued(manzil: Manzil, ticks: number): Promise<number | undefined> {
    const from = manzil.demo!.moved;
    if ((await manzil.alerts.poll()).queued > 0) return 0;
    while (manzil.demo!.moved - from < ticks) {
      const seen = manzil.demo!.moved;
      await waitUntil(() => manzil.demo!.moved > seen, 5_000);
      if ((await manzil.alerts.poll()).queued > 0) return manzil.demo!.moved - from;
    }
    return undefined;
  }

  it('resumes the sample market where the last run left it: an alert saved before a restart gets new listings after it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'manzil-demo-restart-'));
    const logs: string[] = [];
    const one = await boot(dir, logs);
    await one.bot.handleCommand({ ...who, text: 'alerts add rent marina' });
    await one.alerts.poll(); // the first run only learns what exists
    // Polled after every move: whatever the market listed in this run, the alert has seen.
    for (let moved = one.demo!.moved; one.demo!.moved < 8; moved = one.demo!.moved) {
      await waitUntil(() => one.demo!.moved > moved, 5_000);
      await one.alerts.poll();
    }
    const minutes = (one.sandbox!.now().getTime() - DEFAULT_START.getTime()) / 60_000;
    await one.stop();
    // The sandbox line is for the operator's log, not a warning on every first run (the banner says it already).
    const sandboxLine = logs
      .map((l) => JSON.parse(l) as { level: string; msg: string })
      .find((e) => /using the embedded sandbox/.test(e.msg));
    expect(sandboxLine?.level).toBe('info');

    const two = await boot(dir);
    expect(two.sandbox!.now().getTime() - DEFAULT_START.getTime()).toBeGreaterThanOrEqual(minutes * 60_000);
    // Within a few moves (a restarted market would replay the first eight, every one already seen).
    expect(await ticksUntilQueued(two, 4)).toBeDefined();
  });

  it('moves a market saved before its start was kept (from the fixed 2026-11-01) on to the calendar, keeping its listings', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'manzil-demo-v1-'));
    const file = join(dir, 'demo-clock.json');
    writeFileSync(file, JSON.stringify({ version: 1, minutes: 60, nextListingId: 16_240_000 }));
    const before = Date.now();
    const manzil = await boot(dir);
    // Its minutes counted from DEFAULT_START: the same market, moved on to today rather than left weeks behind it.
    expect(manzil.sandbox!.now().getTime()).toBeGreaterThanOrEqual(Math.max(before, DEFAULT_START.getTime()) - 60_000);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { start: string; nextListingId: number };
    expect(saved.start).toBe(DEFAULT_START.toISOString());
    expect(saved.nextListingId).toBeGreaterThan(16_240_000);
  });

  it.each(['rent marina 2br under 120k', 'rent marina', 'buy marina'])(
    'shows "%s" a new listing within a minute at the default tick',
    async (search) => {
      const manzil = await boot(mkdtempSync(join(tmpdir(), 'manzil-demo-first-')));
      expect((await manzil.bot.handleCommand({ ...who, text: `alerts add ${search}` })).text).toMatch(
        /Saved as alert #1/,
      );
      await manzil.alerts.poll(); // the first run only learns what exists
      const ticks = await ticksUntilQueued(manzil, 12);
      expect(ticks).toBeDefined();
      // Those moves at the default 5 s, plus one alerts period (10 s in demo mode), stay under a minute.
      expect(ticks! * loadConfig({}).demo.tickSeconds + 10).toBeLessThan(60);
    },
  );
});
