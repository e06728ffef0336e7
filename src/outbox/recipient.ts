// A person's DM that refused a post for good (`recipient_unavailable`: they blocked the bot, left the workspace): said
// once in the log, and told to whoever pauses their standing orders there (the composition root: their alerts).
import type { Logger } from '../log.js';
import type { ClaimedEntry } from '../store/index.js';
import type { DeliveryDeps } from './types.js';

/** Parks each entry (the refused one and the rest of the person's queue), each with its own log context. */
export async function parkEach(
  entries: readonly ClaimedEntry[],
  park: (entry: ClaimedEntry, log: Logger) => Promise<void>,
  logger: Logger,
): Promise<void> {
  for (const e of entries) await park(e, logger.child({ part: 'outbox', delivery: e.id, channel: e.channel }));
}

export async function recipientGone(
  deps: Pick<DeliveryDeps, 'onRecipientGone'>,
  channel: string,
  reason: string,
  log: Logger,
): Promise<void> {
  log.warn('this person cannot receive direct messages from the bot: their alerts there are paused', { error: reason });
  await deps
    .onRecipientGone?.(channel, reason)
    .catch((e: unknown) => log.error('could not pause the alerts of a person who cannot receive', { error: e }));
}
