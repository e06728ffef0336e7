// A fake Slack Web API on 127.0.0.1: answers what @slack/web-api sends, records every call, refuses blocks
// Slack would refuse, can answer 429 with Retry-After, and serves response_urls. It keeps what was posted with
// chat.postMessage per channel (metadata included) for conversations.history, and replies in threads (`thread_ts`:
// refused with `thread_not_found` when it names no message the channel holds; listed by conversations.replies, not by
// the channel's history unless broadcast), knows a table of users for users.info,
// and can accept a call but hold its answer, as when the network drops it or Manzil crashes mid-post. Outages: every
// call answering one HTTP status, connections refused, every token refused (`invalid_auth`), until switched off.
// Files upload v2: files.getUploadURLExternal gives an upload URL on the fake itself, the POST there stores the bytes,
// files.completeUploadExternal completes the file; a message's image block whose `slack_file` is unknown, incomplete or
// still processing is refused (`invalid_blocks`), as Slack does. Uploads are kept (bytes included) for tests.
import { fakeViews, type FakeView } from './slack-views.js';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkSlackHomeView, checkSlackMessage } from './slack-limits.js';

export interface SlackCall {
  method: string;
  /** The arguments, with JSON-encoded form values (`blocks`, `attachments`...) parsed. */
  args: Record<string, unknown>;
  /** From `Authorization: Bearer` or the `token` field. */
  token: string | undefined;
  /** What the fake answered. */
  status: number;
  response: unknown;
}

export interface ResponseAttempt {
  id: string;
  payload: unknown;
  accepted: boolean;
  errors: string[];
}

export interface FailAnswer {
  /** HTTP status; 429 (with Retry-After) unless only `error` is given. */
  status?: number;
  /** Seconds, sent as Retry-After with a 429; default 1. */
  retryAfter?: number;
  /** Answer HTTP 200 `{ ok: false, error }`, as Slack does for most failures. */
  error?: string;
  /**
   * Carry the call out first (a message is posted and kept for history), then answer the failure: Slack's
   * `internal_error` after it stored the message. Default false: the call fails before Slack acts on it.
   */
  carryOut?: boolean;
}

/** What users.info says about a person; unknown people are plain members of T0TEST. */
export interface FakeUser {
  is_admin?: boolean;
  is_owner?: boolean;
  team_id?: string;
  name?: string;
  /**
   * Why the app cannot write to this person, as conversations.open answers it: `user_disabled` (deactivated, left the
   * workspace), `user_not_found`, `cannot_dm_bot`; chat.postMessage to their DM opened before answers
   * `channel_not_found`. Unset: the DM opens.
   */
  dmRefused?: string;
}

/** A message as conversations.history returns it. */
export interface FakeMessage {
  type: 'message';
  ts: string;
  text: unknown;
  blocks?: unknown;
  user: string;
  bot_id: string;
  metadata?: { event_type: string; event_payload: unknown };
  /** A reply: the ts of the message whose thread it is in. */
  thread_ts?: string;
  /** A reply also shown in the channel. */
  reply_broadcast?: boolean;
}

/** A file of the upload v2 flow, as the fake holds it. */
export interface FakeUpload {
  id: string;
  /** As given to files.getUploadURLExternal. */
  filename: string;
  length: number;
  altText?: string;
  /** The bytes POSTed to the upload URL; undefined until then. */
  bytes?: Buffer;
  /** Set by files.completeUploadExternal. */
  complete: boolean;
  title?: string;
  /** The channel it was shared to on completion; undefined for a private file. */
  channelId?: string;
}

/** An upload POST held before the fake stores its bytes (a client mid-upload). */
export interface HeldUpload {
  /** Resolves once the POST has arrived (its body read). */
  arrived: Promise<void>;
  /** Stores the bytes and answers, as if the network had only been slow. */
  release(): void;
  /** Drops the connection without storing anything: the client died mid-upload. */
  abandon(): void;
}

/** A call whose answer is held back. */
export interface HeldCall {
  /** Resolves once the call has arrived (and, for chat.postMessage, the message was posted). */
  arrived: Promise<SlackCall>;
  /** Sends the answer the call would have had. */
  release(): void;
}

