// The opaque chat place the core keeps for a Discord conversation: `discord:<guildId>:<channelId>`, or
// `discord:@me:<channelId>` for a DM, enough to post there later.

const SNOWFLAKE = /^\d{1,25}$/;

/** The place of an interaction, or undefined when it does not say which channel it came from. */
export function discordPlace(
  guildId: string | null | undefined,
  channelId: string | null | undefined,
): string | undefined {
  if (!channelId || !SNOWFLAKE.test(channelId)) return undefined;
  if (guildId && !SNOWFLAKE.test(guildId)) return undefined;
  return `discord:${guildId || '@me'}:${channelId}`;
}

/** The guild ('@me' for a DM) and channel of a place this adapter made; undefined for any other place. */
export function parseDiscordPlace(place: string): { guildId: string; channelId: string } | undefined {
  const m = /^discord:(\d{1,25}|@me):(\d{1,25})$/.exec(place);
  return m ? { guildId: m[1]!, channelId: m[2]! } : undefined;
}

/** What an interaction without a channel is told, only to the person. */
export const NO_PLACE_TEXT =
  'Manzil could not tell which channel this came from. Try again in a server channel or a DM with Manzil.';
