// The core's side of Add to Slack: the port the Slack adapter owns (ports/slack-installations.ts), over the store's
// SlackInstallationRepo whichever database is behind it. The store only keeps the sealed rows and holds or releases
// channels by prefix; what a workspace's channels are (`slack:T…:`) and when to hold them is decided here.
import type { Logger } from './log.js';
import type { SlackInstallations } from './ports/index.js';
import type { InstallationKey, SlackInstallationRepo } from './store/index.js';

/**
 * Key rotation, at start: installations sealed with a previous key are sealed again with the current one, so the
 * previous key can then be dropped. Returns how many.
 */
export async function resealInstallations(repo: SlackInstallationRepo, logger: Pick<Logger, 'info'>): Promise<number> {
  const n = await repo.reseal();
  if (n > 0)
    logger.info('slack: installations sealed again with the current MANZIL_ENCRYPTION_KEY; the previous key can go', {
      installations: n,
    });
  return n;
}

/** The core's side of Add to Slack (the port the Slack adapter uses): installations kept sealed, removals held. */
export function slackInstallations(repo: SlackInstallationRepo, now: () => number = Date.now): SlackInstallations {
  const prefix = (k: InstallationKey) => `slack:${k.teamId ?? k.enterpriseId}:`;
  return {
    async save(k, installation) {
      await repo.save(k, installation);
      await repo.releaseWorkspace(prefix(k), now());
    },
    fetch: (k) => repo.fetch(k),
    async remove(k) {
      await repo.delete(k);
      await repo.holdWorkspace(prefix(k), now());
    },
  };
}
