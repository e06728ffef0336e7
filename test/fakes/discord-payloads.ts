// The objects the fake Discord sends to discord.js: users, members, the guild and its text channels, READY, messages
// and interactions. Shapes follow Discord's API v10 documentation and what discord.js 14 reads (an interaction without
// a `channel` object or `entitlements` makes its constructor throw).

/** Discord's epoch (2015-01-01), the origin of snowflake timestamps. */
const DISCORD_EPOCH = 1_420_070_400_000n;
let lastSnowflake = 0n;

/** A fresh snowflake: time-ordered and strictly increasing within this process, like Discord's. */
export function snowflake(): string {
  const now = (BigInt(Date.now()) - DISCORD_EPOCH) << 22n;
  lastSnowflake = now > lastSnowflake ? now : lastSnowflake + 1n;
  return lastSnowflake.toString();
}

export const DEFAULT_IDS = {
  applicationId: '1180000000000000001',
  guildId: '1180000000000000002',
  channelId: '1180000000000000003',
  /** The person who types commands and presses buttons unless a test says otherwise. */
  userId: '1180000000000000010',
  botToken: 'fake-discord-bot-token.for-tests-only',
};

/** What the bot may do in the test channel: View Channel, Send Messages, Embed Links, Attach Files, Read History... */
export const APP_PERMISSIONS = (
  (1n << 10n) |
  (1n << 11n) |
  (1n << 14n) |
  (1n << 15n) |
  (1n << 16n) |
  (1n << 6n) |
  (1n << 18n) |
  (1n << 31n) |
  (1n << 38n)
).toString();

export interface World {
  applicationId: string;
  guildId: string;
  channelIds: string[];
  botUser: ReturnType<typeof botUser>;
  createdAt: string;
}

export function botUser(applicationId: string) {
  // A bot's user id equals its application id for every application created since 2019.
  return {
    id: applicationId,
    username: 'Manzil',
    discriminator: '0000',
    global_name: null,
    avatar: null,
    bot: true,
    verified: true,
    mfa_enabled: false,
    flags: 0,
    public_flags: 0,
  };
}

export function humanUser(id: string) {
  return {
    id,
    username: `user${id.slice(-4)}`,
    discriminator: '0',
    global_name: `Test User ${id.slice(-4)}`,
    avatar: null,
    public_flags: 0,
    flags: 0,
    bot: false,
  };
}

export function member(user: object, permissions: string, joinedAt: string) {
  return {
    user,
    roles: [],
    nick: null,
    avatar: null,
    banner: null,
    joined_at: joinedAt,
    premium_since: null,
    deaf: false,
    mute: false,
    flags: 0,
    pending: false,
    communication_disabled_until: null,
    permissions,
  };
}

export function textChannel(world: World, id: string, position: number) {
  return {
    id,
    type: 0,
    guild_id: world.guildId,
    name: position === 0 ? 'property-chat' : `channel-${position}`,
    position,
    permission_overwrites: [],
    parent_id: null,
    nsfw: false,
    topic: null,
    last_message_id: null,
    rate_limit_per_user: 0,
    flags: 0,
  };
}

