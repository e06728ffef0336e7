// What every listener, and the forms (../forms.ts), read of a request: where a block action came from, the refusal
// of a request that says no workspace or conversation, and the warnings as sendReply logs them. Apart from ./deps.ts,
// which names the forms, so that the forms can use these without an import cycle.
import type { RespondFn } from '@slack/bolt';
import type { Logger } from '../../../src/log.js';
import { NO_CHANNEL_TEXT, slackChannel } from '../channel.js';

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
