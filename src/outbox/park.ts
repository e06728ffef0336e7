// An entry given up on: marked failed for good (under its claim), counted, logged with how to send it again, and told
// to whoever counts failures (/metrics).
import type { Logger } from '../log.js';
import type { ClaimedEntry } from '../store/index.js';
import type { DeliveryDeps, DrainReport } from './types.js';

export async function parkEntry(
  deps: Pick<DeliveryDeps, 'outbox' | 'onFailed'>,
  entry: ClaimedEntry,
  error: string,
  report: DrainReport,
  log: Logger,
): Promise<void> {
  const row = await deps.outbox.markFailed(entry.id, entry.token, { error, retryAt: undefined });
  if (!row) return;
  report.failed++;
  log.error('delivery parked: `manzil outbox` lists it, `manzil outbox retry` sends it again', {
    attempts: row.attempts,
    error,
  });
  deps.onFailed?.(row);
}