export interface FakeSlack {
  /** For `clientOptions.slackApiUrl`; ends with `/api/`. */
  apiUrl: string;
  baseUrl: string;
  calls: SlackCall[];
  callsTo(method: string): SlackCall[];
  /** A response_url served by this fake; a fresh one unless `id` is given. */
  responseUrl(id?: string): string;
  /** Payloads accepted at response_urls (what people saw), for one id or all. */
  responses(id?: string): unknown[];
  /** Every payload posted to response_urls, refused ones included. */
  responseAttempts(id?: string): ResponseAttempt[];
  /** The next `times` calls to `method` fail; `response_url` as the method fails response_url posts. */
  failNext(method: string, answer: FailAnswer, times?: number): void;
  /**
   * The next call to `method` is carried out (a message is posted) but its answer is held until released, or forever.
   * With `carryOut: false` the call is held before Slack acts on it: as a post that never reached Slack.
   * `response_url` holds the answer to the next post to a response_url (carried out only).
   */
  holdNext(method: string, options?: { carryOut?: boolean }): HeldCall;
  /** Sets what users.info answers for a person. */
  setUser(id: string, user: FakeUser): void;
  /** Calls to `method` answer `missing_scope` (the app was installed without the scope) until switched off. */
  missingScope(method: string, on?: boolean): void;
  /** What chat.postMessage posted to a channel, oldest first, replies in threads included (`thread_ts` set). */
  messages(channel: string): FakeMessage[];
  /** Every Home tab view views.publish accepted for a person of a workspace, oldest first (the last is shown). */
  homeViews(teamId: string, user: string): { type: string; blocks: unknown[] }[];
  /**
   * Every file of the upload v2 flow, in the order their upload URLs were given (`failNext('upload', …)` fails a POST
   * of bytes).
   */
  uploads(): FakeUpload[];
  /** The next POST of bytes to an upload URL is held before its bytes are stored, until released or abandoned. */
  holdUpload(): HeldUpload;
  /** Files completed from now on can be shown in a message only `ms` later (Slack processes uploads); default 0. */
  fileProcessing(ms: number): void;
  /**
   * Every Web API call answers this HTTP status (a 503 outage, say; 429 with Retry-After `retryAfter` s, default 1) and
   * is not carried out, until switched off with `undefined`. Calls are still recorded.
   */
  outage(status: number | undefined, options?: { retryAfter?: number }): void;
  /**
   * Refuses connections (the listening socket is closed and open connections destroyed: callers get ECONNREFUSED) until
   * switched off, when it listens again on the same port. Resolves once done.
   */
  refuseConnections(on?: boolean): Promise<void>;
  /** Every Web API call, auth.test included, answers `invalid_auth` whatever its token, until switched off. */
  refuseAuth(on?: boolean): void;
  /**
   * Add to Slack: a person of `teamId` approves the app on Slack's authorize page; the code Slack then hands to the
   * app's redirect URL (exchanged once by oauth.v2.access for a bot token of that workspace). `grid`: a workspace of an
   * Enterprise Grid org (oauth.v2.access names its enterprise), or with `orgWide` the whole org (`team: null`,
   * `is_enterprise_install: true`; the token is the enterprise's: `tokenOf(enterpriseId)`).
   */
  approve(teamId: string, teamName?: string, user?: string, grid?: FakeGrid): string;
  /** The workspace's bot tokens stop working (the app removed, or its token revoked). */
  revokeWorkspace(teamId: string): void;
  /** The bot token of a workspace, the latest given; undefined when it has none. */
  tokenOf(teamId: string): string | undefined;
  /**
   * The scopes auth.test reports in X-OAuth-Scopes (default: what the manifest asks for); undefined sends no header.
   */
  grantScopes(scopes: string[] | undefined): void;
  waitFor(predicate: () => boolean | Promise<boolean>, timeoutMs?: number): Promise<void>;
  reset(): void;
  /** A fresh trigger_id for an interaction a test sends: valid once, for 3 s (slack-views.ts). */
  trigger(): string;
  /** Every view opened, updated or pushed, oldest first. */
  views(): FakeView[];
  close(): Promise<void>;
}

/** An Enterprise Grid org in an approval. */
export interface FakeGrid {
  enterpriseId: string;
  enterpriseName?: string;
  /** Installed on the whole org rather than on the workspace. */
  orgWide?: boolean;
}

export interface FakeSlackOptions {
  /** The bot token the fake accepts; default `xoxb-test`. */
  token?: string;
  /** The app-level token for Socket Mode; default `xapp-test`. */
  appToken?: string;
  /** What `apps.connections.open` answers as the WebSocket URL (a fake Socket Mode server). */
  socketModeUrl?: string;
  /** Every request is handled this long after it arrived, as over a real network (the benchmarks); default 0. */
  latencyMs?: number;
  /**
   * Slack's clock for message ts (and so for `oldest` in conversations.history): a test's fake clock; Date.now by
   * default.
   */
  clock?: () => number;
  /** Add to Slack: the app's credentials that oauth.v2.access checks. */
  oauth?: { clientId: string; clientSecret: string };
}

/** What the app's manifest asks for, as auth.test reports it. */
export const DEFAULT_SLACK_SCOPES = [
  'commands',
  'chat:write',
  'channels:history',
  'groups:history',
  'im:history',
  'mpim:history',
  'users:read',
  'files:write',
  'im:write',
];

