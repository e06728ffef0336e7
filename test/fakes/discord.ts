// A fake Discord on 127.0.0.1 that the real discord.js 14 client logs in to: the REST API under /api/v10 (gateway
// information, interaction callbacks, webhook follow-ups and edits of @original, channel messages with nonce
// enforcement, application commands) and the WebSocket gateway (discord-gateway.ts) on the same port. It records
// every request, checks every payload the bot sends against Discord's limits (discord-limits.ts), refuses what Discord
// refuses, and can answer 429s, failures, or hold an answer as when the bot crashes mid-post.
//
//   const fake = await startFakeDiscord();
//   const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: fake.apiUrl } });
//   await client.login(fake.botToken); await fake.ready();
//   const { token } = await fake.slashCommand('rent', [{ name: 'query', type: 3, value: 'marina 2br' }]);
//   await fake.waitFor(() => fake.original(token)?.embeds.length > 0);
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeGateway } from './discord-gateway.js';
import {
  BadBody,
  discordError,
  Faults,
  fieldError,
  parseRequest,
  send,
  type Answer,
  type ParsedRequest,
  type UploadedFile,
} from './discord-http.js';
import { checkChoices, checkCommands, checkMessage, type Findings } from './discord-limits.js';
import { checkModal, modalSubmission, type ModalInput } from './discord-modals.js';
import * as payload from './discord-payloads.js';

export { PRIVILEGED_INTENTS } from './discord-gateway.js';

/** Discord's JSON (messages, payloads, commands) as tests read it: loosely typed, like the API it mirrors. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests walk Discord's JSON freely
export type DiscordJson = any;

/**
 * What a message says, as a person reads it: its content, then (Components V2) its text displays in order, however
 * nested in containers and sections.
 */
export function shownText(message: DiscordJson | undefined): string {
  const walk = (list: unknown): string[] =>
    Array.isArray(list)
      ? list.flatMap((c: DiscordJson) => [...(c?.type === 10 ? [String(c.content)] : []), ...walk(c?.components)])
      : [];
  if (!message) return '';
  return [typeof message.content === 'string' ? message.content : '', ...walk(message.components)]
    .filter(Boolean)
    .join('\n');
}

export interface FakeDiscordOptions {
  applicationId?: string;
  guildId?: string;
  /** The test channel, listed in the guild (GUILD_CREATE) and the default for interactions. */
  channelId?: string;
  botToken?: string;
  /** More text channels in the guild (an alert saved in one channel is posted there). */
  extraChannelIds?: string[];
  /** Privileged intents the application was granted (GuildMembers, GuildPresences, MessageContent); default none. */
  allowedIntents?: number;
  /** HELLO's heartbeat_interval; default 1,000 ms so that heartbeats happen during tests. */
  heartbeatIntervalMs?: number;
  /** An interaction not answered (callback) within this is gone, as on Discord; default 3,000 ms. */
  callbackDeadlineMs?: number;
  /** How long a nonce is remembered for `enforce_nonce`; default 5 minutes ("a few minutes" on Discord). */
  nonceWindowMs?: number;
  /** The files of one request may weigh this much at most (bytes); more answers 413 with code 40005. Default 10 MiB. */
  attachmentSizeLimit?: number;
}

export interface RecordedRequest {
  method: string;
  /** The path under /api/v10, percent-decoded: `/webhooks/{app}/{token}/messages/@original`. */
  path: string;
  query: Record<string, string>;
  /** The JSON body, or `payload_json` of a multipart body. */
  body: unknown;
  at: number;
  /** What the fake answered (also for held answers, which are sent later or never). */
  status: number;
  /** Files of a multipart body. */
  files?: { field: string; name: string; size: number }[];
}

export interface ResponseEntry {
  kind: 'callback' | 'edit' | 'followup' | 'delete';
  /** The callback type (4 reply, 5 deferred reply, 6 deferred update, 7 update, 8 autocomplete answer, 9 modal). */
  type?: number;
  /** What the bot sent: a callback's `data` ({} when none), an edit's or a follow-up's message payload. */
  body: DiscordJson;
  /** The message created, edited or deleted. */
  messageId?: string;
  /** Whether the message concerned is seen only by the person who used the interaction. */
  ephemeral: boolean;
}

