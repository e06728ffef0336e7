// Named jobs, each on its own schedule (node-cron): the alerts poller and maintenance now, digests next. Runs of one
// job
// never overlap in this process (node-cron's noOverlap); across instances each job takes its fenced lease (runLeased).
import cron, { type ScheduledTask } from 'node-cron';
import type { Logger } from '../log.js';

export interface Job {
  /** Also the name of its lease: `alerts-poll`, `maintenance`. */
  name: string;
  /** Five fields, or six with seconds first. */
  cron: string;
  /** The whole run, in this process. */
  run: () => Promise<unknown>;
  /**
   * The run split into parts any instance can take (shared-scheduler.ts, on Postgres): `list` names the parts due now
   * (the poller's batches of canonical queries), `run` runs one. `perJob`: parts a pg-boss job carries (default the
   * scheduler's; a part that is a batch already is one a job). Without it the job runs whole there too. `run` is
   * given when the run was listed: every part of one run has the same (a run's once-per-run posts are keyed by it).
   */
  parts?: { list: () => Promise<string[]>; run: (key: string, listedAt?: number) => Promise<unknown>; perJob?: number };
}

/** What the background's jobs are registered on: this process's schedule (JobScheduler) or one shared (pg-boss). */
export interface Scheduler {
  register(job: Job): void;
  start(): void | Promise<void>;
  /** Runs a job soon, outside its schedule (a new alert wants its first look). */
  runSoon(name: string): void;
  stop(): Promise<void>;
}

interface Scheduled {
  job: Job;
  task: ScheduledTask;
  current: Promise<unknown> | undefined;
  again: boolean;
}

export class JobScheduler implements Scheduler {
  private readonly jobs = new Map<string, Scheduled>();
  private started = false;

  constructor(private readonly o: { timezone: string; logger: Logger }) {}

  register(job: Job): void {
    if (this.jobs.has(job.name)) throw new Error(`job ${job.name} is registered already`);
    const task = cron.schedule(job.cron, () => this.tick(job.name), {
      timezone: this.o.timezone,
      noOverlap: true,
      name: job.name,
    });
    task.on('execution:overlap', () =>
      this.o.logger.warn('a job’s run still going at its next tick; that tick is skipped', {
        job: job.name,
        cron: job.cron,
      }),
    );
    void task.stop();
    this.jobs.set(job.name, { job, task, current: undefined, again: false });
    if (this.started) void task.start();
  }

  names(): string[] {
    return [...this.jobs.keys()];
  }

  start(): void {
    this.started = true;
    for (const s of this.jobs.values()) void s.task.start();
  }

  /** Runs a job now (or right after its current run), outside its schedule: a new alert wants its first look. */
  runSoon(name: string): void {
    const s = this.jobs.get(name);
    if (!s || !this.started) return;
    if (s.current) s.again = true;
    else void this.tick(name);
  }

  private async tick(name: string): Promise<void> {
    const s = this.jobs.get(name)!;
    if (s.current) return void (s.again = true);
    do {
      s.again = false;
      s.current = s.job.run().catch((e) => this.o.logger.error('job run failed', { job: name, error: e }));
      await s.current;
      s.current = undefined;
    } while (s.again && this.started);
  }

  /** Stops every schedule and waits for the runs in progress to finish their current step. */
  async stop(): Promise<void> {
    this.started = false;
    await Promise.allSettled(
      [...this.jobs.values()].map(async (s) => {
        await s.task.stop();
        await s.task.destroy();
        await s.current;
      }),
    );
  }
}