/** The file methods of the upload v2 flow: they need `files:write` among the granted scopes. */
const FILE_METHODS = new Set(['files.getUploadURLExternal', 'files.completeUploadExternal']);

/** The scope each history-like method needs, for missing_scope answers. */
const SCOPE_OF: Record<string, string> = {
  'conversations.history': 'channels:history,groups:history,im:history,mpim:history',
  'conversations.replies': 'channels:history,groups:history,im:history,mpim:history',
  'users.info': 'users:read',
  'conversations.open': 'im:write',
};

/** Form fields that @slack/web-api JSON-encodes because their values are objects or arrays. */
const JSON_FIELDS = new Set(['blocks', 'attachments', 'metadata', 'view', 'unfurls', 'user_auth_blocks', 'files']);
/** Methods that post or edit a message: their payloads are checked like Slack checks them. */
const MESSAGE_METHODS = new Set(['chat.postMessage', 'chat.update', 'chat.postEphemeral', 'chat.scheduleMessage']);

async function readBody(req: IncomingMessage): Promise<string> {
  return (await readRawBody(req)).toString('utf8');
}

async function readRawBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The bytes of an upload: the raw body, or the first file of a multipart body (both are what Slack takes). */
async function uploadedBytes(raw: Buffer, contentType: string | undefined): Promise<Buffer> {
  if (!contentType?.startsWith('multipart/form-data')) return raw;
  const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
  for (const value of form.values()) if (typeof value !== 'string') return Buffer.from(await value.arrayBuffer());
  return Buffer.alloc(0);
}

const isJsonObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Top-level image blocks that show a Slack file, with `image_url` standing in for `slack_file` so that the Block Kit
 * check (slack-limits.ts, which knows image URLs only) checks the rest of them; the files are checked by the fake.
 */
function withFilesAsUrls(blocks: unknown): unknown {
  if (!Array.isArray(blocks)) return blocks;
  return blocks.map((b: unknown) => {
    if (!isJsonObject(b) || b.type !== 'image' || b.slack_file === undefined || b.image_url !== undefined) return b;
    const { slack_file: _file, ...rest } = b;
    return { ...rest, image_url: 'https://files.slack.com/files-pri/fake/chart.png' };
  });
}

function parseArgs(body: string, contentType: string | undefined): Record<string, unknown> {
  if (contentType?.startsWith('application/json')) {
    const parsed: unknown = body ? JSON.parse(body) : {};
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  }
  const args: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    if (!JSON_FIELDS.has(key)) {
      args[key] = value;
      continue;
    }
    try {
      args[key] = JSON.parse(value);
    } catch {
      args[key] = value; // Slack would say invalid_blocks_format; the check below reports it as not an array.
    }
  }
  return args;
}

/** A request handler that starts `ms` after each request arrived (at once when 0 or unset). */
function delayed(ms: number | undefined, handle: (req: IncomingMessage, res: ServerResponse) => void) {
  return ms ? (req: IncomingMessage, res: ServerResponse) => void setTimeout(() => handle(req, res), ms) : handle;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const type = typeof body === 'string' ? 'text/plain' : 'application/json; charset=utf-8';
  res.writeHead(status, { 'content-type': type, ...headers }).end(text);
}