export interface FakeDiscord {
  /** For discord.js `rest: { api }`: `http://127.0.0.1:PORT/api` (the client appends /v10). */
  apiUrl: string;
  /** ws://127.0.0.1:PORT, as GET /api/v10/gateway/bot answers. */
  gatewayUrl: string;
  applicationId: string;
  guildId: string;
  channelId: string;
  botToken: string;
  /** Resolves once a client identified and got READY + GUILD_CREATE. */
  ready(): Promise<void>;
  /**
   * Dispatches INTERACTION_CREATE for a slash command (type 2) as Discord does. `options` are the command's options as
   * Discord sends them: `[{ name, type, value }]` (type 3 string, 4 integer) or a subcommand
   * `[{ name: 'add', type: 1, options: [...] }]`. `user` is the user id; `permissions` the member's permission bitfield
   * (default '0'; Manage Server is `(1n << 5n).toString()`).
   */
  slashCommand(name: string, options?: unknown[], opts?: InteractionOpts): Promise<{ id: string; token: string }>;
  /**
   * Dispatches an APPLICATION_COMMAND_AUTOCOMPLETE (type 4). The option to complete carries `focused: true` (the last
   * option is focused if none does). Resolves with the choices the bot answered and how long it took, or rejects after
   * `timeoutMs` (default 3,000) or if Discord would have refused the answer.
   */
  autocomplete(
    name: string,
    options: unknown[],
    timeoutMs?: number,
    opts?: InteractionOpts,
  ): Promise<{ choices: { name: string; value: string }[]; ms: number }>;
  /**
   * Presses a button on a message the bot sent: `message.id` is a message id, or an interaction token for that
   * interaction's @original (`fake.original(token)` also works as the message). Throws if the message or the button
   * (by custom_id) does not exist or the button is disabled.
   */
  clickButton(
    customId: string,
    message: { id: string; channelId?: string },
    opts?: InteractionOpts,
  ): Promise<{ id: string; token: string }>;
  /**
   * The modal the bot showed in answer to an interaction (callback type 9, checked against Discord's limits and
   * refused when over them), or undefined.
   */
  modal(interactionToken: string): DiscordJson | undefined;
  /**
   * The person submits the modal shown to interaction `token`: dispatches a MODAL_SUBMIT (type 5) carrying each
   * field as Discord does (components → label → text input `value` / select `values`). `input` is what they typed
   * (a text) or chose (a value, or several) by custom_id; a field left out keeps what the bot filled in. Throws
   * where Discord's client would not let them send it (an unknown field, a required one empty, an unknown choice).
   */
  submitModal(token: string, input: ModalInput, opts?: InteractionOpts): Promise<{ id: string; token: string }>;
  /** Everything the bot did for one interaction, in order. */
  responses(interactionToken: string): ResponseEntry[];
  /** The current message of @original for an interaction (after edits), or undefined (none yet, or deleted). */
  original(interactionToken: string): DiscordJson | undefined;
  /** Messages created with POST /channels/{id}/messages, in order: the payload the bot sent and its nonce. */
  messages(channelId?: string): { id: string; body: DiscordJson; nonce?: string }[];
  /** Any message the bot made (channel post, interaction reply, follow-up) as Discord holds it now. */
  message(id: string): DiscordJson | undefined;
  /** Registered application commands: global ones, or one guild's. */
  commands(guildId?: string): DiscordJson[];
  /** Every REST request, for assertions. */
  requests(): RecordedRequest[];
  /** Polls until the predicate holds; rejects after `timeoutMs` (default 5,000). */
  waitFor(predicate: () => boolean | Promise<boolean>, timeoutMs?: number): Promise<void>;
  /**
   * The next `times` (default 1) requests matching method and a regex on the path under /api/v10 answer 429 with
   * `retry_after` (seconds) in the body and Retry-After plus X-RateLimit-* headers (Reset-After included); `global`
   * adds X-RateLimit-Global and the body's `global: true`. The request is not carried out. `opts.retryAfterSeconds`
   * puts another value in Retry-After and the body than in X-RateLimit-Reset-After (`seconds`), as a test of which one
   * the client waits.
   */
  rateLimitNext(
    method: string,
    path: RegExp,
    seconds: number,
    opts?: { times?: number; global?: boolean; retryAfterSeconds?: number },
  ): void;
  /** The next `times` (default 1) matching requests fail with this status and are not carried out. */
  failNext(method: string, path: RegExp, status: number, times?: number): void;
  /**
   * Until switched off (the returned function), requests matching method (`*` for any) and path answer `status` with
   * Discord's JSON error `code` (0 unless given) and are not carried out: `failUntilOff('POST', /messages$/, 403,
   * 50001)`
   * for Missing Access, `failUntilOff('*', /./, 401)` for a token refused everywhere (GET /users/@me included).
   */
  failUntilOff(method: string, path: RegExp, status: number, code?: number): () => void;
  /** The next matching request is carried out (a message is created) but its answer waits for release(), or forever. */
  holdNext(method: string, path: RegExp): { arrived: Promise<void>; release(): void };
  /**
   * Until switched off (the returned function), requests that carry files answer `status` with Discord's JSON error
   * `code` and are not carried out, while the same message without files is taken: `refuseFiles(403, 50013)` for a bot
   * without Attach Files.
   */
  refuseFiles(status: number, code: number): () => void;
  /** The bytes of a file the bot attached to a message, by the attachment's id; undefined if none. */
  attachmentBytes(id: string): Buffer | undefined;
  /**
   * Closes the gateway connection: 1006 (default) tears it down with no close frame, as a network failure does, and
   * discord.js resumes at resume_gateway_url. Resolves once the client resumed (or identified again); for fatal codes
   * (4004, 4010-4014) once closed.
   */
  dropConnection(code?: number): Promise<void>;
  /** How many gateway sessions identified and how many resumes so far. */
  sessions(): { identified: number; resumed: number };
  /** The IDENTIFY payloads (`d`: intents, properties, shard…) the client sent, in order, without the token. */
  identifies(): Record<string, DiscordJson>[];
  /**
   * Limit violations in what the bot sent (refused payloads, and accepted ones Discord shows badly); empty if all
   * valid.
   */
  violations(): string[];
  /** A person's DM channel with the bot, once the bot opened it (POST /users/@me/channels); undefined before. */
  dmChannelOf(userId: string): string | undefined;
  /**
   * The person blocks the bot (or allows no DMs from the server's members): messages to their DM answer 403 with code
   * 50007 "Cannot send messages to this user", until unblocked with `false`.
   */
  blockBot(userId: string, on?: boolean): void;
  /** The account is gone (deleted): opening a DM with it answers 404 with code 10013 "Unknown User". */
  deleteUser(userId: string): void;
  close(): Promise<void>;
}

export interface InteractionOpts {
  user?: string;
  permissions?: string;
  channelId?: string;
  /** In a direct message with the bot, not the guild: no guild nor member, the DM channel (`channelId`) of type 1. */
  dm?: boolean;
}

const EPHEMERAL = 1 << 6;
const LOADING = 1 << 7;
/**
 * Flags a bot may set on a message it creates: SUPPRESS_EMBEDS, EPHEMERAL, SUPPRESS_NOTIFICATIONS, IS_COMPONENTS_V2.
 */
/** IS_COMPONENTS_V2: layout components only, no content or embeds (discord-limits.ts checks the rest). */
const COMPONENTS_V2 = 1 << 15;
const SETTABLE_FLAGS = (1 << 2) | EPHEMERAL | (1 << 12) | COMPONENTS_V2;

interface StoredMessage {
  json: Record<string, DiscordJson>;
  /** The payload as the bot sent it, merged over edits (checked as a whole after each edit). */
  body: Record<string, unknown>;
  channelId: string;
  ephemeral: boolean;
  deleted: boolean;
  createdAt: number;
  nonce?: string | number;
}

interface Interaction {
  id: string;
  token: string;
  type: number;
  name?: string;
  userId: string;
  channelId: string;
  createdAt: number;
  sourceMessageId?: string;
  callbackType?: number;
  originalId?: string;
  /** After a deferred reply (type 5), the first follow-up fills the loading message instead of adding one. */
  awaitingFirstFollowup: boolean;
  messageIds: Set<string>;
  /** The modal shown in answer (callback type 9). */
  modal?: Record<string, DiscordJson>;
  log: ResponseEntry[];
  onAutocomplete?: (choices: unknown, refused: string[]) => void;
}

