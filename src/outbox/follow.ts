// An entry that only points to others (a drops line to its price drops, DeliveryKind.follows): posted once one of them
// was sent by this database; folded, never posted, when every one was found on the platform already (a restore
// re-decided a run whose line was posted then too) or given up; given back for later while one may still be sent.
import type { Logger } from '../log.js';
import type { ClaimedEntry } from '../store/index.js';
import type { DeliveryDeps, DrainReport } from './types.js';

/** Whether the entry is to be posted now (true), or was settled here (false: folded, or given back for later). */
export async function followedSent(
  entry: ClaimedEntry,
  followed: readonly string[],
  deps: Pick<DeliveryDeps, 'outbox' | 'options'>,
  report: DrainReport,
  log: Logger,
  now: number,
): Promise<boolean> {
  const verdict = await deps.outbox.settleFollower(entry.id, entry.token, followed);
  if (verdict === 'wait') await deps.outbox.requeue([entry], now + (deps.options.perChannelIntervalMs ?? 1_000));
  if (verdict === 'folded') {
    report.recoveredFound++;
    log.info('what this entry points to was on the platform already (a restore re-decided it): not posted again');
  }
  return verdict === 'post';
}
