// The poller's clock: one node-cron task. Runs never overlap (node-cron's noOverlap): a tick that finds the last
// run still going is logged and skipped, and the next tick starts once it is done. After each run the outbox is
// drained, so new listings reach chat without waiting for the next tick.
import cron, { type ScheduledTask } from 'node-cron';
import type { Logger } from '../log.js';

export interface AlertSchedulerOptions {
  cron: string;
  timezone: string;
  logger: Logger;
  /** One run of the poller. */
  run: () => Promise<unknown>;
}

/** True when node-cron accepts the expression (five fields, or six with seconds). */
export const isValidCron = (expression: string) => cron.validate(expression);

export class AlertScheduler {
  private readonly task: ScheduledTask;
  private current: Promise<unknown> | undefined;

  constructor(private readonly o: AlertSchedulerOptions) {
    this.task = cron.schedule(o.cron, () => this.tick(), { timezone: o.timezone, noOverlap: true, name: 'alerts-poll' });
    this.task.on('execution:overlap', () => o.logger.warn('poller run still going at the next tick; that tick is skipped', { cron: o.cron }));
    this.task.stop();
  }

  start(): void {
    this.task.start();
  }

  private async tick(): Promise<void> {
    this.current = this.o.run().catch((e) => this.o.logger.error('poller run failed', { error: e }));
    await this.current;
    this.current = undefined;
  }

  /** Stops ticking and waits for a run in progress to finish its current step. */
  async stop(): Promise<void> {
    await this.task.stop();
    await this.task.destroy();
    await this.current;
  }
}
