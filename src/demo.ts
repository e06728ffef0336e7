// Demo mode: on a first run (the embedded sandbox, the terminal chat, no keys) the sandbox's market moves every few
// seconds instead of never, so a newcomer who saves an alert sees it fire within a minute.
import type { Logger } from './log.js';

/** Market minutes per tick: 30 minutes bring 6 new listings, the first of each batch in Dubai Marina. */
export const DEMO_MINUTES_PER_TICK = 30;

export interface DemoClockOptions {
  /** The sandbox's market clock. */
  market: { advance(minutes: number): { added: number; withdrawn: number; repriced: number; relisted: number } };
  tickMs: number;
  minutesPerTick?: number;
  logger: Logger;
}

export class DemoClock {
  private timer: NodeJS.Timeout | undefined;
  private ticks = 0;

  constructor(private readonly o: DemoClockOptions) {
    if (!(o.tickMs > 0)) throw new RangeError('the demo clock needs a positive tick');
  }

  /** How many times the market has moved. */
  get moved(): number {
    return this.ticks;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), this.o.tickMs);
    this.timer.unref(); // never the reason the process stays up
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    try {
      const moved = this.o.market.advance(this.o.minutesPerTick ?? DEMO_MINUTES_PER_TICK);
      this.ticks++;
      this.o.logger.debug('demo: the sandbox market moved', { tick: this.ticks, ...moved });
    } catch (e) {
      // A demo nicety must never take the chat down.
      this.o.logger.warn('demo: the sandbox market could not move', { error: e });
    }
  }
}
