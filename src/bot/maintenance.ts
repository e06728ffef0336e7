// Bounded growth: state behind old buttons and expired lookups are deleted at start and then on a timer,
// so a bot that runs for months keeps a database and a memory of the same size as one that restarts daily.
import type { Logger } from '../log.js';

export interface MaintenanceOptions {
  /** The button state repository: deletes rows unused for the given time. */
  buttons: { prune(olderThanMs: number): number | Promise<number> };
  /** How long a button keeps working after it was last used. */
  buttonRetentionMs: number;
  /** The location cache: deletes expired answers. */
  locations?: { prune(): number | Promise<number> };
  /** The shared market cache: deletes expired answers. */
  market?: { prune(): number | Promise<number> };
  /** The bot's answer cache (`bot.searches`): drops expired answers. */
  answers?: { purgeExpired(): void };
  /** Alerts: old delivered or failed outbox entries. */
  alerts?: { prune(): Promise<{ outbox: number }> };
  /** The per-person limits: uses out of every window (a person who never came back leaves nothing behind). */
  people?: { prune(): Promise<number> };
  logger: Logger;
}

export interface PruneCounts {
  buttons: number;
  locations: number;
  /** Present when the market cache is pruned. */
  market?: number;
  /** Present when alerts are pruned. */
  alerts?: { outbox: number };
  /** Present when the per-person limits' uses are pruned. */
  people?: number;
}

export class StateMaintenance {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: MaintenanceOptions) {}

  /** One pass; never throws (a failed pass is logged and the next one tries again). */
  async runOnce(): Promise<PruneCounts> {
    const { buttons, buttonRetentionMs, locations, market, answers, alerts, people, logger } = this.options;
    try {
      const pruned: PruneCounts = {
        buttons: await buttons.prune(buttonRetentionMs),
        locations: (await locations?.prune()) ?? 0,
        ...(market ? { market: await market.prune() } : {}),
        ...(alerts ? { alerts: await alerts.prune() } : {}),
        ...(people ? { people: await people.prune() } : {}),
      };
      answers?.purgeExpired();
      const removed = pruned.buttons + pruned.locations + (pruned.market ?? 0);
      if (removed + (pruned.alerts?.outbox ?? 0) + (pruned.people ?? 0) > 0)
        logger.info('pruned old state', { ...pruned });
      return pruned;
    } catch (e) {
      logger.warn('pruning old state failed', { error: e });
      return { buttons: 0, locations: 0 };
    }
  }

  /** Runs a pass every `intervalMs` until `stop()`. The timer never keeps the process alive. */
  startPruning(intervalMs: number): void {
    this.stop();
    this.timer = setInterval(() => void this.runOnce(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
