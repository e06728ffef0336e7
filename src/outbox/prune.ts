// Bounded growth, run by the maintenance job: delivered or parked outbox entries are kept OUTBOX_RETENTION_MS for
// inspection, then deleted. Pending ones never go. (What a saved search has seen is kept as long as the search.)
import type { OutboxRepo } from '../store/index.js';

const OUTBOX_RETENTION_MS = 30 * 86_400_000;

export function pruneOutbox(
  outbox: Pick<OutboxRepo, 'prune'>,
  at: number = Date.now(),
  outboxMaxAgeMs = OUTBOX_RETENTION_MS,
): Promise<{ outbox: number }> {
  return outbox.prune(at, { outboxMaxAgeMs });
}
