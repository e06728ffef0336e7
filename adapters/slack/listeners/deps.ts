// What every kind of listener is given (one deps object), and what they share: where a block action came from, and
// the refusal of a request that says no workspace or conversation.
import type { RespondFn } from '@slack/bolt';
import type { ChatCore, SlackInstallations, TrackRequest } from '../../../src/ports/index.js';
import type { Logger } from '../../../src/log.js';
import type { SlackAdmins } from '../admins.js';
import { NO_CHANNEL_TEXT, slackChannel } from '../channel.js';
import type { SlackForms } from '../forms.js';
import type { SlackHome } from '../home.js';
import type { SlackClients } from '../poster.js';

export interface ListenerDeps {
  bot: ChatCore;
  admins: SlackAdmins;
  clients: SlackClients;
  logger: Logger;
  /**
   * Counts each listener from the ack to the reply's delivery (respond() to the response_url), so a graceful stop
   * waits for the answer to reach Slack, not only for the bot to have one.
   */
  track: TrackRequest;
  /** Add to Slack: where installations are kept (a removed workspace's is deleted); unset with one bot token. */
  installations?: SlackInstallations | undefined;
  /** The alert and digest forms (modals): each kind's file registers its part of them. */
  forms: SlackForms;
  /** The Home tab (the person's own alerts and digests); none when unset. */
  home?: SlackHome | undefined;
}

/** Without a tracker, a listener just runs. */
export const untracked: TrackRequest = (work) => work();

/** What a block action, or a picker's typing (block_suggestion), says of where it came from. */
export interface BlockOrigin {
  team?: { id: string; enterprise_id?: string } | null;
  enterprise?: { id: string };
  user: { team_id?: string };
  channel?: { id: string };
  container?: { channel_id?: string };
}

/** Where a button press, a pick or a picker's typing came from; DMs keep their D… channel. */
export const actionChannel = (body: BlockOrigin) =>
  slackChannel({
    teamId: body.team?.id,
    enterpriseId: body.enterprise?.id ?? body.team?.enterprise_id,
    userTeamId: body.user.team_id,
    channelId: body.channel?.id ?? body.container?.channel_id,
  });

/**
 * A request without a workspace or conversation is answered, only to the person, rather than given an invented channel.
 */
export async function refuse(respond: RespondFn, logger: Logger, what: string): Promise<void> {
  logger.warn('slack: request without a team or channel refused', { what });
  await respond({ response_type: 'ephemeral', replace_original: false, text: NO_CHANNEL_TEXT });
}

/** The listener's warnings, as sendReply logs them. */
export const warnOf = (logger: Logger) => (message: string, fields: Record<string, unknown>) =>
  logger.warn(message, fields);
