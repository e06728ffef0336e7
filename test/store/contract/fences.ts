// The two fences the contracts try fenced writes under: one a job's run holds now, and one made stale by a take-over.
import type { Fence } from '../../../src/store/index.js';
import type { LeaseRepo } from '../../../src/store/contracts/leases.js';

export async function staleAndCurrent(
  leases: Pick<LeaseRepo, 'acquire'>,
  job: string,
): Promise<{ stale: Fence; current: Fence }> {
  const stale = (await leases.acquire(job, 'a', 1_000, 1_000))!;
  const current = (await leases.acquire(job, 'b', 5_000, 60_000))!;
  return { stale, current };
}
