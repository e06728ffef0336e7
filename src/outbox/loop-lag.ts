// How late this process's event loop runs, measured by a timer's drift. The drainer holds its next post while the loop
// is late, so a burst of deliveries never keeps chat (Slack's 3 s acknowledgements, Discord's interactions) waiting.
const TICK_MS = 20;

export class LoopLag {
  private lag = 0;
  private timer: NodeJS.Timeout | undefined;
  private users = 0;

  /** Starts measuring (counted: every `start` needs its `stop`). */
  start(): void {
    if (this.users++ > 0) return;
    let expected = performance.now() + TICK_MS;
    this.timer = setInterval(() => {
      const now = performance.now();
      // Smoothed, so one long garbage collection does not hold posts back for long.
      this.lag = this.lag * 0.5 + Math.max(0, now - expected) * 0.5;
      expected = now + TICK_MS;
    }, TICK_MS);
    this.timer.unref();
  }

  stop(): void {
    if (--this.users > 0 || !this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.lag = 0;
  }

  /** The loop's recent lateness, in ms. */
  get ms(): number {
    return this.lag;
  }
}
