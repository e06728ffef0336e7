// The opaque chat channel the core keeps for a Slack conversation: `slack:TEAM:CHANNEL`, enough to post there later.

/** What a Slack request says about where it came from. */
export interface SlackOrigin {
  teamId?: string | null | undefined;
  /** Org-wide (Enterprise Grid) installs may send no team, only the enterprise. */
  enterpriseId?: string | null | undefined;
  /** The person's own workspace, the last resort. */
  userTeamId?: string | null | undefined;
  /** A public or private channel (C…, G…) or a DM (D…). */
  channelId?: string | null | undefined;
}

const present = (s: string | null | undefined): string | undefined =>
  s && s.trim() && !s.includes(':') ? s : undefined;

/** The channel of a request, or undefined when the request does not say which workspace or conversation it came from. */
export function slackChannel(origin: SlackOrigin): string | undefined {
  const team = present(origin.teamId) ?? present(origin.enterpriseId) ?? present(origin.userTeamId);
  const channel = present(origin.channelId);
  return team && channel ? `slack:${team}:${channel}` : undefined;
}

/** The workspace and conversation of a channel this adapter made; undefined for any other channel. */
export function parseSlackChannel(channel: string): { teamId: string; channelId: string } | undefined {
  const m = /^slack:([^:]+):([^:]+)$/.exec(channel);
  return m ? { teamId: m[1]!, channelId: m[2]! } : undefined;
}

/** Said, only to the person, when a request carries no workspace or conversation to answer in. */
export const NO_CHANNEL_TEXT =
  "Sorry, I can't tell which workspace or conversation this came from, so I can't answer here. Try again from a channel or a direct message with Manzil.";