export async function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const token = options.token ?? 'xoxb-test';
  // Add to Slack: each workspace's bot token, the default one's first; codes Slack gave out at the approval, not yet
  // used.
  // An org-wide install's token is kept under its enterprise id as teamId.
  const workspaces = new Map<string, { teamId: string; teamName: string; enterpriseId?: string }>([
    [token, { teamId: 'T0TEST', teamName: 'Manzil Test' }],
  ]);
  const codes = new Map<string, { teamId: string; teamName: string; user: string; grid?: FakeGrid | undefined }>();
  let issued = 0;
  const calls: SlackCall[] = [];
  const attempts: ResponseAttempt[] = [];
  const failures = new Map<string, FailAnswer[]>();
  const holds = new Map<string, ((call: SlackCall, flush: () => void) => void)[]>();
  const notCarriedOut = new Map<string, ((call: SlackCall, flush: () => void) => void)[]>();
  const held = new Set<() => void>();
  const users = new Map<string, FakeUser>();
  const scopesMissing = new Set<string>();
  const posted = new Map<string, FakeMessage[]>();
  /** views.publish's accepted views, by `team:user`. */
  const homes = new Map<string, { type: string; blocks: unknown[] }[]>();
  const modals = fakeViews(options.clock);
  const uploads = new Map<string, FakeUpload & { usableAt: number }>();
  const heldUploads: ((flush: (store: boolean) => void) => void)[] = [];
  let processingMs = 0;
  let fileSeq = 0;
  let outage: { status: number; retryAfter: number } | undefined;
  let authRefused = false;
  let refusing = false;
  let scopes: string[] | undefined = DEFAULT_SLACK_SCOPES;
  let seq = 0;
  let baseUrl = '';
  // Like Slack's: the posting time in seconds, then a counter, so ts are unique, increasing and comparable with
  // `oldest`.
  const nextTs = () => `${Math.floor((options.clock ?? Date.now)() / 1000)}.${String(++seq).padStart(6, '0')}`;

  /** oauth.v2.access: a code from an approval, exchanged once (with the app's credentials) for a new bot token. */
  function exchangeCode(args: Record<string, unknown>): [number, unknown, Record<string, string>] {
    const approval = codes.get(String(args.code ?? ''));
    if (!approval) return [200, { ok: false, error: 'invalid_code' }, {}];
    if (
      options.oauth &&
      (args.client_id !== options.oauth.clientId || args.client_secret !== options.oauth.clientSecret)
    )
      return [200, { ok: false, error: 'invalid_client_id' }, {}];
    codes.delete(String(args.code));
    const { grid } = approval;
    const owner = grid?.orgWide ? grid.enterpriseId : approval.teamId;
    const botToken = `xoxb-${owner}-${++issued}`;
    workspaces.set(botToken, {
      teamId: owner,
      teamName: approval.teamName,
      ...(grid ? { enterpriseId: grid.enterpriseId } : {}),
    });
    return [
      200,
      {
        ok: true,
        app_id: 'A0MANZIL',
        authed_user: { id: approval.user },
        scope: DEFAULT_SLACK_SCOPES.join(','),
        token_type: 'bot',
        access_token: botToken,
        bot_user_id: 'U0BOT',
        team: grid?.orgWide ? null : { id: approval.teamId, name: approval.teamName },
        enterprise: grid ? { id: grid.enterpriseId, name: grid.enterpriseName ?? `Org ${grid.enterpriseId}` } : null,
        is_enterprise_install: grid?.orgWide === true,
      },
      {},
    ];
  }

  /** A queued failure as [status, body, headers], or undefined to answer normally. */
  function takeFailure(
    method: string,
    answer = failures.get(method)?.shift(),
  ): [number, unknown, Record<string, string>] | undefined {
    if (!answer) return undefined;
    if (answer.error !== undefined && answer.status === undefined) return [200, { ok: false, error: answer.error }, {}];
    const status = answer.status ?? 429;
    const headers: Record<string, string> = status === 429 ? { 'retry-after': String(answer.retryAfter ?? 1) } : {};
    return [status, { ok: false, error: answer.error ?? (status === 429 ? 'ratelimited' : 'fatal_error') }, headers];
  }

  function answer(
    method: string,
    args: Record<string, unknown>,
    callToken: string | undefined,
  ): [number, unknown, Record<string, string>] {
    if (outage) {
      const headers: Record<string, string> = outage.status === 429 ? { 'retry-after': String(outage.retryAfter) } : {};
      return [
        outage.status,
        outage.status === 429 ? { ok: false, error: 'ratelimited' } : `fake Slack outage: HTTP ${outage.status}`,
        headers,
      ];
    }
    if (authRefused) return [200, { ok: false, error: 'invalid_auth' }, {}];
    const queued = failures.get(method)?.shift();
    if (queued?.carryOut) {
      // Done first, then failed: the message is in the history, the caller hears only the failure.
      const done = carryOut(method, args, callToken);
      return (done[1] as { ok?: unknown }).ok === true ? takeFailure(method, queued)! : done;
    }
    const failure = takeFailure(method, queued);
    if (failure) return failure;
    return carryOut(method, args, callToken);
  }

  function carryOut(
    method: string,
    args: Record<string, unknown>,
    callToken: string | undefined,
  ): [number, unknown, Record<string, string>] {
    if (method === 'apps.connections.open') {
      // Socket Mode: the app-level token opens a WebSocket; Slack says where.
      if (callToken !== (options.appToken ?? 'xapp-test')) return [200, { ok: false, error: 'invalid_auth' }, {}];
      return options.socketModeUrl
        ? [200, { ok: true, url: options.socketModeUrl }, {}]
        : [200, { ok: false, error: 'not_allowed_token_type' }, {}];
    }
    if (method === 'oauth.v2.access') return exchangeCode(args);
    const workspace = callToken === undefined ? undefined : workspaces.get(callToken);
    if (!workspace) return [200, { ok: false, error: 'invalid_auth' }, {}];
    if (scopesMissing.has(method))
      return [
        200,
        { ok: false, error: 'missing_scope', needed: SCOPE_OF[method] ?? 'unknown', provided: 'commands,chat:write' },
        {},
      ];
    if (method === 'conversations.open' && scopes && !scopes.includes('im:write'))
      return [200, { ok: false, error: 'missing_scope', needed: 'im:write', provided: scopes.join(',') }, {}];
    if (FILE_METHODS.has(method) && scopes && !scopes.includes('files:write')) {
      return [200, { ok: false, error: 'missing_scope', needed: 'files:write', provided: scopes.join(',') }, {}];
    }
    if (MESSAGE_METHODS.has(method) || args.blocks !== undefined) {
      const errors = [
        ...checkSlackMessage({ text: args.text, blocks: withFilesAsUrls(args.blocks) }),
        ...slackFileErrors(args.blocks),
      ];
      if (errors.length)
        return [200, { ok: false, error: args.blocks === undefined ? 'no_text' : 'invalid_blocks', errors }, {}];
    }
    const channel = typeof args.channel === 'string' ? args.channel : 'C0TEST';
    // A person's DM (D + their id): refused once they cannot receive.
    const dmOf = /^D(.+)$/.exec(channel)?.[1];
    if (method === 'chat.postMessage' && dmOf && users.get(dmOf)?.dmRefused)
      return [200, { ok: false, error: 'channel_not_found' }, {}];
    switch (method) {
      case 'views.open':
      case 'views.update':
      case 'views.push':
        return [200, modals.call(method, args), {}];
      case 'conversations.open': {
        const id = String(args.users ?? '');
        if (!id || id.includes(',')) return [200, { ok: false, error: 'not_enough_users' }, {}];
        const refused = users.get(id)?.dmRefused;
        if (refused) return [200, { ok: false, error: refused }, {}];
        return [200, { ok: true, channel: { id: `D${id}` } }, {}];
      }
      case 'auth.test':
        return [
          200,
          {
            ok: true,
            url: 'https://manzil-test.slack.com/',
            team: workspace.teamName,
            team_id: workspace.teamId,
            user: 'manzil',
            user_id: 'U0BOT',
            bot_id: 'B0BOT',
            ...(workspace.enterpriseId ? { enterprise_id: workspace.enterpriseId } : {}),
          },
          scopes ? { 'x-oauth-scopes': scopes.join(',') } : {},
        ];
      case 'chat.postMessage': {
        const thread = args.thread_ts === undefined || args.thread_ts === '' ? undefined : String(args.thread_ts);
        // A reply names a message of the channel that is not itself a reply (Slack threads are one level deep).
        if (thread !== undefined && !(posted.get(channel) ?? []).some((m) => m.ts === thread && !m.thread_ts))
          return [200, { ok: false, error: 'thread_not_found' }, {}];
        const message: FakeMessage = { type: 'message', ts: nextTs(), text: args.text, user: 'U0BOT', bot_id: 'B0BOT' };
        if (thread !== undefined) {
          message.thread_ts = thread;
          if (args.reply_broadcast === true || args.reply_broadcast === 'true') message.reply_broadcast = true;
        }
        if (args.blocks !== undefined) message.blocks = args.blocks;
        const metadata = args.metadata as FakeMessage['metadata'] | undefined;
        if (metadata?.event_type)
          message.metadata = { event_type: metadata.event_type, event_payload: metadata.event_payload ?? {} };
        posted.set(channel, [...(posted.get(channel) ?? []), message]);
        const { metadata: _omitted, ...shown } = message; // Slack echoes the message without its metadata
        return [200, { ok: true, channel, ts: message.ts, message: shown }, {}];
      }
      case 'conversations.history':
        return [200, history(channel, args), {}];
      case 'conversations.replies':
        return [200, replies(channel, args), {}];
      case 'views.publish': {
        const user = typeof args.user_id === 'string' ? args.user_id : '';
        if (!/^[UW]\w+$/.test(user)) return [200, { ok: false, error: 'invalid_arguments' }, {}];
        const errors = checkSlackHomeView(args.view);
        if (errors.length)
          return [200, { ok: false, error: 'invalid_arguments', response_metadata: { messages: errors } }, {}];
        const key = `${workspace.teamId}:${user}`;
        const view = args.view as { type: string; blocks: unknown[] };
        homes.set(key, [...(homes.get(key) ?? []), view]);
        return [200, { ok: true, view: { id: `V${homes.get(key)!.length}`, ...view } }, {}];
      }
      case 'users.info': {
        const id = String(args.user ?? '');
        const user = users.get(id) ?? {};
        return [
          200,
          {
            ok: true,
            user: {
              id,
              team_id: user.team_id ?? 'T0TEST',
              name: user.name ?? id.toLowerCase(),
              is_admin: user.is_admin ?? false,
              is_owner: user.is_owner ?? false,
              is_bot: false,
            },
          },
          {},
        ];
      }
      case 'auth.revoke':
        // The token stops working at once.
        workspaces.delete(callToken!);
        return [200, { ok: true, revoked: true }, {}];
      case 'chat.update':
        return [
          200,
          { ok: true, channel, ts: args.ts, text: args.text, message: { text: args.text, blocks: args.blocks } },
          {},
        ];
      case 'chat.postEphemeral':
        return [200, { ok: true, message_ts: nextTs() }, {}];
      case 'files.getUploadURLExternal': {
        const length = Number(args.length);
        if (typeof args.filename !== 'string' || !args.filename.trim() || !Number.isInteger(length) || length <= 0) {
          return [200, { ok: false, error: 'invalid_arguments' }, {}];
        }
        const id = `F0FAKE${String(++fileSeq).padStart(6, '0')}`;
        uploads.set(id, {
          id,
          filename: args.filename,
          length,
          complete: false,
          usableAt: Infinity,
          ...(typeof args.alt_text === 'string' ? { altText: args.alt_text } : {}),
        });
        return [200, { ok: true, upload_url: `${baseUrl}/upload/v1/${id}`, file_id: id }, {}];
      }
      case 'files.completeUploadExternal': {
        const files = Array.isArray(args.files) ? (args.files as unknown[]) : [];
        if (files.length === 0) return [200, { ok: false, error: 'invalid_arguments' }, {}];
        const found = files.map((f) => (isJsonObject(f) && typeof f.id === 'string' ? uploads.get(f.id) : undefined));
        // A file never uploaded (or with other bytes than its declared length): the fake's answer, as Slack gives no
        // detail.
        if (found.some((u) => !u?.bytes || u.bytes.length !== u.length))
          return [200, { ok: false, error: 'file_not_found' }, {}];
        const channelId = typeof args.channel_id === 'string' ? args.channel_id : undefined;
        found.forEach((u, i) => {
          const title = (files[i] as Record<string, unknown>).title;
          Object.assign(u!, {
            complete: true,
            usableAt: Date.now() + processingMs,
            ...(typeof title === 'string' ? { title } : {}),
            ...(channelId ? { channelId } : {}),
          });
        });
        return [
          200,
          {
            ok: true,
            files: found.map((u) => ({
              id: u!.id,
              name: u!.filename,
              title: u!.title ?? u!.filename,
              size: u!.length,
            })),
          },
          {},
        ];
      }
      default:
        return [200, { ok: true }, {}];
    }
  }

  /** A thread: its parent then its replies, oldest first, as conversations.replies lists them. */
  function replies(channel: string, args: Record<string, unknown>): unknown {
    const ts = String(args.ts ?? '');
    const all = posted.get(channel) ?? [];
    const parent = all.find((m) => m.ts === ts && !m.thread_ts);
    if (!parent) return { ok: false, error: 'thread_not_found' };
    return page([parent, ...all.filter((m) => m.thread_ts === ts)], args);
  }

  /**
   * Newest first, after `oldest` (exclusive, as Slack does), paged by `limit` and an opaque cursor; replies in threads
   * are their thread's, not the channel's (unless broadcast).
   */
  function history(channel: string, args: Record<string, unknown>): unknown {
    const inChannel = (posted.get(channel) ?? []).filter((m) => !m.thread_ts || m.reply_broadcast);
    return page(inChannel.reverse(), args);
  }

  function page(messages: FakeMessage[], args: Record<string, unknown>): unknown {
    const oldest = Number(args.oldest ?? 0);
    const withMetadata = args.include_all_metadata === true || args.include_all_metadata === 'true';
    const all = messages.filter((m) => Number(m.ts) > oldest);
    const start = args.cursor
      ? Number(Buffer.from(String(args.cursor), 'base64').toString('utf8').replace('offset:', ''))
      : 0;
    const limit = Math.min(Math.max(Number(args.limit ?? 100), 1), 999);
    const shown = all.slice(start, start + limit).map((m) => {
      if (withMetadata) return m;
      const { metadata: _hidden, ...plain } = m;
      return plain;
    });
    const more = start + limit < all.length;
    return {
      ok: true,
      messages: shown,
      has_more: more,
      pin_count: 0,
      response_metadata: { next_cursor: more ? Buffer.from(`offset:${start + limit}`).toString('base64') : '' },
    };
  }

  /** Slack's refusal of each top-level image block whose `slack_file` is not a completed, processed upload. */
  function slackFileErrors(blocks: unknown): string[] {
    if (!Array.isArray(blocks)) return [];
    return blocks.flatMap((b: unknown, i) => {
      if (!isJsonObject(b) || b.type !== 'image' || b.slack_file === undefined) return [];
      const file = b.slack_file;
      const pointer = `[json-pointer:/blocks/${i}/slack_file]`;
      if (!isJsonObject(file) || (file.id === undefined) === (file.url === undefined) || b.image_url !== undefined)
        return [`invalid slack file ${pointer}`];
      const upload = typeof file.id === 'string' ? uploads.get(file.id) : undefined;
      return upload?.complete && Date.now() >= upload.usableAt ? [] : [`invalid slack file ${pointer}`];
    });
  }

  /**
   * A POST of bytes to an upload URL: stored for a file the fake gave the URL of, answered as Slack does (`OK - n`).
   */
  async function handleUpload(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
    const raw = await readRawBody(req);
    const bytes = await uploadedBytes(raw, req.headers['content-type']);
    const upload = uploads.get(id);
    const record = (status: number, response: unknown) =>
      calls.push({ method: 'upload', args: { file_id: id, size: bytes.length }, token: undefined, status, response });
    if (outage) {
      record(outage.status, 'outage');
      return send(
        res,
        outage.status,
        `fake Slack outage: HTTP ${outage.status}`,
        outage.status === 429 ? { 'retry-after': String(outage.retryAfter) } : {},
      );
    }
    const failure = failures.get('upload')?.shift();
    if (failure) {
      const status = failure.status ?? 500;
      record(status, failure.error ?? 'failed');
      return send(
        res,
        status,
        failure.error ?? `fake upload failure: HTTP ${status}`,
        status === 429 ? { 'retry-after': String(failure.retryAfter ?? 1) } : {},
      );
    }
    if (!upload || upload.complete) {
      record(404, 'not_found');
      return send(res, 404, 'not_found');
    }
    const finish = (store: boolean) => {
      if (!store) {
        res.socket?.destroy();
        return;
      }
      upload.bytes = bytes;
      record(200, `OK - ${bytes.length}`);
      if (!res.writableEnded && !res.destroyed) send(res, 200, `OK - ${bytes.length}`);
    };
    const hold = heldUploads.shift();
    if (hold) hold(finish);
    else finish(true);
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, method: string): Promise<void> {
    let args: Record<string, unknown>;
    try {
      args = parseArgs(await readBody(req), req.headers['content-type']);
    } catch {
      return send(res, 200, { ok: false, error: 'invalid_json' });
    }
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const callToken = bearer ?? (typeof args.token === 'string' ? args.token : undefined);
    const early = notCarriedOut.get(method)?.shift();
    if (early) return early({ method, args, token: callToken, status: 0, response: undefined }, () => {});
    const [status, body, headers] = answer(method, args, callToken);
    const call: SlackCall = { method, args, token: callToken, status, response: body };
    calls.push(call);
    const hold = holds.get(method)?.shift();
    if (!hold) return send(res, status, body, headers);
    // Done, but the answer waits: the caller cannot know whether the message landed.
    const flush = () => {
      held.delete(flush);
      if (!res.writableEnded && !res.destroyed) send(res, status, body, headers);
    };
    held.add(flush);
    hold(call, flush);
  }

  async function handleResponse(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
    let payload: unknown;
    try {
      payload = JSON.parse(await readBody(req));
    } catch {
      attempts.push({ id, payload: undefined, accepted: false, errors: ['body is not JSON'] });
      return send(res, 400, 'invalid_payload');
    }
    const failure = takeFailure('response_url');
    if (failure) {
      attempts.push({ id, payload, accepted: false, errors: ['failNext'] });
      const [status, body, headers] = failure;
      return send(res, status === 200 ? 500 : status, (body as { error: string }).error, headers);
    }
    const p = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, unknown>;
    // Deleting the original needs no text; anything else is a message and is checked as one.
    // Image blocks showing an uploaded file are checked as chat.postMessage checks them (Slack answers a bare 400).
    const errors =
      p.delete_original === true
        ? []
        : [...checkSlackMessage({ text: p.text, blocks: withFilesAsUrls(p.blocks) }), ...slackFileErrors(p.blocks)];
    attempts.push({ id, payload, accepted: errors.length === 0, errors });
    if (errors.length) return send(res, 400, 'invalid_blocks');
    const hold = holds.get('response_url')?.shift();
    if (!hold) return send(res, 200, 'ok');
    // Shown to the person, but the poster waits for the answer (a slow Slack): `holdNext('response_url')`.
    const flush = () => {
      held.delete(flush);
      if (!res.writableEnded && !res.destroyed) send(res, 200, 'ok');
    };
    held.add(flush);
    hold({ method: 'response_url', args: p, token: undefined, status: 200, response: 'ok' }, flush);
  }

  const server = createServer(
    delayed(options.latencyMs, (req, res) => {
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      const api = /^\/api\/([\w.]+)$/.exec(path);
      const response = /^\/response\/([^/]+)$/.exec(path);
      const upload = /^\/upload\/v1\/([\w-]+)$/.exec(path);
      const handled =
        req.method !== 'POST'
          ? undefined
          : api
            ? handleApi(req, res, api[1]!)
            : response
              ? handleResponse(req, res, decodeURIComponent(response[1]!))
              : upload
                ? handleUpload(req, res, upload[1]!)
                : undefined;
      if (!handled) return send(res, 404, 'not_found');
      handled.catch((e: unknown) => send(res, 500, String(e)));
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  baseUrl = `http://127.0.0.1:${port}`;
  let responseSeq = 0;

  return {
    apiUrl: `${baseUrl}/api/`,
    baseUrl,
    calls,
    homeViews: (teamId, user) => homes.get(`${teamId}:${user}`) ?? [],
    callsTo: (method) => calls.filter((c) => c.method === method),
    responseUrl: (id) => `${baseUrl}/response/${encodeURIComponent(id ?? `r${++responseSeq}`)}`,
    responses: (id) => attempts.filter((a) => a.accepted && (id === undefined || a.id === id)).map((a) => a.payload),
    responseAttempts: (id) => attempts.filter((a) => id === undefined || a.id === id),
    failNext(method, answer, times = 1) {
      const queue = failures.get(method) ?? [];
      for (let i = 0; i < times; i++) queue.push(answer);
      failures.set(method, queue);
    },
    holdNext(method, options = {}) {
      let release: () => void = () => {};
      let released = false;
      const table = options.carryOut === false ? notCarriedOut : holds;
      const arrived = new Promise<SlackCall>((resolve) => {
        const queue = table.get(method) ?? [];
        queue.push((call, flush) => {
          release = flush;
          if (released) flush();
          resolve(call);
        });
        table.set(method, queue);
      });
      return {
        arrived,
        release() {
          released = true;
          release();
        },
      };
    },
    setUser(id, user) {
      users.set(id, user);
    },
    missingScope(method, on = true) {
      if (on) scopesMissing.add(method);
      else scopesMissing.delete(method);
    },
    messages: (channel) => [...(posted.get(channel) ?? [])],
    trigger: () => modals.trigger(),
    views: () => [...modals.views],
    uploads: () => [...uploads.values()].map(({ usableAt: _usableAt, ...u }) => ({ ...u })),
    holdUpload() {
      let flush: ((store: boolean) => void) | undefined;
      let decided: boolean | undefined;
      let arrivedNow: () => void = () => {};
      const arrived = new Promise<void>((resolve) => (arrivedNow = resolve));
      heldUploads.push((f) => {
        flush = f;
        arrivedNow();
        if (decided !== undefined) f(decided);
      });
      const decide = (store: boolean) => {
        if (decided !== undefined) return;
        decided = store;
        flush?.(store);
      };
      return { arrived, release: () => decide(true), abandon: () => decide(false) };
    },
    fileProcessing(ms) {
      processingMs = ms;
    },
    outage(status, options = {}) {
      outage = status === undefined ? undefined : { status, retryAfter: options.retryAfter ?? 1 };
    },
    async refuseConnections(on = true) {
      if (on === refusing) return;
      refusing = on;
      if (on) {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
        // The client's pooled sockets see their end before the next call, so that it connects (and is refused) anew.
        await new Promise((r) => setTimeout(r, 20));
      } else {
        await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
      }
    },
    refuseAuth(on = true) {
      authRefused = on;
    },
    approve(teamId, teamName = `Workspace ${teamId}`, user = 'U0INSTALLER', grid) {
      const code = `code-${teamId}-${codes.size + issued + 1}`;
      codes.set(code, { teamId, teamName, user, grid });
      return code;
    },
    revokeWorkspace(teamId) {
      for (const [t, w] of workspaces) if (w.teamId === teamId) workspaces.delete(t);
    },
    tokenOf(teamId) {
      return [...workspaces].filter(([, w]) => w.teamId === teamId).at(-1)?.[0];
    },
    grantScopes(granted) {
      scopes = granted;
    },
    async waitFor(predicate, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      while (!(await predicate())) {
        if (Date.now() > deadline) throw new Error(`fake Slack: condition not met within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    reset() {
      calls.length = 0;
      attempts.length = 0;
      failures.clear();
      holds.clear();
      notCarriedOut.clear();
      for (const flush of [...held]) flush();
      users.clear();
      scopesMissing.clear();
      posted.clear();
      homes.clear();
      uploads.clear();
      heldUploads.length = 0;
      processingMs = 0;
      outage = undefined;
      authRefused = false;
      scopes = DEFAULT_SLACK_SCOPES;
      if (refusing) {
        refusing = false;
        server.listen(port, '127.0.0.1');
      }
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (refusing) return resolve();
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeAllConnections();
      }),
  };
}
