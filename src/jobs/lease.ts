// A job run under a fenced lease: one run at a time across every instance sharing the database. The lease is short and
// renewed while the run lasts, only by its holder under its token; a renewal that fails means another instance took it
// over (this one stalled past it): the run is told to stop (its signal aborts) and whatever it commits under its fence
// is refused by the store.
import type { Logger } from '../log.js';
import type { Fence, LeaseRepo } from '../store/index.js';

export interface LeasedRunOptions {
  leases: Pick<LeaseRepo, 'acquire' | 'renew' | 'finish'>;
  name: string;
  holder: string;
  logger: Logger;
  /** How long the lease lasts unrenewed; renewed every quarter of it. */
  ttlMs: number;
  now?: () => number;
  /** A stop from outside (shutdown): passed on to the run. */
  signal?: AbortSignal;
  /** Whether the run's outcome is recorded as the job's last run (false for a first look squeezed in between runs). */
  record?: boolean;
  /** Instances gone (their heartbeat lapsed): a lease one of them holds is taken over at once. */
  lapsed?: () => Promise<string[]>;
}

export type LeasedRun<T> = { ran: false } | { ran: true; result: T };

export async function runLeased<T>(
  o: LeasedRunOptions,
  run: (fence: Fence, signal: AbortSignal) => Promise<T>,
): Promise<LeasedRun<T>> {
  const now = o.now ?? Date.now;
  const started = now();
  const fence = await o.leases.acquire(o.name, o.holder, started, o.ttlMs, await o.lapsed?.());
  if (!fence) return { ran: false };
  const lost = new AbortController();
  const renewOnce = async () => {
    if (lost.signal.aborted) return;
    try {
      if (await o.leases.renew(fence, now(), o.ttlMs)) return;
      o.logger.warn('another instance took over this job’s lease; this run stops', { job: o.name });
    } catch (e) {
      // A renewal that cannot be written stops the run.
      o.logger.error('the job’s lease could not be renewed; this run stops', { job: o.name, error: e });
    }
    lost.abort();
  };
  const renew = setInterval(() => void renewOnce(), o.ttlMs / 4);
  renew.unref();
  const signal = o.signal ? AbortSignal.any([o.signal, lost.signal]) : lost.signal;
  let ok = false;
  try {
    const result = await run(fence, signal);
    ok = (result as { ok?: boolean } | undefined)?.ok !== false;
    return { ran: true, result };
  } finally {
    clearInterval(renew);
    try {
      await o.leases.finish(fence, o.record === false ? undefined : { at: started, ms: now() - started, ok });
    } catch (e) {
      o.logger.error('the job’s run could not be recorded', { job: o.name, error: e });
    }
  }
}
