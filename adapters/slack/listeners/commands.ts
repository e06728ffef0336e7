// Slash commands (`/rent`, `/alerts`, …): ack at once, hand the text to the bot, send back what it says (or open a
// form: ../forms.ts).
import type { App, SlackCommandMiddlewareArgs } from '@slack/bolt';
import { slackChannel } from '../channel.js';
import { SLASH_COMMANDS, commandText } from '../commands.js';
import { SLACK_SURFACE } from '../limits.js';
import { sendReply } from '../respond.js';
import { refuse, warnOf, type ListenerDeps } from './deps.js';

export function register(app: App, deps: ListenerDeps): void {
  const { bot, admins, clients, logger, track } = deps;
  const log = warnOf(logger);
  // Global middleware, run before any command listener: `/alerts new`, `/digest new`, `/alerts edit 3` open a form.
  app.use(deps.forms.command);
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
}
