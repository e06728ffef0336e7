// Price drops in their cards' threads (issue 40): a drop whose listing's first card is known replies under it, so the
// channel itself is told once per run, in one short line, rather than once per drop.
import type { NewDelivery, RunOutcome } from '../store/index.js';
import { encodePayload } from './messages.js';
import { plannedInThread } from './plan.js';

/** Threaded drops in one channel from which the channel gets its one line; a drop alone is its reply only. */
export const DROPS_LINE_FROM = 2;

/**
 * Whether a delivery is a price drop posted now in its card's thread (one held for quiet hours is folded instead):
 * as this run planned it (./plan.ts), without reading its payload again inside the commit.
 */
const threaded = (d: NewDelivery): boolean =>
  d.kind === 'price_drop' && d.holdUntil === undefined && plannedInThread(d);

/**
 * A batch's one line per channel with two or more threaded drops, from what its items decided, queued after them (so
 * it is posted once they are in their threads). Its dedupe key is the channel's and the run's: once per run and
 * channel, however often the commit is asked to decide, and a later job of the same run adds no second line.
 */
export function dropsLines(decided: readonly RunOutcome[], runAt: number): NewDelivery[] {
  const perChannel = new Map<string, number>();
  for (const o of decided)
    for (const d of o.deliveries) if (threaded(d)) perChannel.set(d.channel, (perChannel.get(d.channel) ?? 0) + 1);
  return [...perChannel]
    .filter(([, count]) => count >= DROPS_LINE_FROM)
    .map(([channel, count]) => ({
      channel,
      kind: 'drops',
      dedupeKey: `drops:${channel}:${runAt}`,
      payload: encodePayload({ v: 1, kind: 'drops', count }),
    }));
}
