// Bounded growth for alerts, run by the bot's maintenance timer: delivered or failed outbox entries are kept
// OUTBOX_RETENTION_MS for inspection, then deleted. Seen sets are not pruned: see AlertsRepo.prune.
import type { AlertsRepo } from '../store/index.js';

const OUTBOX_RETENTION_MS = 30 * 86_400_000;

export function pruneAlerts(repo: Pick<AlertsRepo, 'prune'>, at: number = Date.now(), outboxMaxAgeMs = OUTBOX_RETENTION_MS): { outbox: number } {
  return repo.prune(at, { outboxMaxAgeMs });
}
