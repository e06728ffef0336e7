// Events API events: a person opening the Home tab, a workspace removing the app (Add to Slack).
import type { App } from '@slack/bolt';
import { workspaceKey } from '../installations.js';
import type { ListenerDeps } from './deps.js';

export function register(app: App, deps: ListenerDeps): void {
  const { installations, logger, home, track } = deps;
  if (home)
    app.event('app_home_opened', ({ event, body }) =>
      track(async () => {
        if (event.tab !== 'home') return;
        const teamId = body.team_id;
        if (!teamId) return;
        // No view yet: nothing was ever published to this person, so this is their first visit.
        await home.opened(teamId, event.user, event.view === undefined);
      }),
    );
  // A workspace that removes the app (or revokes its bot token) loses its installation at once, and its alerts and
  // digests wait (Bolt leaves this to the app). Added again, they go on.
  if (installations) {
    // Bolt's context names the installation as Bolt saved it (an Enterprise Grid workspace with its enterprise).
    const remove = async (context: Parameters<typeof workspaceKey>[0], why: string) => {
      await installations.remove(workspaceKey(context), why);
      logger.info('slack: a workspace removed Manzil; its installation is deleted and its alerts and digests wait', {
        team: context.teamId,
        enterprise: context.enterpriseId,
        why,
      });
    };
    app.event('app_uninstalled', async ({ context }) => remove(context, 'app_uninstalled'));
    app.event('tokens_revoked', async ({ context, event }) => {
      // Only the bot's token matters: a person revoking their own user token leaves the workspace's alerts alone.
      if ((event.tokens.bot ?? []).length > 0) await remove(context, 'tokens_revoked');
    });
  }
}
