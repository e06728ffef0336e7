// Demo mode: on a first run (the embedded sandbox, the terminal chat, no keys) the sandbox's market moves every few
// seconds instead of never, so a newcomer who saves an alert sees it fire within a minute. How far the market has
// moved is kept in a small file beside the database, so a second `npm start` resumes it rather than replaying the
// same "new" listings that saved alerts have already seen.
//
// The demo's "today" is the market clock's, since every date Manzil shows comes from it: the digest's date and periods
// (the composer follows the sandbox's clock), transactions, the trend's latest month, listed dates. So the market starts
// at the calendar's today (the start of the UTC day of the first run, kept in the file) and is never behind the wall
// clock on a start; while the demo runs it moves faster than the calendar (30 minutes every 5 s), as documented.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Logger } from './log.js';
import { DEFAULT_START, startOfUtcDay, type MarketClock } from './sandbox/index.js';

/** Market minutes per tick: 30 minutes bring 6 new listings, the first of each batch in Dubai Marina. */
export const DEMO_MINUTES_PER_TICK = 30;

/** Where the market clock is kept: beside the database (`./data/demo-clock.json`); none for an in-memory database. */
export function demoClockFile(dbPath: string): string | undefined {
  return dbPath === ':memory:' || dbPath.startsWith('file::memory:')
    ? undefined
    : join(dirname(dbPath), 'demo-clock.json');
}

/** Where a demo's sample market starts, and where the last run left it (none on a first run). */
export interface DemoMarket {
  start: Date;
  saved?: MarketClock;
}

/**
 * The demo market of this data folder: the start kept in the file, else (a first run, or a file that cannot be read)
 * the start of the UTC day of `now`. A file from before the start was kept counts its minutes from DEFAULT_START, the
 * market its saved alerts have seen.
 */
export function loadDemoMarket(stateFile: string | undefined, logger: Logger, now = Date.now()): DemoMarket {
  const today = startOfUtcDay(now);
  if (!stateFile) return { start: today };
  let saved: unknown;
  try {
    saved = JSON.parse(readFileSync(stateFile, 'utf8'));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
      logger.warn('demo: the saved market clock could not be read; starting afresh', { file: stateFile, error: e });
    return { start: today };
  }
  const clock = saved as (Partial<MarketClock> & { start?: unknown }) | null;
  const start = typeof clock?.start === 'string' ? Date.parse(clock.start) : undefined;
  if (
    !clock ||
    !Number.isSafeInteger(clock.minutes) ||
    !Number.isSafeInteger(clock.nextListingId) ||
    clock.minutes! < 0 ||
    (start !== undefined && !Number.isFinite(start))
  ) {
    logger.warn('demo: the saved market clock is not one Manzil wrote; starting afresh', { file: stateFile });
    return { start: today };
  }
  return {
    start: start === undefined ? DEFAULT_START : new Date(start),
    saved: { minutes: clock.minutes!, nextListingId: clock.nextListingId! },
  };
}

export interface DemoClockOptions {
  /** The sandbox's market clock. */
  market: {
    advance(minutes: number): { added: number; withdrawn: number; repriced: number; relisted: number };
    clock(): MarketClock;
    resume(clock: MarketClock): void;
  };
  tickMs: number;
  minutesPerTick?: number;
  logger: Logger;
  /** The file that keeps the market clock across restarts (demoClockFile); none: every start begins afresh. */
  stateFile?: string | undefined;
  /** The market's start and where the last run left it (loadDemoMarket; the sandbox was made with that start). */
  resume?: DemoMarket;
  /** The wall clock, ms (tests set it). */
  now?: () => number;
}

export class DemoClock {
  private timer: NodeJS.Timeout | undefined;
  private ticks = 0;
  private restored = false;

  constructor(private readonly o: DemoClockOptions) {
    if (!(o.tickMs > 0)) throw new RangeError('the demo clock needs a positive tick');
  }

  /** How many times the market has moved. */
  get moved(): number {
    return this.ticks;
  }

  /**
   * Moves the market to where the last run left it, or on to the wall clock's time when that is later (the calendar
   * moved on while Manzil was stopped), and keeps that in the file; once (`start` does it first).
   */
  private restore(): void {
    const from = this.o.resume;
    if (this.restored || !from) return;
    this.restored = true;
    const saved = from.saved?.minutes ?? 0;
    const calendar = Math.floor(((this.o.now ?? Date.now)() - from.start.getTime()) / 60_000);
    const minutes = Math.max(saved, calendar);
    try {
      this.o.market.resume({ minutes, nextListingId: from.saved?.nextListingId ?? 0 });
      if (from.saved) this.o.logger.info('demo: the sample market resumes where the last run left it', { minutes });
      if (calendar > saved) this.o.logger.info('demo: the sample market catches up with the calendar', { minutes });
    } catch (e) {
      this.o.logger.warn('demo: the sample market could not resume', { error: e });
      return;
    }
    this.trySave();
  }

  start(): void {
    if (this.timer) return;
    this.restore();
    this.timer = setInterval(() => this.tick(), this.o.tickMs);
    this.timer.unref(); // never the reason the process stays up
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    // A demo nicety must never take the chat down.
    try {
      const moved = this.o.market.advance(this.o.minutesPerTick ?? DEMO_MINUTES_PER_TICK);
      this.ticks++;
      this.o.logger.debug('demo: the sandbox market moved', { tick: this.ticks, ...moved });
    } catch (e) {
      this.o.logger.warn('demo: the sandbox market could not move', { error: e });
      return;
    }
    this.trySave();
  }

  private trySave(): void {
    try {
      this.save();
    } catch (e) {
      this.o.logger.warn('demo: the market clock could not be saved; a restart will begin the sample market afresh', {
        file: this.o.stateFile,
        error: e,
      });
    }
  }

  /** Written whole or not at all: a temporary file renamed over the old one. */
  private save(): void {
    const file = this.o.stateFile;
    if (!file) return;
    const tmp = `${file}.${process.pid}.tmp`;
    // The start beside the minutes: they count from it, and a restart must rebuild the same market.
    const start = this.o.resume?.start.toISOString();
    writeFileSync(tmp, `${JSON.stringify({ version: 2, ...(start ? { start } : {}), ...this.o.market.clock() })}\n`);
    renameSync(tmp, file);
  }
}
