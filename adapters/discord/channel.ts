// The opaque chat channel the core keeps for a Discord conversation: `discord:<guildId>:<channelId>`, or
// `discord:@me:<channelId>` for a DM, enough to post there later.

const SNOWFLAKE = /^\d{1,25}$/;

/** The channel of an interaction, or undefined when it does not say which channel it came from. */
export function discordChannel(
  guildId: string | null | undefined,
  channelId: string | null | undefined,
): string | undefined {
  if (!channelId || !SNOWFLAKE.test(channelId)) return undefined;
  if (guildId && !SNOWFLAKE.test(guildId)) return undefined;
  return `discord:${guildId || '@me'}:${channelId}`;
}

/** The guild ('@me' for a DM) and channel of a channel this adapter made; undefined for any other channel. */
export function parseDiscordChannel(channel: string): { guildId: string; channelId: string } | undefined {
  const m = /^discord:(\d{1,25}|@me):(\d{1,25})$/.exec(channel);
  return m ? { guildId: m[1]!, channelId: m[2]! } : undefined;
}

/** The person of a personal target (`discord:<guild>:@<userId>`: their DMs with the bot); undefined for a channel. */
export function discordPerson(channel: string): string | undefined {
  return /^discord:(?:\d{1,25}|@me):@(\d{1,25})$/.exec(channel)?.[1];
}

/** What an interaction without a channel is told, only to the person. */
export const NO_CHANNEL_TEXT =
  'Manzil could not tell which channel this came from. Try again in a server channel or a DM with Manzil.';
