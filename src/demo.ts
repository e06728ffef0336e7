// Demo mode: on a first run (the embedded sandbox, the terminal chat, no keys) the sandbox's market moves every few
// seconds instead of never, so a newcomer who saves an alert sees it fire within a minute. How far the market has
// moved is kept in a small file beside the database, so a second `npm start` resumes it rather than replaying the
// same "new" listings that saved alerts have already seen.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Logger } from './log.js';
import type { MarketClock } from './sandbox/index.js';

/** Market minutes per tick: 30 minutes bring 6 new listings, the first of each batch in Dubai Marina. */
export const DEMO_MINUTES_PER_TICK = 30;

/** Where the market clock is kept: beside the database (`./data/demo-clock.json`); none for an in-memory database. */
export function demoClockFile(dbPath: string): string | undefined {
  return dbPath === ':memory:' || dbPath.startsWith('file::memory:')
    ? undefined
    : join(dirname(dbPath), 'demo-clock.json');
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

  /** Moves the market to where the last run left it (once; `start` does it first). */
  private restore(): void {
    if (this.restored || !this.o.stateFile) return;
    this.restored = true;
    let saved: unknown;
    try {
      saved = JSON.parse(readFileSync(this.o.stateFile, 'utf8'));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
        this.o.logger.warn('demo: the saved market clock could not be read; starting afresh', {
          file: this.o.stateFile,
          error: e,
        });
      return;
    }
    const clock = saved as Partial<MarketClock> | null;
    if (
      !clock ||
      !Number.isSafeInteger(clock.minutes) ||
      !Number.isSafeInteger(clock.nextListingId) ||
      clock.minutes! < 0
    ) {
      this.o.logger.warn('demo: the saved market clock is not one Manzil wrote; starting afresh', {
        file: this.o.stateFile,
      });
      return;
    }
    try {
      this.o.market.resume({ minutes: clock.minutes!, nextListingId: clock.nextListingId! });
      this.o.logger.info('demo: the sample market resumes where the last run left it', { minutes: clock.minutes });
    } catch (e) {
      this.o.logger.warn('demo: the sample market could not resume', { error: e });
    }
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
    writeFileSync(tmp, `${JSON.stringify({ version: 1, ...this.o.market.clock() })}\n`);
    renameSync(tmp, file);
  }
}
