// When an entry is tried again, and when it is given up: by time, never by count.
import type { OutboxRow } from '../store/index.js';

/** The wait before attempt `attempts + 1`: doubling from `baseBackoffMs`, at most `maxBackoffMs`, with jitter. */
export function backoff(attempts: number, o: { baseBackoffMs?: number; maxBackoffMs?: number }): number {
  const ceiling = Math.min(o.maxBackoffMs ?? 5 * 60_000, (o.baseBackoffMs ?? 2_000) * 2 ** (attempts - 1));
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

/** Past DELIVERY_GIVE_UP_H since its first attempt (or since it was written, when it was never tried). */
export function expired(
  entry: Pick<OutboxRow, 'firstAttemptAt' | 'createdAt'>,
  now: number,
  giveUpMs: number,
): boolean {
  return now - (entry.firstAttemptAt ?? entry.createdAt) >= giveUpMs;
}
