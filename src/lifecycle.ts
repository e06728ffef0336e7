// Graceful shutdown: stop taking requests, let the ones in flight finish (up to a deadline), then run the
// registered stop steps (drainers and closers) in the order they were registered.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ChatCore } from './ports/index.js';
import type { Reply } from './views/model.js';
import type { Logger } from './log.js';

/** What a request gets once shutdown has begun. */
export const RESTARTING_TEXT = 'Manzil is restarting; try again in a minute.';

/** A closer never gets less than this, even past the deadline, so that closing the database still happens. */
const CLOSE_GRACE_MS = 1_000;

/** Counts the handlers running now, and tells when none are left. */
export class InFlight {
  private count = 0;
  private waiters: (() => void)[] = [];

  get size(): number {
    return this.count;
  }

  async track<T>(work: () => Promise<T>): Promise<T> {
    this.count++;
    try {
      return await work();
    } finally {
      this.count--;
      if (this.count === 0) for (const wake of this.waiters.splice(0)) wake();
    }
  }

  /** Resolves once nothing is in flight (at once when nothing is). */
  idle(): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

/** A stop step: a drainer (waits for work to finish) or a closer. It may return a promise. */
export type StopStep = () => unknown;

export interface LifecycleOptions {
  /**
   * The deadline for the whole stop (SHUTDOWN_TIMEOUT_S): drainers get what is left of it, closers at least
   * CLOSE_GRACE_MS.
   */
  timeoutMs: number;
  logger: Logger;
}

export class Lifecycle {
  readonly inFlight = new InFlight();
  /** Set inside a request an adapter admitted before shutdown began: the bot serves it to the end. */
  private readonly admitted = new AsyncLocalStorage<true>();
  private readonly steps: { name: string; run: StopStep; drain: boolean }[] = [];
  private readonly aborter = new AbortController();
  private stopping: Promise<void> | undefined;
  private markStopped!: () => void;
  private readonly done = new Promise<void>((resolve) => (this.markStopped = resolve));

  constructor(private readonly options: LifecycleOptions) {}

  /** Aborted the moment shutdown begins: long-running loops (the terminal chat, a poller) listen to it. */
  get signal(): AbortSignal {
    return this.aborter.signal;
  }

  get isStopping(): boolean {
    return this.stopping !== undefined;
  }

  /**
   * An adapter's whole handling of one request, from its arrival to the reply's delivery: counted in flight, and, when
   * it arrived before shutdown began, served to the end even if the stop starts before it reaches the bot (a Discord
   * interaction already deferred must get its answer, not "restarting").
   */
  admit<T>(work: () => Promise<T>): Promise<T> {
    if (this.isStopping) return work();
    return this.inFlight.track(() => this.admitted.run(true, work));
  }

  /** True inside a request admitted before shutdown began. */
  get isAdmitted(): boolean {
    return this.admitted.getStore() === true;
  }

  /** Adds a closer. Drainers and closers run one after another, in the order they were added. */
  onStop(name: string, run: StopStep): void {
    this.steps.push({ name, run, drain: false });
  }

  /** Adds a drainer: it waits for work to finish, and is given up on at the deadline. */
  onDrain(name: string, run: StopStep): void {
    this.steps.push({ name, run, drain: true });
  }

  /** Begins the shutdown (once; later calls return the same promise) and resolves when every step ran. */
  stop(reason = 'stop'): Promise<void> {
    this.stopping ??= this.run(reason);
    return this.stopping;
  }

  /** Resolves when a shutdown, started by anyone, has finished. */
  stopped(): Promise<void> {
    return this.done;
  }

  private async run(reason: string): Promise<void> {
    const { logger, timeoutMs } = this.options;
    const deadline = Date.now() + timeoutMs;
    logger.info('shutting down', { reason, inFlight: this.inFlight.size, timeoutMs });
    this.aborter.abort();
    for (const step of this.steps) {
      const left = deadline - Date.now();
      const budget = step.drain ? Math.max(left, 0) : Math.max(left, CLOSE_GRACE_MS);
      try {
        const finished = await withinMs(Promise.resolve().then(step.run), budget);
        if (!finished)
          logger.warn('shutdown: a step did not finish in time, moving on', {
            step: step.name,
            waitedMs: budget,
            inFlight: this.inFlight.size,
          });
      } catch (error) {
        // One failing closer must not keep the others (the database above all) from closing.
        logger.warn('shutdown: a step failed, moving on', { step: step.name, error });
      }
    }
    logger.info('stopped', { reason });
    this.markStopped();
  }
}

/** True when the work settled within `ms`, false when the time ran out first (the work goes on unwatched). */
async function withinMs(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([work.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The core as adapters see it during a run: each request is counted while it runs, and once shutdown has begun new ones
 * (those no adapter admitted before it began) get a polite refusal instead. The replies that need no I/O pass through.
 */
export function guardBot(bot: ChatCore, lifecycle: Lifecycle): ChatCore {
  const refusal: Reply = { text: RESTARTING_TEXT, blocks: [{ kind: 'text', text: RESTARTING_TEXT }], ephemeral: true };
  const guard = <T>(work: () => Promise<T>, refused: T): Promise<T> =>
    lifecycle.isStopping && !lifecycle.isAdmitted ? Promise.resolve(refused) : lifecycle.inFlight.track(work);
  return {
    handleCommand: (req) => guard(() => bot.handleCommand(req), refusal),
    handleAction: (req) => guard(() => bot.handleAction(req), refusal),
    handlePick: (req) => guard(() => bot.handlePick(req), refusal),
    suggestLocations: (req) => guard(() => bot.suggestLocations(req), []),
    read: (req) => bot.read(req),
    immediateReply: (req) => bot.immediateReply(req),
    describe: (text, location) => bot.describe(text, location),
    orderForm: (req) => guard(() => bot.orderForm(req), { ok: false, reply: refusal }),
  };
}
