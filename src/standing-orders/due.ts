// The due scan every kind of standing order runs alike: a run of a kind's job takes the job's fenced lease (one run at
// a time across instances) and works through the orders due now. On Postgres a run is shared: it is listed as parts
// under the job's lease (the run is recorded as one: /healthz reads it), and each part (a query, a digest) is run by
// whichever instance takes it, under a lease of its own that records no run. The kind decides what a part is and what
// running one due order writes through the outbox.
import { runLeased, type LeasedRunOptions } from '../jobs/index.js';

/** A kind's job and who runs it. */
export type JobLease = Omit<LeasedRunOptions, 'name' | 'record'> & { job: string };

/**
 * The lease of a run: the job's own for a whole run, or `part`'s (a name the kind gives the part) for one part of a
 * shared run, which records no run of its own.
 */
export function runLease(o: JobLease, part?: string): LeasedRunOptions {
  const { job, ...rest } = o;
  return part === undefined ? { ...rest, name: job } : { ...rest, name: part, record: false };
}

/**
 * A shared run's parts, listed under the job's lease: `list` is the kind's repository's `dueParts` (each part once,
 * the longest-waiting first, grouped in SQL: no due row is read). None when another instance holds the lease.
 */
export async function dueParts<Part>(o: JobLease, list: () => Promise<Part[]>): Promise<Part[]> {
  const listed = await runLeased(runLease(o), list);
  return listed.ran ? listed.result : [];
}
