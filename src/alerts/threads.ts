// Price drops in their cards' threads (issue 40): a drop whose listing's first card is known replies under it, so the
// channel itself is told once per run, in one short line, rather than once per drop; the line follows its drops, so a
// run re-decided after a restore, whose drops are all found on the platform already, tells the channel nothing again.
import type { NewDelivery, RunOutcome } from '../store/index.js';
import { encodePayload } from './messages.js';
import { plannedInThread } from './plan.js';

/** Threaded drops in one channel from which the channel gets its one line; a drop alone is its reply only. */
export const DROPS_LINE_FROM = 2;

/**
 * How many of its drops a line names: it is posted when one of them was sent by this database. A restore re-decides a
 * run's drops together, so the first few found on the platform stand for the rest.
 */
export const DROPS_FOLLOWED = 20;

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
  const perChannel = new Map<string, string[]>();
  for (const o of decided)
    for (const d of o.deliveries)
      if (threaded(d)) (perChannel.get(d.channel) ?? perChannel.set(d.channel, []).get(d.channel)!).push(d.dedupeKey);
  return [...perChannel]
    .filter(([, keys]) => keys.length >= DROPS_LINE_FROM)
    .map(([channel, keys]) => ({
      channel,
      kind: 'drops',
      dedupeKey: `drops:${channel}:${runAt}`,
      // The line follows its drops (../outbox/registry.ts `follows`): a few keys say whether any was sent.
      payload: encodePayload({ v: 1, kind: 'drops', count: keys.length, after: keys.slice(0, DROPS_FOLLOWED) }),
    }));
}
