// Bolt listeners: ack at once, hand the request to the bot, send back what it says. Nothing else lives here.
import type {
  App,
  BlockAction,
  ButtonAction,
  RespondFn,
  SlackCommandMiddlewareArgs,
  SlackActionMiddlewareArgs,
  SlackOptionsMiddlewareArgs,
  StaticSelectAction,
} from '@slack/bolt';
import type { ChatCore, SlackInstallations, TrackRequest } from '../../src/ports/index.js';
import type { Logger } from '../../src/log.js';
import type { SlackAdmins } from './admins.js';
import { workspaceKey } from './installations.js';
import { SLASH_COMMANDS, commandText } from './commands.js';
import { SLACK_SURFACE } from './limits.js';
import { NO_CHANNEL_TEXT, slackChannel } from './channel.js';
import type { SlackClients } from './poster.js';
import { sendReply } from './respond.js';

/** Slack gives an options request 3 s; answer within 2.5 s with what we have. */
const SUGGEST_DEADLINE_MS = 2_500 - 300;

/** What a block action, or a picker's typing (block_suggestion), says of where it came from. */
interface BlockOrigin {
  team?: { id: string; enterprise_id?: string } | null;
  enterprise?: { id: string };
  user: { team_id?: string };
  channel?: { id: string };
  container?: { channel_id?: string };
}

/** Where a button press, a pick or a picker's typing came from; DMs keep their D… channel. */
const actionChannel = (body: BlockOrigin) =>
  slackChannel({
    teamId: body.team?.id,
    enterpriseId: body.enterprise?.id ?? body.team?.enterprise_id,
    userTeamId: body.user.team_id,
    channelId: body.channel?.id ?? body.container?.channel_id,
  });

/**
 * A request without a workspace or conversation is answered, only to the person, rather than given an invented channel.
 */
async function refuse(respond: RespondFn, logger: Logger, what: string): Promise<void> {
  logger.warn('slack: request without a team or channel refused', { what });
  await respond({ response_type: 'ephemeral', replace_original: false, text: NO_CHANNEL_TEXT });
}

/** Without a tracker, a listener just runs. */
const untracked: TrackRequest = (work) => work();

/**
 * `track` counts each listener from the ack to the reply's delivery (respond() to the response_url), so a graceful
 * stop waits for the answer to reach Slack, not only for the bot to have one.
 */
export function registerListeners(
  app: App,
  bot: ChatCore,
  admins: SlackAdmins,
  clients: SlackClients,
  logger: Logger,
  track: TrackRequest = untracked,
): void {
  const log = (message: string, fields: Record<string, unknown>) => logger.warn(message, fields);
  const commands = new RegExp(`^(${SLASH_COMMANDS.map((c) => c.command.replace('/', '\\/')).join('|')})$`);

  app.command(commands, ({ command, ack, respond }: SlackCommandMiddlewareArgs) =>
    track(async () => {
      await ack();
      const channel = slackChannel({
        teamId: command.team_id,
        enterpriseId: command.enterprise_id,
        channelId: command.channel_id,
      });
      if (!channel) return refuse(respond, logger, command.command);
      const reply = await bot.handleCommand({
        user: command.user_id,
        channel,
        surface: SLACK_SURFACE,
        isAdmin: admins.forUser(command.team_id, command.user_id),
        text: commandText(command.command, command.text),
      });
      await sendReply(respond, reply, { log, charts: { clients, teamId: command.team_id } });
    }),
  );

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

  app.options('manzil:location', async ({ ack, body, options }: SlackOptionsMiddlewareArgs<'block_suggestion'>) => {
    const timeout = new Promise<[]>((resolve) => setTimeout(() => resolve([]), SUGGEST_DEADLINE_MS).unref());
    // What the suggestions cost is the workspace's; typing from nowhere in particular gets none.
    const channel = actionChannel(body);
    const found = channel
      ? await Promise.race([bot.suggestLocations({ user: body.user.id, channel, typed: options.value }), timeout])
      : [];
    await ack({
      options: found.map((o) => ({ text: { type: 'plain_text' as const, text: o.label }, value: o.value })),
    });
  });
}

/**
 * Add to Slack: a workspace that removes the app (or revokes its bot token) loses its installation at once, and its
 * alerts and digests wait (Bolt leaves this to the app). Added again, they go on.
 */
export function registerUninstall(app: App, installations: SlackInstallations, logger: Logger): void {
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
