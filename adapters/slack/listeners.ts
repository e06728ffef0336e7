// Bolt listeners: ack at once, hand the request to the bot, send back what it says. Nothing else lives here.
import type { App, BlockAction, ButtonAction, SlackCommandMiddlewareArgs, SlackActionMiddlewareArgs, SlackOptionsMiddlewareArgs, StaticSelectAction } from '@slack/bolt';
import type { Bot } from '../../src/bot/index.js';
import type { Logger } from '../../src/log.js';
import { SLASH_COMMANDS, commandText, slackPlace } from './commands.js';
import { sendReply } from './send.js';

/** Slack gives an options request 3 s; answer within 2.5 s with what we have. */
const SUGGEST_DEADLINE_MS = 2_500 - 300;

export function registerListeners(app: App, bot: Bot, logger: Logger): void {
  const log = (message: string, fields: Record<string, unknown>) => logger.warn(message, fields);
  const commands = new RegExp(`^(${SLASH_COMMANDS.map((c) => c.command.replace('/', '\\/')).join('|')})$`);

  app.command(commands, async ({ command, ack, respond }: SlackCommandMiddlewareArgs) => {
    await ack();
    const reply = await bot.handleCommand({
      user: command.user_id,
      place: slackPlace(command.team_id, command.channel_id),
      text: commandText(command.command, command.text),
    });
    await sendReply(respond, reply, { log });
  });

  app.action(/^manzil:(page|save|details|choose|unsave):/, async ({ ack, body, action, respond }: SlackActionMiddlewareArgs<BlockAction<ButtonAction>>) => {
    await ack();
    const reply = await bot.handleAction({
      user: body.user.id,
      place: slackPlace(body.team?.id, body.channel?.id ?? body.user.id),
      action: action.action_id.split(':')[1]!,
      token: action.value ?? '',
    });
    await sendReply(respond, reply, { log });
  });

  // Link buttons open their URL in the browser; Slack still sends the click, which only needs an ack.
  app.action(/^manzil:link:/, async ({ ack }) => {
    await ack();
  });

  app.action('manzil:location', async ({ ack, body, action, respond }: SlackActionMiddlewareArgs<BlockAction<StaticSelectAction>>) => {
    await ack();
    const reply = await bot.handlePick({
      user: body.user.id,
      place: slackPlace(body.team?.id, body.channel?.id ?? body.user.id),
      token: action.block_id,
      value: action.selected_option.value,
    });
    await sendReply(respond, reply, { log });
  });

  app.options('manzil:location', async ({ ack, options }: SlackOptionsMiddlewareArgs<'block_suggestion'>) => {
    const timeout = new Promise<[]>((resolve) => setTimeout(() => resolve([]), SUGGEST_DEADLINE_MS).unref());
    const found = await Promise.race([bot.suggestLocations(options.value), timeout]);
    await ack({ options: found.map((o) => ({ text: { type: 'plain_text' as const, text: o.label }, value: o.value })) });
  });
}