export function guild(world: World) {
  const everyone = {
    id: world.guildId,
    name: '@everyone',
    color: 0,
    colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
    hoist: false,
    icon: null,
    unicode_emoji: null,
    position: 0,
    permissions: ((1n << 10n) | (1n << 11n) | (1n << 31n)).toString(),
    managed: false,
    mentionable: false,
    flags: 0,
  };
  return {
    id: world.guildId,
    name: 'Manzil Test Server',
    icon: null,
    splash: null,
    discovery_splash: null,
    owner_id: '1180000000000000099',
    afk_channel_id: null,
    afk_timeout: 300,
    verification_level: 0,
    default_message_notifications: 0,
    explicit_content_filter: 0,
    roles: [everyone],
    emojis: [],
    stickers: [],
    features: [],
    mfa_level: 0,
    application_id: null,
    system_channel_id: null,
    system_channel_flags: 0,
    rules_channel_id: null,
    max_members: 500_000,
    vanity_url_code: null,
    description: null,
    banner: null,
    premium_tier: 0,
    premium_subscription_count: 0,
    preferred_locale: 'en-US',
    public_updates_channel_id: null,
    max_video_channel_users: 25,
    max_stage_video_channel_users: 50,
    nsfw_level: 0,
    premium_progress_bar_enabled: false,
    safety_alerts_channel_id: null,
    incidents_data: null,
    // GUILD_CREATE extras
    joined_at: world.createdAt,
    large: false,
    unavailable: false,
    member_count: 2,
    voice_states: [],
    members: [member(world.botUser, APP_PERMISSIONS, world.createdAt)],
    presences: [],
    channels: world.channelIds.map((id, i) => textChannel(world, id, i)),
    threads: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
}

export function ready(world: World, sessionId: string, resumeUrl: string) {
  return {
    v: 10,
    user: world.botUser,
    guilds: [{ id: world.guildId, unavailable: true }],
    session_id: sessionId,
    resume_gateway_url: resumeUrl,
    session_type: 'normal',
    shard: [0, 1],
    application: { id: world.applicationId, flags: 0 },
    private_channels: [],
    presences: [],
    relationships: [],
    guild_join_requests: [],
    user_settings: {},
    geo_ordered_rtc_regions: ['dubai'],
    _trace: ['["fake-discord",{"micros":0}]'],
  };
}

export interface InteractionInput {
  id: string;
  token: string;
  type: number;
  data: object;
  userId: string;
  permissions: string;
  channelId: string;
  /** In a direct message with the bot: no guild, the person as `user`, a DM channel. */
  dm?: boolean;
  /** The message a component was on (type 3). */
  message?: object;
}

export function interaction(world: World, input: InteractionInput) {
  const user = humanUser(input.userId);
  if (input.dm) return dmInteraction(world, input, user);
  const channelIndex = Math.max(0, world.channelIds.indexOf(input.channelId));
  return {
    id: input.id,
    application_id: world.applicationId,
    type: input.type,
    data: input.data,
    token: input.token,
    version: 1,
    guild_id: world.guildId,
    guild: { id: world.guildId, locale: 'en-US', features: [] },
    guild_locale: 'en-US',
    locale: 'en-US',
    channel_id: input.channelId,
    channel: { ...textChannel(world, input.channelId, channelIndex), permissions: APP_PERMISSIONS },
    member: member(user, input.permissions, world.createdAt),
    app_permissions: APP_PERMISSIONS,
    entitlements: [],
    authorizing_integration_owners: { '0': world.guildId },
    context: 0,
    attachment_size_limit: 10_485_760,
    ...(input.message ? { message: input.message } : {}),
  };
}

/** An interaction in a direct message with the bot, as Discord sends it: no guild, `user` instead of `member`. */
function dmInteraction(world: World, input: InteractionInput, user: ReturnType<typeof humanUser>) {
  return {
    id: input.id,
    application_id: world.applicationId,
    type: input.type,
    data: input.data,
    token: input.token,
    version: 1,
    locale: 'en-US',
    channel_id: input.channelId,
    channel: { id: input.channelId, type: 1, last_message_id: null, flags: 0, recipients: [user] },
    user,
    app_permissions: APP_PERMISSIONS,
    entitlements: [],
    authorizing_integration_owners: { '1': user.id },
    context: 1,
    attachment_size_limit: 10_485_760,
    ...(input.message ? { message: input.message } : {}),
  };
}

/** A message as Discord answers it, built from what the bot sent (the nonce is added to the create answer only). */
export function message(
  world: World,
  fields: {
    id: string;
    channelId: string;
    body: Record<string, unknown>;
    flags: number;
    /** For interaction replies: the interaction and who used it. */
    interaction?: { id: string; type: number; userId: string; name?: string };
    attachments?: object[];
  },
) {
  const b = fields.body;
  const embeds = Array.isArray(b.embeds) ? (b.embeds as object[]).map((e) => ({ type: 'rich', ...e })) : [];
  return {
    id: fields.id,
    type: fields.interaction?.type === 2 ? 20 : 0,
    channel_id: fields.channelId,
    guild_id: world.guildId,
    author: world.botUser,
    content: typeof b.content === 'string' ? b.content : '',
    embeds,
    components: Array.isArray(b.components) ? b.components : [],
    attachments: fields.attachments ?? [],
    mentions: [],
    mention_roles: [],
    mention_everyone: false,
    pinned: false,
    tts: Boolean(b.tts),
    timestamp: new Date().toISOString(),
    edited_timestamp: null,
    flags: fields.flags,
    ...(fields.interaction
      ? {
          application_id: world.applicationId,
          webhook_id: world.applicationId,
          interaction_metadata: {
            id: fields.interaction.id,
            type: fields.interaction.type,
            user: humanUser(fields.interaction.userId),
            authorizing_integration_owners: { '0': world.guildId },
            ...(fields.interaction.name ? { name: fields.interaction.name } : {}),
          },
        }
      : {}),
  };
}
