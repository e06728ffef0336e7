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