const isObject = (v: unknown): v is Record<string, DiscordJson> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export async function startFakeDiscord(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
  const applicationId = options.applicationId ?? payload.DEFAULT_IDS.applicationId;
  const guildId = options.guildId ?? payload.DEFAULT_IDS.guildId;
  const channelId = options.channelId ?? payload.DEFAULT_IDS.channelId;
  const botToken = options.botToken ?? payload.DEFAULT_IDS.botToken;
  const callbackDeadlineMs = options.callbackDeadlineMs ?? 3_000;
  const nonceWindowMs = options.nonceWindowMs ?? 5 * 60_000;
  const world: payload.World = {
    applicationId,
    guildId,
    channelIds: [channelId, ...(options.extraChannelIds ?? [])],
    botUser: payload.botUser(applicationId),
    createdAt: new Date().toISOString(),
  };

  const recorded: RecordedRequest[] = [];
  const found: string[] = [];
  const faults = new Faults();
  const stored = new Map<string, StoredMessage>();
  /** DM channels opened by the bot: by user, and the users whose DMs refuse the bot or who are gone. */
  const dms = new Map<string, string>();
  const blockers = new Set<string>();
  const deletedUsers = new Set<string>();
  const userOfDm = (channel: string) => [...dms].find(([, id]) => id === channel)?.[0];
  const channelPosts = new Map<string, { id: string; body: DiscordJson; nonce?: string }[]>();
  const interactions = new Map<string, Interaction>();
  const interactionsById = new Map<string, Interaction>();
  const commandSets = new Map<string, DiscordJson[]>();
  const attachments = new Map<string, UploadedFile>();
  const fileRefusals: Answer[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let baseUrl = '';

  const gateway = new FakeGateway({
    world,
    token: botToken,
    heartbeatIntervalMs: options.heartbeatIntervalMs ?? 1_000,
    allowedIntents: options.allowedIntents ?? 0,
  });

  // ---- findings -----------------------------------------------------------------------------------------------

  /** Records what the checks found; true when Discord would refuse the payload. */
  function note(findings: Findings): boolean {
    found.push(...findings.errors, ...findings.warnings.map((w) => `${w} (accepted by Discord)`));
    return findings.errors.length > 0;
  }

  function invalidForm(findings: Findings): Answer {
    return {
      status: 400,
      body: discordError(50035, 'Invalid Form Body', {
        _errors: findings.errors.map((message) => ({ code: 'BASE_TYPE_INVALID', message })),
      }),
    };
  }

  const unknownMessage: Answer = { status: 404, body: discordError(10008, 'Unknown Message') };
  const unknownWebhook: Answer = { status: 404, body: discordError(10015, 'Unknown Webhook') };
  const unknownInteraction: Answer = { status: 404, body: discordError(10062, 'Unknown interaction') };
  const unknownChannel: Answer = { status: 404, body: discordError(10003, 'Unknown Channel') };
  const ok = (body: unknown): Answer => ({ status: 200, body });

  // ---- messages -----------------------------------------------------------------------------------------------

  function saveAttachments(files: UploadedFile[]): object[] {
    return files.map((file) => {
      const id = payload.snowflake();
      attachments.set(id, file);
      const url = `${baseUrl}/attachments/${id}/${encodeURIComponent(file.name)}`;
      return { id, filename: file.name, size: file.size, url, proxy_url: url, content_type: file.contentType };
    });
  }

  function createMessage(fields: {
    channelId: string;
    body: Record<string, unknown>;
    files: UploadedFile[];
    ephemeral: boolean;
    loading?: boolean;
    nonce?: string | number;
    interaction?: Interaction;
  }): StoredMessage {
    const sentFlags = typeof fields.body.flags === 'number' ? fields.body.flags : 0;
    const flags =
      (sentFlags & SETTABLE_FLAGS & ~EPHEMERAL) | (fields.ephemeral ? EPHEMERAL : 0) | (fields.loading ? LOADING : 0);
    const id = payload.snowflake();
    const i = fields.interaction;
    const json = payload.message(world, {
      id,
      channelId: fields.channelId,
      body: fields.body,
      flags,
      attachments: saveAttachments(fields.files),
      ...(i ? { interaction: { id: i.id, type: i.type, userId: i.userId, ...(i.name ? { name: i.name } : {}) } } : {}),
    });
    const message: StoredMessage = {
      json,
      body: { ...fields.body },
      channelId: fields.channelId,
      ephemeral: fields.ephemeral,
      deleted: false,
      createdAt: Date.now(),
      ...(fields.nonce !== undefined ? { nonce: fields.nonce } : {}),
    };
    stored.set(id, message);
    if (i) i.messageIds.add(id);
    return message;
  }

  /** An edit as Discord applies it: only the fields sent change; the result must still be a valid message. */
  function editMessage(
    message: StoredMessage,
    edit: Record<string, unknown>,
    files: UploadedFile[],
    where: string,
  ): Answer {
    const merged = { ...message.body, ...edit };
    // IS_COMPONENTS_V2 can be set by an edit, never removed: the message stays V2 whatever flags the edit sends.
    const v2 = (Number(message.json.flags) | (typeof edit.flags === 'number' ? edit.flags : 0)) & COMPONENTS_V2;
    if (v2) merged.flags = (typeof merged.flags === 'number' ? merged.flags : 0) | COMPONENTS_V2;
    const findings = checkMessage(merged, { where, files: files.length + (message.json.attachments?.length ?? 0) });
    if (typeof edit.flags === 'number' && message.json.flags & COMPONENTS_V2 && !(edit.flags & COMPONENTS_V2))
      findings.errors.push(`${where}.flags: the IS_COMPONENTS_V2 flag cannot be removed from a message`);
    if (note(findings)) return invalidForm(findings);
    if (typeof edit.flags === 'number' && Boolean(edit.flags & EPHEMERAL) !== message.ephemeral) {
      found.push(
        `${where}.flags: an edit cannot make a message ${message.ephemeral ? 'public' : 'ephemeral'}; Discord ignores the change (accepted by Discord)`,
      );
    }
    message.body = merged;
    const json = message.json;
    if ('content' in edit) json.content = typeof edit.content === 'string' ? edit.content : '';
    if ('embeds' in edit)
      json.embeds = Array.isArray(edit.embeds) ? edit.embeds.map((e) => ({ type: 'rich', ...(e as object) })) : [];
    if ('components' in edit) json.components = Array.isArray(edit.components) ? edit.components : [];
    // An edit's `attachments` lists the ones to keep (by id) besides the new files; without it, all are kept.
    const keep = Array.isArray(edit.attachments)
      ? (json.attachments as { id: string }[]).filter((a) =>
          (edit.attachments as { id?: unknown }[]).some((k) => String(k?.id) === a.id),
        )
      : json.attachments;
    json.attachments = [...keep, ...saveAttachments(files)];
    json.flags =
      (json.flags & ~LOADING) | (typeof edit.flags === 'number' ? edit.flags & (1 << 2) : json.flags & (1 << 2)) | v2;
    json.edited_timestamp = new Date().toISOString();
    return ok(json);
  }

  function checkedBody(
    req: ParsedRequest,
    where: string,
    partial = false,
  ): { body: Record<string, unknown> } | { refused: Answer } {
    if (!isObject(req.body) && !(partial && req.body === undefined)) {
      return { refused: { status: 400, body: discordError(50109, 'The request body contains invalid JSON.') } };
    }
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (partial) return { body }; // an edit is checked once merged with the message it changes
    const findings = checkMessage(body, { where, files: req.files.length });
    return note(findings) ? { refused: invalidForm(findings) } : { body };
  }

  // ---- channel messages ---------------------------------------------------------------------------------------

  function nonceProblem(nonce: unknown): string | undefined {
    if (nonce === undefined || nonce === null) return undefined;
    if (typeof nonce === 'number') return Number.isSafeInteger(nonce) ? undefined : 'must be an integer';
    if (typeof nonce !== 'string') return 'must be an integer or a string';
    return nonce.length >= 1 && nonce.length <= 25 ? undefined : 'Must be between 1 and 25 in length.';
  }

  function postChannelMessage(req: ParsedRequest, channel: string): Answer {
    const dmUser = userOfDm(channel);
    if (!world.channelIds.includes(channel) && dmUser === undefined) return unknownChannel;
    if (dmUser !== undefined && blockers.has(dmUser))
      return { status: 403, body: discordError(50007, 'Cannot send messages to this user') };
    const where = `POST /channels/${channel}/messages`;
    const checked = checkedBody(req, where);
    if ('refused' in checked) return checked.refused;
    const body = checked.body;
    const problem = nonceProblem(body.nonce);
    if (problem) {
      found.push(`${where}.nonce: ${JSON.stringify(body.nonce)} ${problem}`);
      return {
        status: 400,
        body: discordError(50035, 'Invalid Form Body', fieldError('nonce', 'BASE_TYPE_BAD_LENGTH', problem)),
      };
    }
    const reference = replyReference(channel, body.message_reference);
    if ('refused' in reference) return reference.refused;
    const nonce = body.nonce as string | number | undefined;
    if (body.enforce_nonce === true && nonce !== undefined) {
      // Discord answers a repeated nonce with the message it already created, so a retried post shows once.
      const earlier = [...stored.values()].find(
        (m) =>
          m.channelId === channel &&
          m.nonce !== undefined &&
          String(m.nonce) === String(nonce) &&
          Date.now() - m.createdAt <= nonceWindowMs,
      );
      if (earlier) return ok({ ...earlier.json, nonce: earlier.nonce });
    }
    const message = createMessage({
      channelId: channel,
      body,
      files: req.files,
      ephemeral: false,
      ...(nonce !== undefined ? { nonce } : {}),
    });
    if (reference.to) {
      // A reply (type 19), pointing at the message it answers, as Discord shows it.
      message.json.type = 19;
      message.json.message_reference = { type: 0, message_id: reference.to, channel_id: channel, guild_id: guildId };
    }
    const list = channelPosts.get(channel) ?? [];
    list.push({ id: message.json.id, body, ...(nonce !== undefined ? { nonce: String(nonce) } : {}) });
    channelPosts.set(channel, list);
    return ok({ ...message.json, ...(nonce !== undefined ? { nonce } : {}) });
  }

  /**
   * A message's `message_reference` (a reply), as Discord takes it: the id of a message of the same channel. One it does
   * not hold is refused (400, 50035 Unknown message) unless `fail_if_not_exists: false`, which posts it as a plain
   * message instead.
   */
  function replyReference(channel: string, ref: unknown): { to?: string } | { refused: Answer } {
    if (ref === undefined || ref === null) return {};
    const where = `POST /channels/${channel}/messages.message_reference`;
    const id = isObject(ref) ? ref.message_id : undefined;
    if (typeof id !== 'string' || !/^\d+$/.test(id)) {
      found.push(`${where}.message_id: ${JSON.stringify(id)} is not a snowflake`);
      return {
        refused: {
          status: 400,
          body: discordError(
            50035,
            'Invalid Form Body',
            fieldError('message_reference', 'NUMBER_TYPE_COERCE', 'Value is not snowflake.'),
          ),
        },
      };
    }
    const target = stored.get(id);
    if (target && !target.deleted && target.channelId === channel) return { to: id };
    if (isObject(ref) && ref.fail_if_not_exists === false) return {};
    return {
      refused: {
        status: 400,
        body: discordError(
          50035,
          'Invalid Form Body',
          fieldError('message_reference', 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE', 'Unknown message'),
        ),
      },
    };
  }

  /** Newest first, as Discord lists them; ephemeral messages are nobody's history. */
  function listChannelMessages(req: ParsedRequest, channel: string): Answer {
    if (!world.channelIds.includes(channel)) return unknownChannel;
    const limit = Math.min(Math.max(Number(req.query.limit ?? 50) || 50, 1), 100);
    let list = [...stored.values()].filter((m) => m.channelId === channel && !m.deleted && !m.ephemeral);
    if (req.query.before) list = list.filter((m) => BigInt(m.json.id) < BigInt(req.query.before!));
    if (req.query.after) list = list.filter((m) => BigInt(m.json.id) > BigInt(req.query.after!));
    return ok(
      list
        .reverse()
        .slice(0, limit)
        .map((m) => m.json),
    );
  }

  // ---- interactions -------------------------------------------------------------------------------------------

  function callback(req: ParsedRequest, id: string, token: string): Answer {
    const interaction = interactionsById.get(id);
    if (!interaction || interaction.token !== token) return unknownInteraction;
    const where = `interaction ${interaction.name ?? interaction.id} callback`;
    if (interaction.callbackType !== undefined) {
      found.push(`${where}: the interaction was already acknowledged (type ${interaction.callbackType})`);
      return { status: 400, body: discordError(40060, 'Interaction has already been acknowledged.') };
    }
    const late = Date.now() - interaction.createdAt;
    if (late > callbackDeadlineMs) {
      found.push(
        `${where}: answered after ${late} ms, Discord allows ${callbackDeadlineMs} ms (the user saw "The application did not respond")`,
      );
      return unknownInteraction;
    }
    const body = isObject(req.body) ? req.body : {};
    const type = body.type;
    const data = isObject(body.data) ? body.data : {};
    const ephemeral = typeof data.flags === 'number' && (data.flags & EPHEMERAL) !== 0;
    const isComponent = interaction.type === 3 || interaction.type === 5;
    const wrongType = (why: string): Answer => {
      found.push(`${where}: callback type ${String(type)} ${why}`);
      return {
        status: 400,
        body: discordError(50035, 'Invalid Form Body', fieldError('type', 'INTERACTION_RESPONSE_TYPE_INVALID', why)),
      };
    };
    let messageId: string | undefined;
    switch (type) {
      case 4: {
        const checked = checkedBody({ ...req, body: data }, `${where} (type 4)`);
        if ('refused' in checked) return checked.refused;
        const message = createMessage({
          channelId: interaction.channelId,
          body: checked.body,
          files: req.files,
          ephemeral,
          interaction,
        });
        messageId = interaction.originalId = message.json.id;
        break;
      }
      case 5: {
        const message = createMessage({
          channelId: interaction.channelId,
          body: {},
          files: [],
          ephemeral,
          loading: true,
          interaction,
        });
        messageId = interaction.originalId = message.json.id;
        interaction.awaitingFirstFollowup = true;
        break;
      }
      case 6:
      case 7: {
        if (!isComponent || !interaction.sourceMessageId) return wrongType('is only for component interactions');
        messageId = interaction.originalId = interaction.sourceMessageId;
        interaction.messageIds.add(messageId);
        if (type === 7) {
          const source = stored.get(messageId)!;
          const answer = editMessage(source, data, req.files, `${where} (type 7)`);
          if (answer.status !== 200) return answer;
        }
        break;
      }
      case 8: {
        if (interaction.type !== 4) return wrongType('is only for autocomplete interactions');
        const findings = checkChoices(data.choices, `${where} (type 8)`);
        const refused = note(findings);
        interaction.onAutocomplete?.(data.choices, findings.errors);
        if (refused) return invalidForm(findings);
        break;
      }
      case 9: {
        if (interaction.type === 4 || interaction.type === 5)
          return wrongType('cannot answer this interaction with a modal');
        const findings = checkModal(data, `${where} (type 9)`);
        if (note(findings)) return invalidForm(findings);
        interaction.modal = data;
        break;
      }
      default:
        return wrongType('is not a callback type a bot may send');
    }
    interaction.callbackType = type as number;
    const stayed = messageId ? stored.get(messageId) : undefined;
    interaction.log.push({
      kind: 'callback',
      type: type as number,
      body: data,
      ...(messageId ? { messageId } : {}),
      ephemeral: stayed?.ephemeral ?? ephemeral,
    });
    if (req.query.with_response !== 'true') return { status: 204 };
    return ok({
      interaction: {
        id: interaction.id,
        type: interaction.type,
        activity_instance_id: null,
        response_message_id: messageId ?? null,
        response_message_loading: type === 5,
        response_message_ephemeral: stayed?.ephemeral ?? false,
      },
      ...(stayed ? { resource: { type, message: stayed.json } } : {}),
    });
  }

  function webhookInteraction(appId: string, token: string): Interaction | undefined {
    return appId === applicationId ? interactions.get(token) : undefined;
  }

  function followUp(req: ParsedRequest, appId: string, token: string): Answer {
    const interaction = webhookInteraction(appId, token);
    if (!interaction) return unknownWebhook;
    const where = `follow-up to ${interaction.name ?? interaction.id}`;
    if (interaction.callbackType === undefined) {
      found.push(`${where}: sent before the interaction was acknowledged (Discord answers Unknown Webhook)`);
      return unknownWebhook;
    }
    const checked = checkedBody(req, where, true); // checked below, whole, as a new message or filling the deferred one
    if ('refused' in checked) return checked.refused;
    const body = checked.body;
    const wantsEphemeral = typeof body.flags === 'number' && (body.flags & EPHEMERAL) !== 0;
    const original = interaction.originalId ? stored.get(interaction.originalId) : undefined;
    let message: StoredMessage;
    if (interaction.awaitingFirstFollowup && original && !original.deleted && original.json.flags & LOADING) {
      // The first follow-up after a deferred reply fills the "thinking" message and keeps the defer's visibility.
      if (wantsEphemeral !== original.ephemeral) {
        found.push(
          `${where}: asked to be ${wantsEphemeral ? 'ephemeral' : 'public'} but fills the deferred reply, which is ${original.ephemeral ? 'ephemeral' : 'public'} (accepted by Discord)`,
        );
      }
      const answer = editMessage(original, body, req.files, where);
      if (answer.status !== 200) return answer;
      message = original;
    } else {
      const findings = checkMessage(body, { where, files: req.files.length });
      if (note(findings)) return invalidForm(findings);
      message = createMessage({
        channelId: interaction.channelId,
        body,
        files: req.files,
        ephemeral: wantsEphemeral,
        interaction,
      });
    }
    interaction.awaitingFirstFollowup = false;
    interaction.log.push({ kind: 'followup', body, messageId: message.json.id, ephemeral: message.ephemeral });
    return req.query.wait === 'true' ? ok(message.json) : { status: 204 };
  }

  function webhookMessage(req: ParsedRequest, appId: string, token: string, messageRef: string): Answer {
    const interaction = webhookInteraction(appId, token);
    if (!interaction) return unknownWebhook;
    const id = messageRef === '@original' ? interaction.originalId : messageRef;
    const message = id && interaction.messageIds.has(id) ? stored.get(id) : undefined;
    if (!message || message.deleted) return unknownMessage;
    if (req.method === 'GET') return ok(message.json);
    if (req.method === 'DELETE') {
      message.deleted = true;
      interaction.log.push({ kind: 'delete', body: {}, messageId: id!, ephemeral: message.ephemeral });
      return { status: 204 };
    }
    const checked = checkedBody(req, `edit of ${messageRef} for ${interaction.name ?? interaction.id}`, true);
    if ('refused' in checked) return checked.refused;
    const answer = editMessage(
      message,
      checked.body,
      req.files,
      `edit of ${messageRef} for ${interaction.name ?? interaction.id}`,
    );
    if (answer.status !== 200) return answer;
    if (id === interaction.originalId) interaction.awaitingFirstFollowup = false;
    interaction.log.push({ kind: 'edit', body: checked.body, messageId: id!, ephemeral: message.ephemeral });
    return answer;
  }

  // ---- application commands -----------------------------------------------------------------------------------

  function commandScope(scope: string): DiscordJson[] {
    return commandSets.get(scope) ?? [];
  }

  function withIds(
    command: Record<string, DiscordJson>,
    scope: string,
    existing: DiscordJson[],
  ): Record<string, DiscordJson> {
    const same = existing.find((c) => c.name === command.name && (c.type ?? 1) === (command.type ?? 1));
    return {
      type: 1,
      default_member_permissions: null,
      nsfw: false,
      contexts: null,
      integration_types: [0],
      ...command,
      id: same?.id ?? payload.snowflake(),
      application_id: applicationId,
      version: payload.snowflake(),
      ...(scope === 'global' ? {} : { guild_id: scope }),
    };
  }

  function commandsRoute(req: ParsedRequest, scope: string, commandId?: string): Answer {
    if (scope !== 'global' && scope !== guildId) return { status: 403, body: discordError(50001, 'Missing Access') };
    const existing = commandScope(scope);
    const where = `${req.method} ${scope === 'global' ? '' : `guild ${scope} `}commands`;
    if (commandId !== undefined) {
      const command = existing.find((c) => c.id === commandId);
      if (!command) return { status: 404, body: discordError(10063, 'Unknown application command') };
      if (req.method === 'DELETE') {
        commandSets.set(
          scope,
          existing.filter((c) => c !== command),
        );
        return { status: 204 };
      }
      return ok(command);
    }
    if (req.method === 'GET') return ok(existing);
    const list = req.method === 'PUT' ? req.body : [req.body];
    const findings = checkCommands(list, where);
    if (note(findings)) return invalidForm(findings);
    const commands = (list as Record<string, DiscordJson>[]).map((c) => withIds(c, scope, existing));
    if (req.method === 'PUT') {
      commandSets.set(scope, commands);
      return ok(commands);
    }
    const created = commands[0]!;
    commandSets.set(scope, [...existing.filter((c) => c.id !== created.id), created]);
    return { status: existing.some((c) => c.id === created.id) ? 200 : 201, body: created };
  }

  // ---- routing ------------------------------------------------------------------------------------------------

  const application = () => ({
    id: applicationId,
    name: 'Manzil',
    icon: null,
    description: 'The UAE property market in chat',
    summary: '',
    type: null,
    bot_public: true,
    bot_require_code_grant: false,
    verify_key: '0'.repeat(64),
    flags: 0,
    team: null,
    bot: world.botUser,
    owner: payload.humanUser('1180000000000000099'),
  });

  type Route = { method: string; pattern: RegExp; auth: boolean; handle: (req: ParsedRequest, m: string[]) => Answer };
  const routes: Route[] = [
    {
      method: 'GET',
      pattern: /^\/gateway\/bot$/,
      auth: true,
      handle: () =>
        ok({
          url: gateway.url,
          shards: 1,
          session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
        }),
    },
    { method: 'GET', pattern: /^\/gateway$/, auth: false, handle: () => ok({ url: gateway.url }) },
    { method: 'GET', pattern: /^\/users\/@me$/, auth: true, handle: () => ok(world.botUser) },
    {
      method: 'POST',
      pattern: /^\/users\/@me\/channels$/,
      auth: true,
      handle: (req) => {
        const recipient = String((req.body as { recipient_id?: unknown } | undefined)?.recipient_id ?? '');
        if (!/^\d{1,25}$/.test(recipient) || deletedUsers.has(recipient))
          return { status: 404, body: discordError(10013, 'Unknown User') };
        // Discord answers the same DM channel for the same person every time (blocked or not: sending is refused).
        const id = dms.get(recipient) ?? payload.snowflake();
        dms.set(recipient, id);
        return ok({
          id,
          type: 1,
          last_message_id: null,
          recipients: [{ id: recipient, username: `user${recipient}` }],
        });
      },
    },
    { method: 'GET', pattern: /^\/(?:oauth2\/)?applications\/@me$/, auth: true, handle: () => ok(application()) },
    {
      method: 'POST',
      pattern: /^\/interactions\/([^/]+)\/([^/]+)\/callback$/,
      auth: false,
      handle: (req, m) => callback(req, m[1]!, m[2]!),
    },
    {
      method: 'POST',
      pattern: /^\/webhooks\/([^/]+)\/([^/]+)$/,
      auth: false,
      handle: (req, m) => followUp(req, m[1]!, m[2]!),
    },
    ...['GET', 'PATCH', 'DELETE'].map((method) => ({
      method,
      pattern: /^\/webhooks\/([^/]+)\/([^/]+)\/messages\/([^/]+)$/,
      auth: false,
      handle: (req: ParsedRequest, m: string[]) => webhookMessage(req, m[1]!, m[2]!, m[3]!),
    })),
    {
      method: 'GET',
      pattern: /^\/channels\/(\d+)$/,
      auth: true,
      handle: (_req, m) => {
        const index = world.channelIds.indexOf(m[1]!);
        return index < 0 ? unknownChannel : ok(payload.textChannel(world, m[1]!, index));
      },
    },
    {
      method: 'POST',
      pattern: /^\/channels\/(\d+)\/messages$/,
      auth: true,
      handle: (req, m) => postChannelMessage(req, m[1]!),
    },
    {
      method: 'GET',
      pattern: /^\/channels\/(\d+)\/messages$/,
      auth: true,
      handle: (req, m) => listChannelMessages(req, m[1]!),
    },
    ...['GET', 'PATCH', 'DELETE'].map((method) => ({
      method,
      pattern: /^\/channels\/(\d+)\/messages\/(\d+)$/,
      auth: true,
      handle: (req: ParsedRequest, m: string[]) => {
        const message = stored.get(m[2]!);
        if (!message || message.deleted || message.ephemeral || message.channelId !== m[1]) return unknownMessage;
        if (req.method === 'GET') return ok(message.json);
        if (req.method === 'DELETE') {
          message.deleted = true;
          return { status: 204 };
        }
        const checked = checkedBody(req, `PATCH /channels/${m[1]}/messages/${m[2]}`, true);
        return 'refused' in checked
          ? checked.refused
          : editMessage(message, checked.body, req.files, `PATCH /channels/${m[1]}/messages/${m[2]}`);
      },
    })),
    {
      method: 'GET',
      pattern: /^\/guilds\/(\d+)$/,
      auth: true,
      handle: (_req, m) =>
        m[1] === guildId ? ok(payload.guild(world)) : { status: 404, body: discordError(10004, 'Unknown Guild') },
    },
    ...['GET', 'PUT', 'POST'].flatMap((method) => [
      {
        method,
        pattern: /^\/applications\/(\d+)\/commands$/,
        auth: true,
        handle: (req: ParsedRequest, m: string[]) => appGuard(m[1]!) ?? commandsRoute(req, 'global'),
      },
      {
        method,
        pattern: /^\/applications\/(\d+)\/guilds\/(\d+)\/commands$/,
        auth: true,
        handle: (req: ParsedRequest, m: string[]) => appGuard(m[1]!) ?? commandsRoute(req, m[2]!),
      },
    ]),
    ...['GET', 'DELETE'].flatMap((method) => [
      {
        method,
        pattern: /^\/applications\/(\d+)\/commands\/(\d+)$/,
        auth: true,
        handle: (req: ParsedRequest, m: string[]) => appGuard(m[1]!) ?? commandsRoute(req, 'global', m[2]!),
      },
      {
        method,
        pattern: /^\/applications\/(\d+)\/guilds\/(\d+)\/commands\/(\d+)$/,
        auth: true,
        handle: (req: ParsedRequest, m: string[]) => appGuard(m[1]!) ?? commandsRoute(req, m[2]!, m[3]!),
      },
    ]),
  ];

  function appGuard(appId: string): Answer | undefined {
    return appId === applicationId
      ? undefined
      : { status: 403, body: discordError(20012, 'You are not authorized to perform this action on this application') };
  }

  function route(req: ParsedRequest): Answer {
    const matching = routes.filter((r) => r.pattern.test(req.path));
    if (matching.length === 0) return { status: 404, body: discordError(0, '404: Not Found') };
    const chosen = matching.find((r) => r.method === req.method);
    if (!chosen) return { status: 405, body: discordError(0, '405: Method Not Allowed') };
    if (chosen.auth && req.authorization !== `Bot ${botToken}`)
      return { status: 401, body: discordError(0, '401: Unauthorized') };
    const injected = faults.takeAnswer(req.method, req.path);
    if (injected) return injected;
    if (req.files.length > 0) {
      if (fileRefusals[0]) return fileRefusals[0];
      const size = req.files.reduce((n, f) => n + f.size, 0);
      if (size > (options.attachmentSizeLimit ?? 10_485_760))
        return { status: 413, body: discordError(40005, 'Request entity too large') };
    }
    return chosen.handle(req, chosen.pattern.exec(req.path)!.slice(0));
  }

  async function handleApi(httpReq: IncomingMessage, res: ServerResponse): Promise<void> {
    let req: ParsedRequest;
    try {
      req = await parseRequest(httpReq, '/api/v10');
    } catch (e) {
      if (e instanceof BadBody) return send(res, 400, discordError(50109, 'The request body contains invalid JSON.'));
      throw e;
    }
    const answer = route(req);
    recorded.push({
      method: req.method,
      path: req.path,
      query: req.query,
      body: req.body,
      at: Date.now(),
      status: answer.status,
      ...(req.files.length ? { files: req.files.map((f) => ({ field: f.field, name: f.name, size: f.size })) } : {}),
    });
    const reply = () => send(res, answer.status, answer.body, answer.headers);
    const hold = faults.takeHold(req.method, req.path);
    if (hold) hold(reply);
    else reply();
  }

  function serveAttachment(path: string, res: ServerResponse): void {
    const file = attachments.get(/^\/attachments\/(\d+)\//.exec(path)?.[1] ?? '');
    if (!file) return send(res, 404, discordError(0, '404: Not Found'));
    res.writeHead(200, { 'content-type': file.contentType || 'application/octet-stream' }).end(file.data);
  }

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path.startsWith('/api/v10/')) {
      handleApi(req, res).catch((e: unknown) => send(res, 500, discordError(0, `fake Discord failed: ${String(e)}`)));
    } else if (path.startsWith('/attachments/')) serveAttachment(path, res);
    else if (path.startsWith('/api/')) send(res, 400, discordError(50041, 'Invalid API version provided.'));
    else send(res, 404, discordError(0, '404: Not Found'));
  });
  server.on('upgrade', (req, socket, head) => gateway.handleUpgrade(req, socket, head));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  baseUrl = `http://127.0.0.1:${port}`;
  gateway.url = `ws://127.0.0.1:${port}`;

  // ---- dispatching interactions -------------------------------------------------------------------------------

  function newInteraction(
    type: number,
    name: string | undefined,
    opts: InteractionOpts,
    extra: { data: object; message?: StoredMessage },
  ): Interaction {
    const id = payload.snowflake();
    const token = `fake-itoken.${id}.${randomBytes(24).toString('base64url')}`;
    const interaction: Interaction = {
      id,
      token,
      type,
      userId: opts.user ?? payload.DEFAULT_IDS.userId,
      channelId: extra.message?.channelId ?? opts.channelId ?? channelId,
      createdAt: Date.now(),
      awaitingFirstFollowup: false,
      messageIds: new Set(),
      log: [],
      ...(name ? { name } : {}),
      ...(extra.message ? { sourceMessageId: extra.message.json.id } : {}),
    };
    interactions.set(token, interaction);
    interactionsById.set(id, interaction);
    gateway.dispatch(
      'INTERACTION_CREATE',
      payload.interaction(world, {
        id,
        token,
        type,
        data: extra.data,
        userId: interaction.userId,
        permissions: opts.permissions ?? '0',
        channelId: interaction.channelId,
        ...(opts.dm ? { dm: true } : {}),
        ...(extra.message ? { message: extra.message.json } : {}),
      }),
    );
    return interaction;
  }

  /** A command's id: the registered one (guild first), else a stable made-up one, as if registered. */
  const madeUpCommandIds = new Map<string, string>();
  function commandData(name: string, options: unknown[]): object {
    const registered = [...commandScope(guildId), ...commandScope('global')].find(
      (c) => c.name === name && (c.type ?? 1) === 1,
    );
    if (!madeUpCommandIds.has(name)) madeUpCommandIds.set(name, payload.snowflake());
    return {
      id: registered?.id ?? madeUpCommandIds.get(name),
      name,
      type: 1,
      options,
      ...(registered?.guild_id ? { guild_id: registered.guild_id } : {}),
    };
  }

  /** Marks the last leaf option focused when the caller did not say which one the user is typing in. */
  function withFocus(options: unknown[]): unknown[] {
    const hasFocus = (list: unknown[]): boolean =>
      list.some((o) => isObject(o) && (o.focused === true || (Array.isArray(o.options) && hasFocus(o.options))));
    if (hasFocus(options)) return options;
    const copy = structuredClone(options);
    let list = copy;
    for (;;) {
      const last = list[list.length - 1];
      if (!isObject(last)) break;
      if (Array.isArray(last.options) && last.options.length > 0 && (last.type === 1 || last.type === 2)) {
        list = last.options;
        continue;
      }
      last.focused = true;
      break;
    }
    return copy;
  }

  function findMessage(ref: { id: string; channelId?: string; channel_id?: string }): StoredMessage {
    const byToken = interactions.get(ref.id);
    const id = byToken ? byToken.originalId : ref.id;
    const message = id ? stored.get(id) : undefined;
    if (!message || message.deleted) throw new Error(`fake Discord: no message ${ref.id} to click on`);
    return message;
  }

  function findButton(components: unknown, customId: string): Record<string, DiscordJson> | undefined {
    if (!Array.isArray(components)) return undefined;
    for (const component of components) {
      if (!isObject(component)) continue;
      if (component.type === 2 && component.custom_id === customId) return component;
      const inner =
        findButton(component.components, customId) ??
        (isObject(component.accessory) ? findButton([component.accessory], customId) : undefined);
      if (inner) return inner;
    }
    return undefined;
  }

  function customIds(components: unknown): string[] {
    if (!Array.isArray(components)) return [];
    return components.flatMap((c) =>
      isObject(c) ? [...(typeof c.custom_id === 'string' ? [c.custom_id] : []), ...customIds(c.components)] : [],
    );
  }

  return {
    apiUrl: `${baseUrl}/api`,
    gatewayUrl: gateway.url,
    applicationId,
    guildId,
    channelId,
    botToken,
    ready: () => gateway.ready(),
    async slashCommand(name, options = [], opts = {}) {
      const interaction = newInteraction(2, name, opts, { data: commandData(name, options) });
      return { id: interaction.id, token: interaction.token };
    },
    autocomplete(name, options, timeoutMs = 3_000, opts = {}) {
      return new Promise((resolve, reject) => {
        const started = Date.now();
        const timer = setTimeout(() => {
          timers.delete(timer);
          reject(new Error(`fake Discord: no autocomplete answer for /${name} within ${timeoutMs} ms`));
        }, timeoutMs);
        timers.add(timer);
        const interaction = newInteraction(4, name, opts, { data: commandData(name, withFocus(options)) });
        interaction.onAutocomplete = (choices, refused) => {
          clearTimeout(timer);
          timers.delete(timer);
          if (refused.length) reject(new Error(`fake Discord refused the autocomplete answer: ${refused.join('; ')}`));
          else resolve({ choices: choices as { name: string; value: string }[], ms: Date.now() - started });
        };
      });
    },
    async clickButton(customId, ref, opts = {}) {
      const message = findMessage(ref);
      const button = findButton(message.json.components, customId);
      if (!button)
        throw new Error(
          `fake Discord: message ${message.json.id} has no button ${customId} (it has: ${customIds(message.json.components).join(', ') || 'none'})`,
        );
      if (button.disabled === true) throw new Error(`fake Discord: button ${customId} is disabled`);
      const interaction = newInteraction(3, undefined, opts, {
        data: { custom_id: customId, component_type: 2 },
        message,
      });
      return { id: interaction.id, token: interaction.token };
    },
    modal: (token) => interactions.get(token)?.modal,
    async submitModal(token, input, opts = {}) {
      const shown = interactions.get(token);
      if (!shown?.modal) throw new Error('fake Discord: no modal was shown in answer to that interaction');
      const source = shown.sourceMessageId ? stored.get(shown.sourceMessageId) : undefined;
      const interaction = newInteraction(
        5,
        undefined,
        { user: shown.userId, channelId: shown.channelId, ...opts },
        {
          data: modalSubmission(shown.modal, input),
          ...(source ? { message: source } : {}),
        },
      );
      return { id: interaction.id, token: interaction.token };
    },
    responses: (token) => [...(interactions.get(token)?.log ?? [])],
    original(token) {
      const interaction = interactions.get(token);
      const message = interaction?.originalId ? stored.get(interaction.originalId) : undefined;
      return message && !message.deleted ? message.json : undefined;
    },
    messages: (channel) =>
      channel === undefined ? [...channelPosts.values()].flat() : [...(channelPosts.get(channel) ?? [])],
    message(id) {
      const message = stored.get(id);
      return message && !message.deleted ? message.json : undefined;
    },
    commands: (scope) => [...commandScope(scope ?? 'global')],
    requests: () => [...recorded],
    async waitFor(predicate, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      while (!(await predicate())) {
        if (Date.now() > deadline) throw new Error(`fake Discord: condition not met within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    rateLimitNext(method, path, seconds, opts = {}) {
      faults.rateLimit(method, path, seconds, opts.retryAfterSeconds ?? seconds, opts.times ?? 1, opts.global ?? false);
    },
    failNext(method, path, status, times = 1) {
      faults.fail(method, path, status, times);
    },
    failUntilOff: (method, path, status, code) => faults.failUntilOff(method, path, status, code),
    holdNext: (method, path) => faults.hold(method, path),
    refuseFiles(status, code) {
      const answer: Answer = { status, body: discordError(code, `Discord error ${code}`) };
      fileRefusals.push(answer);
      return () => {
        const i = fileRefusals.indexOf(answer);
        if (i >= 0) fileRefusals.splice(i, 1);
      };
    },
    attachmentBytes: (id) => attachments.get(id)?.data,
    dropConnection: (code = 1006) => gateway.drop(code),
    sessions: () => gateway.stats(),
    identifies: () => gateway.identifies(),
    violations: () => [...found],
    dmChannelOf: (userId) => dms.get(userId),
    blockBot(userId, on = true) {
      if (on) blockers.add(userId);
      else blockers.delete(userId);
    },
    deleteUser(userId) {
      deletedUsers.add(userId);
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      faults.releaseAll();
      await gateway.close();
      await new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
