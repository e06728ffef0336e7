// Bounded growth for alerts, run by the bot's maintenance timer: a listing no run has read for SEEN_RETENTION_MS is
// gone from the service (its seen rows go; should it come back, it counts as new), and delivered or failed outbox
// entries are kept OUTBOX_RETENTION_MS for inspection, then deleted. What a search has seen and still reads is kept.
import type { AlertsRepo } from '../store/index.js';

export const SEEN_RETENTION_MS = 90 * 86_400_000;
export const OUTBOX_RETENTION_MS = 30 * 86_400_000;

export function pruneAlerts(
  repo: Pick<AlertsRepo, 'prune'>,
  at: number = Date.now(),
  options: { seenMaxAgeMs?: number; outboxMaxAgeMs?: number } = {},
): { seen: number; outbox: number } {
  return repo.prune(at, { seenMaxAgeMs: options.seenMaxAgeMs ?? SEEN_RETENTION_MS, outboxMaxAgeMs: options.outboxMaxAgeMs ?? OUTBOX_RETENTION_MS });
}
