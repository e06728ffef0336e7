// The background's jobs shared by every instance on one Postgres, through pg-boss: each instance's node-cron tick sends
// the slot's job under an id made from the slot, so three instances sending it make one job; one instance takes it. A
// job with parts (the poller: a batch of canonical queries each; digests: one per digest) queues them (a batch, or ten
// digests, to a pg-boss job), and
// every instance takes jobs as it has room, so three instances share one run. pg-boss guarantees pickup, not the post:
// each part runs under
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
  /**
   * Parts a pg-boss job carries, run one after another: a run of 10,000 queries is 1,000 jobs, since pg-boss's own
   * work on a job (taking it, completing it) costs Postgres more than a query's reads and writes.
   */
  partsPerJob?: number;
}

/** A pg-boss job of a shared run: its parts, and when the run was listed (none on jobs queued by the release before). */
type PartData = { keys: string[]; listedAt?: number };

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
  private readonly loops = new Map<string, QueueLoop>();
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

  async start(): Promise<void> {
    await this.boss.start();
    for (const job of this.jobs.values()) {
      // A slot's job is sent by every instance; its id makes it one. Parts: at most one queued per key (`short`).
      await this.createQueue({ name: job.name, policy: 'standard', retryLimit: 0 });
      this.loops.set(
        job.name,
        this.loop(job.name, 1, () => this.runTick(job)),
      );
      if (job.parts) {
        const parts = job.parts;
        const queue = partQueue(job.name);
        await this.createQueue({
          name: queue,
          policy: 'short',
          retryLimit: 3,
          retryDelay: this.o.retryDelaySeconds ?? 5,
          retryBackoff: true,
        });
        this.loops.set(
          queue,
          this.loop(queue, this.o.concurrency ?? 4, async (data) => {
            for (const key of (data as PartData).keys) await parts.run(key, (data as PartData).listedAt);
          }),
        );
      }
      const task = cron.schedule(job.cron, (ctx) => this.send(job.name, slotJobId(job.name, ctx.date)), {
        timezone: this.o.timezone,
        name: job.name,
      });
      this.tasks.push(task);
    }
    this.started = true;
  }

  private loop(queue: string, batchSize: number, run: (data: object) => Promise<unknown>): QueueLoop {
    const loop = new QueueLoop({
      boss: this.boss,
      queue,
      batchSize,
      idleMs: (this.o.pollSeconds ?? 1) * 1000,
      run,
      logger: this.o.logger,
    });
    loop.start();
    return loop;
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
    const queue = partQueue(job.name);
    // The last run's parts still waiting (a run longer than the period): this tick is skipped, as node-cron skips a
    // tick whose run is still going, so a query is not queued twice. Parts under way do not count: an instance that
    // died
    // holding some must not hold up the runs that will redo them.
    const waiting = await this.boss.getQueueSize(queue);
    if (waiting) {
      this.o.logger.warn('a shared run’s parts still waiting at its next tick; that tick is skipped', {
        job: job.name,
        waiting,
      });
      return;
    }
    const listedAt = Date.now();
    const keys = await job.parts.list();
    if (keys.length === 0) return;
    // Longest-waiting first: pg-boss takes higher priorities first, and jobs inserted together in no set order.
    const size = job.parts.perJob ?? this.o.partsPerJob ?? 10;
    const jobs = [];
    for (let i = 0; i < keys.length; i += size) {
      const chunk = keys.slice(i, i + size);
      const singletonKey = createHash('sha256').update(chunk.join('\n')).digest('base64url');
      jobs.push({ name: queue, data: { keys: chunk, listedAt }, singletonKey, priority: keys.length - i });
    }
    await this.boss.insert(jobs);
    this.loops.get(queue)?.poke();
    this.o.logger.debug('shared run queued its parts', { job: job.name, parts: keys.length, jobs: jobs.length });
  }

  private async send(name: string, id: string): Promise<void> {
    try {
      if (await this.boss.send(name, {}, { id })) this.loops.get(name)?.poke();
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
    // The jobs under way finish (a stopping instance's runs end early); a job not finished is taken again once expired.
    await Promise.all([...this.loops.values()].map((l) => l.stop()));
    await this.boss.stop({ graceful: false, close: true });
  }
}

/**
 * One queue's worker: runs up to `batchSize` jobs side by side, and records each one's outcome; sleeps `idleMs` (or
 * until poked) when there is none. pg-boss has its own workers, but they record outcomes without waiting
 * for the write, so a database gone at that moment would be an unhandled rejection: this loop awaits and logs it, and
 * the job is taken again once it expires.
 */
class QueueLoop {
  private running = false;
  private done: Promise<void> = Promise.resolve();
  private wake: (() => void) | undefined;

  constructor(
    private readonly o: {
      boss: PgBoss;
      queue: string;
      batchSize: number;
      idleMs: number;
      run: (data: object) => Promise<unknown>;
      logger: Logger;
    },
  ) {}

  start(): void {
    this.running = true;
    this.done = this.work();
  }

  /** Work was queued: ask at once instead of at the end of the idle wait. */
  poke(): void {
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.done;
  }

  private async work(): Promise<void> {
    // Up to `batchSize` jobs at a time, a freed slot refilled at once: one slow job never holds the others' slots.
    const running = new Set<Promise<void>>();
    while (this.running) {
      const room = this.o.batchSize - running.size;
      // pg-boss's fetch answers nothing, rather than failing, when the database cannot be reached: the loop waits.
      const jobs = room > 0 ? await this.o.boss.fetch<object>(this.o.queue, { batchSize: room }) : [];
      for (const job of jobs) {
        const run: Promise<void> = this.runOne(job).finally(() => running.delete(run));
        running.add(run);
      }
      // Full: wait for a slot. Nothing more to take: wait for a slot, new work (a poke) or the idle interval.
      if (running.size >= this.o.batchSize) await Promise.race(running);
      else if (jobs.length < room) await Promise.race([...running, new Promise<void>((resolve) => this.idle(resolve))]);
    }
    await Promise.all(running);
  }

  private idle(resolve: () => void): void {
    this.wake?.(); // an earlier wait a finished job cut short: its timer goes
    const timer = setTimeout(() => this.wake?.(), this.o.idleMs);
    this.wake = () => {
      clearTimeout(timer);
      this.wake = undefined;
      resolve();
    };
  }

  private async runOne(job: PgBoss.Job<object>): Promise<void> {
    const { queue, boss, logger } = this.o;
    let failure: unknown;
    try {
      await this.o.run(job.data);
    } catch (error) {
      failure = error;
      logger.error('a shared job failed; pg-boss tries it again', { queue, error });
    }
    try {
      if (failure === undefined) await boss.complete(queue, job.id);
      else await boss.fail(queue, job.id, { message: failure instanceof Error ? failure.message : String(failure) });
    } catch (error) {
      logger.warn('could not record a shared job’s outcome; it is taken again once it expires', { queue, error });
    }
  }
}
