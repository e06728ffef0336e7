// Block actions: a result's buttons (page, save, details, choose, value), link buttons, an area picked.
import type { App, BlockAction, ButtonAction, SlackActionMiddlewareArgs, StaticSelectAction } from '@slack/bolt';
import { SLACK_SURFACE } from '../limits.js';
import { sendReply } from '../respond.js';
import { actionChannel, refuse, warnOf, type ListenerDeps } from './deps.js';

export function register(app: App, deps: ListenerDeps): void {
  const { bot, admins, clients, logger, track } = deps;
  const log = warnOf(logger);

  app.action(
    /^manzil:(page|save|details|choose|value):/,
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
