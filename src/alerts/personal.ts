// Personal alerts: an alert whose target is a person's direct messages with the bot (`slack:T1:@U9`,
// ports/channel.ts personalTarget), saved by `/alerts add me …` or "Save for me". Only its owner sees it. When that
// person can no longer receive (they blocked the bot, left the workspace), the outbox says so once and their alerts
// there are paused with the reason, so no run queues for them again until they resume one.
import type { Logger } from '../log.js';
import { personIn } from '../ports/index.js';
import type { AlertsRepo } from '../store/index.js';

/** The reason kept on a paused personal alert: what the list shows its owner. */
export const RECIPIENT_PAUSE = 'I could not send you direct messages';

/** Pauses the active alerts of a person's DM target, with why; returns how many. Channels' alerts are never touched. */
export async function pauseForRecipient(
  repo: Pick<AlertsRepo, 'listByChannel' | 'setPaused'>,
  target: string,
  reason: string,
  logger: Logger,
): Promise<number> {
  if (personIn(target) === undefined) return 0;
  let paused = 0;
  for (const row of await repo.listByChannel(target)) {
    if (row.paused) continue;
    await repo.setPaused(row.id, true, undefined, `${RECIPIENT_PAUSE} (${reason})`);
    paused++;
  }
  // The target names the team and the person's id, never a token.
  if (paused > 0) logger.warn('personal alerts paused: the person cannot receive direct messages', { target, paused });
  return paused;
}
