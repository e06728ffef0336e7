// The background's jobs shared by every instance on one Postgres, through pg-boss: each instance's node-cron tick sends
// the slot's job under an id made from the slot, so three instances sending it make one job; one instance takes it. A
// job with parts (the poller: one per canonical query; digests: one per digest) queues them, and every instance takes
// parts as it has room, so three instances share one run. pg-boss guarantees pickup, not the post: each part runs under
// its own fenced lease and queues its messages in the outbox, whose exactly-once rules are unchanged. A part whose
// instance died is taken again when pg-boss expires it, or at the next tick (its searches are still due).
import { createHash, randomUUID } from 'node:crypto';
import cron, { type ScheduledTask } from 'node-cron';
import PgBoss from 'pg-boss';
import type { Logger } from '../log.js';
import type { Job, Scheduler } from './scheduler.js';

export interface SharedSchedulerOptions {
  /** The Postgres the instances share: pg-boss keeps its queues there, in the `pgboss` schema. */
  url: string;
  timezone: string;
  logger: Logger;
  /** Parts this instance runs at once. */
  concurrency?: number;
  /** How long a part may stay taken before pg-boss gives it to another instance (its instance died or hung). */
  expireSeconds?: number;
  /** How often an idle instance asks for work. */
  pollSeconds?: number;
  /** How long a failed part waits before its next try (doubling each time). */
  retryDelaySeconds?: number;
}

type PartData = { key: string };

/** A part's queue: `alerts-poll.part`. */
const partQueue = (name: string) => `${name}.part`;

/** The same UUID for the same job and slot on every instance (pg-boss job ids are UUIDs). */
export function slotJobId(name: string, slot: Date): string {
  const h = createHash('sha256')
    .update(`${name}@${Math.floor(slot.getTime() / 1000)}`)
    .digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export class SharedScheduler implements Scheduler {
  private readonly jobs = new Map<string, Job>();
  private readonly tasks: ScheduledTask[] = [];
  private readonly boss: PgBoss;
  private readonly workers = new Map<string, string>();
  private started = false;

  constructor(private readonly o: SharedSchedulerOptions) {
    const expire = o.expireSeconds ?? 300;
    this.boss = new PgBoss({
      connectionString: o.url,
      application_name: 'manzil-jobs',
      max: 4,
      schedule: false,
      // Parts taken by an instance that died are looked for often enough to be taken again within a fraction of their
      // expiry.
      maintenanceIntervalSeconds: Math.max(1, Math.min(60, Math.floor(expire / 4))),
      expireInSeconds: expire,
      retentionHours: 1,
      archiveCompletedAfterSeconds: 3600,
      deleteAfterHours: 24,
    });
    this.boss.on('error', (error) => o.logger.error('job queue (pg-boss) error', { error }));
  }

  register(job: Job): void {
    if (this.jobs.has(job.name)) throw new Error(`job ${job.name} is registered already`);
    if (this.started) throw new Error('register shared jobs before start');
    this.jobs.set(job.name, job);
  }

  names(): string[] {
    return [...this.jobs.keys()];
  }

  async start(): Promise<void> {
    await this.boss.start();
    for (const job of this.jobs.values()) {
      // A slot's job is sent by every instance; its id makes it one. Parts: at most one queued per key (`short`).
      await this.createQueue({ name: job.name, policy: 'standard', retryLimit: 0 });
      this.workers.set(job.name, await this.boss.work(job.name, { pollingIntervalSeconds: this.o.pollSeconds ?? 1 }, () => this.runTick(job)));
      if (job.parts) await this.startParts(job, job.parts);
      const task = cron.schedule(job.cron, (ctx) => this.send(job.name, slotJobId(job.name, ctx.date)), { timezone: this.o.timezone, name: job.name });
      this.tasks.push(task);
    }
    this.started = true;
  }

  private async startParts(job: Job, parts: NonNullable<Job['parts']>): Promise<void> {
    const queue = partQueue(job.name);
    await this.createQueue({ name: queue, policy: 'short', retryLimit: 3, retryDelay: this.o.retryDelaySeconds ?? 5, retryBackoff: true });
    const batchSize = this.o.concurrency ?? 4;
    const id = await this.boss.work<PartData>(queue, { batchSize, pollingIntervalSeconds: this.o.pollSeconds ?? 1 }, async (batch) => {
      // The parts of a batch run side by side; one that fails is retried alone (the batch completes the others).
      await Promise.all(batch.map((part) => this.runPart(job, parts, queue, part)));
      // A full batch means more are waiting: ask again at once instead of after the polling interval.
      if (batch.length === batchSize) this.boss.notifyWorker(id);
    });
    this.workers.set(queue, id);
  }

  /**
   * Instances starting together can deadlock creating one queue (pg-boss makes a table for each): Postgres ends one of
   * them, which finds the queue made on its next try.
   */
  private async createQueue(queue: PgBoss.Queue): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        if (!(await this.boss.getQueue(queue.name))) await this.boss.createQueue(queue.name, queue);
        return;
      } catch (error) {
        if (attempt >= 5) throw error;
        await new Promise((r) => setTimeout(r, 50 * attempt + Math.random() * 100));
      }
    }
  }

  private async runTick(job: Job): Promise<void> {
    if (!job.parts) {
      await job.run();
      return;
    }
    const keys = await job.parts.list();
    if (keys.length === 0) return;
    // Longest-waiting first: pg-boss takes higher priorities first, and jobs inserted together in no set order.
    const queue = partQueue(job.name);
    await this.boss.insert(keys.map((key, i) => ({ name: queue, data: { key }, singletonKey: key, priority: keys.length - i })));
    const parts = this.workers.get(queue);
    if (parts) this.boss.notifyWorker(parts);
    this.o.logger.debug('shared run queued its parts', { job: job.name, parts: keys.length });
  }

  private async runPart(job: Job, parts: NonNullable<Job['parts']>, queue: string, part: PgBoss.Job<PartData>): Promise<void> {
    try {
      await parts.run(part.data.key);
    } catch (error) {
      this.o.logger.error('a part of a shared job failed; pg-boss tries it again', { job: job.name, error });
      await this.boss.fail(queue, part.id, { message: error instanceof Error ? error.message : String(error) });
    }
  }

  private async send(name: string, id: string): Promise<void> {
    try {
      if (await this.boss.send(name, {}, { id })) this.boss.notifyWorker(this.workers.get(name)!);
    } catch (error) {
      this.o.logger.error('could not queue a job’s run; the next tick tries again', { job: name, error });
    }
  }

  runSoon(name: string): void {
    if (this.started && this.jobs.has(name)) void this.send(name, randomUUID());
  }

  /** Stops the ticks, lets the jobs under way finish (or gives them back to the queue), and closes pg-boss's pool. */
  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    for (const task of this.tasks.splice(0)) {
      await task.stop();
      await task.destroy();
    }
    await this.boss.stop({ graceful: true, wait: true, timeout: 30_000 });
  }
}
