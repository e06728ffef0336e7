// The shape of a chat channel, `<platform>:<workspace>:<conversation>` (`slack:T1:C1`, `discord:G:C`), read in one place:
// the team whose share a call spends, and the conversation a button works in. A channel of another shape
// (`console:local`) is its own team and its own conversation.

const parts = (channel: string) => channel.split(':');

/** `slack:T123`: the platform and the workspace (or server). */
export function teamOf(channel: string): string {
  const p = parts(channel);
  return p.length >= 3 ? `${p[0]}:${p[1]}` : channel;
}

/** `slack:C123`: the platform and the conversation (Slack and Discord channel ids are unique on their platform). */
export function scopeOf(channel: string): string {
  const p = parts(channel);
  return p.length >= 3 ? `${p[0]}:${p.at(-1)}` : channel;
}

/** `slack:T123:U456`: a person, by their team and user id (the same id in another workspace is another person). */
export const personOf = (channel: string, user: string): string => `${teamOf(channel)}:${user}`;

/**
 * Whether a team is a pool of strangers rather than a workspace: Discord's direct messages (`discord:@me`), where
 * anyone may open an account and write to the bot. Each person there gets only a part of the pool's share.
 */
export const isSharedPool = (team: string): boolean => parts(team)[1] === '@me';

/**
 * A person's direct messages with the bot as a standing order's target, `<platform>:<team>:@<user>` (`slack:T1:@U9`):
 * of the team the person asked in, so the team is charged for it as for a channel's. The poster opens the DM itself.
 */
export const personalTarget = (channel: string, user: string): string => `${teamOf(channel)}:@${user}`;

/** The person a personal target posts to (`U9` of `slack:T1:@U9`), or undefined when it is a channel. */
export function personIn(target: string): string | undefined {
  const last = parts(target).at(-1) ?? '';
  return parts(target).length >= 3 && last.startsWith('@') && last.length > 1 ? last.slice(1) : undefined;
}
