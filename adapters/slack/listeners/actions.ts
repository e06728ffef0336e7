// Block actions: a result's buttons (page, details, choose, value), the forms' buttons (a result's Save, the Home
// tab's New and Edit, Try again: ../forms.ts), the Home tab's changes, link buttons, an area picked.
import type { App, BlockAction, ButtonAction, SlackActionMiddlewareArgs, StaticSelectAction } from '@slack/bolt';
import { SLACK_SURFACE } from '../limits.js';
import { FORM_OPEN_ACTION, FORM_RETRY_ACTION, SAVE_ACTION } from '../forms.js';
import { HOME_ACTION } from '../render-home.js';
import { sendReply } from '../respond.js';
import { actionChannel, refuse, warnOf, type ListenerDeps } from './deps.js';

export function register(app: App, deps: ListenerDeps): void {
  const { bot, admins, clients, logger, track, home, forms } = deps;
  const log = warnOf(logger);

  app.action(SAVE_ACTION, forms.save);
  app.action(FORM_OPEN_ACTION, forms.open);
  app.action(FORM_RETRY_ACTION, forms.retry);

  app.action(
    /^manzil:(page|details|choose|value):/,
    ({ ack, body, action, respond }: SlackActionMiddlewareArgs<BlockAction<ButtonAction>>) =>
      track(async () => {
        await ack();
        const channel = actionChannel(body);
        if (!channel) return refuse(respond, logger, action.action_id);
        const reply = await bot.handleAction({
          user: body.user.id,
          channel,
          surface: SLACK_SURFACE,
          isAdmin: admins.forUser(body.team?.id ?? body.user.team_id ?? '', body.user.id),
          action: action.action_id.split(':')[1]!,
          token: action.value ?? '',
        });
        await sendReply(respond, reply, { log, charts: { clients, teamId: body.team?.id ?? body.user.team_id } });
      }),
  );

  // The Home tab's pause, resume and remove: run as the typed command on that order, then the tab is drawn again
  // with what it did at its top. (Its New and Edit buttons are the forms'.)
  if (home)
    app.action(HOME_ACTION, ({ ack, body, action }: SlackActionMiddlewareArgs<BlockAction<ButtonAction>>) =>
      track(async () => {
        await ack();
        const teamId = body.team?.id ?? body.user.team_id;
        const [, change] = HOME_ACTION.exec(action.action_id) ?? [];
        const m = /^(alert|digest):(\d+)$/.exec(action.value ?? '');
        if (!teamId || !m || !change) {
          logger.warn('slack: a Home tab button without its team or order ignored', { action: action.action_id });
          return;
        }
        const reply = await home.core.change(
          { user: body.user.id, team: `slack:${teamId}`, isAdmin: admins.forUser(teamId, body.user.id) },
          m[1] as 'alert' | 'digest',
          Number(m[2]),
          change as 'pause' | 'resume' | 'remove',
        );
        await home.noticed(teamId, body.user.id, reply.text);
      }),
    );

  // Link buttons open their URL in the browser; Slack still sends the click, which only needs an ack.
  app.action(/^manzil:link:/, async ({ ack }) => {
    await ack();
  });

  app.action(
    'manzil:location',
    ({ ack, body, action, respond }: SlackActionMiddlewareArgs<BlockAction<StaticSelectAction>>) =>
      track(async () => {
        await ack();
        const channel = actionChannel(body);
        if (!channel) return refuse(respond, logger, action.action_id);
        const reply = await bot.handlePick({
          user: body.user.id,
          channel,
          token: action.block_id,
          value: action.selected_option.value,
        });
        await sendReply(respond, reply, { log, charts: { clients, teamId: body.team?.id ?? body.user.team_id } });
      }),
  );
}
