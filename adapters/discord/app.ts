// The Discord bot: a real discord.js 14 gateway client (intents: Guilds only, nothing privileged) whose interactions
// all
// go through one listener into the chat core, and whose REST manager also carries the alerts (DiscordPoster).
import { Client, Events, GatewayIntentBits, REST, type RateLimitData, type RESTOptions } from 'discord.js';
import type { ChatCore, TrackRequest } from '../../src/ports/index.js';
import type { Logger } from '../../src/log.js';
import { DISCORD_LIMITS } from './limits.js';
import { registerListeners } from './listeners.js';
import { DiscordPoster } from './poster.js';
import { describeError } from './send.js';

export interface DiscordAppOptions {
  bot: ChatCore;
  token: string;
  /**
   * The REST base given to discord.js as `rest.api` (tests and proxies: `http://127.0.0.1:PORT/api`); Discord's when
   * unset.
   */
  apiUrl?: string | undefined;
  logger: Logger;
  /** How long a location autocomplete waits for the service (default 2.5 s of Discord's 3). */
  autocompleteDeadlineMs?: number;
  /** How long one REST request may take before it fails (default 15 s, discord.js's own). */
  restTimeoutMs?: number;
  /** How long start() waits for the gateway's READY (default 30 s). */
  readyTimeoutMs?: number;
  /** Counts each interaction until its reply is sent (see ListenerOptions.track). */
  track?: TrackRequest;
}

export interface DiscordApp {
  client: Client;
  /** The ChatPoster through which alerts reach Discord (channels `discord:GUILD:CHANNEL`). */
  poster: DiscordPoster;
  /** Logs in and resolves once the gateway said READY; rejects (and cleans up) when login fails. */
  start(): Promise<void>;
  /** Leaves the gateway to another instance; alerts and digests are still posted over REST. */
  standDown(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * discord.js's REST options. Requests go through Node's own fetch rather than @discordjs/rest's default, its nested
 * undici 6: that one sends through the process's global undici dispatcher, which the project's undici 7 installs
 * when it loads, and undici 7 cannot read undici 6's multipart bodies ("action is not a function"), so every message
 * with a file (a chart, say) would fail. Node's fetch encodes the body itself before any dispatcher sees it.
 */
export function discordRestOptions(apiUrl?: string, timeoutMs?: number): Partial<RESTOptions> {
  return {
    makeRequest: fetch as RESTOptions['makeRequest'],
    rejectOnRateLimit: rejectLongWaitsForChannelMessages,
    ...(apiUrl ? { api: apiUrl } : {}),
    ...(timeoutMs ? { timeout: timeoutMs } : {}),
  };
}

/**
 * A channel message rate limited for longer than this fails as `wait` (see outcomes.ts) instead of waiting in the
 * queue.
 */
const QUEUED_RATE_LIMIT_MS = 10_000;

/**
 * discord.js waits out 429s in its queue. For replies that is right, and for an alert a short wait too; but an alert
 * post
 * held for minutes would hold a delivery worker with it, so a long wait on POST /channels/:id/messages rejects instead:
 * the outbox holds that channel for the time Discord asked, and the other channels go on.
 */
function rejectLongWaitsForChannelMessages(data: RateLimitData): boolean {
  return (
    data.method.toUpperCase() === 'POST' &&
    data.route === '/channels/:id/messages' &&
    Math.max(data.timeToReset, data.retryAfter) > QUEUED_RATE_LIMIT_MS
  );
}

/** The poster on a REST manager of its own: the delivery thread posts alerts and digests without the gateway. */
export function createDiscordPoster(
  options: Pick<DiscordAppOptions, 'token' | 'apiUrl' | 'logger' | 'restTimeoutMs'>,
): DiscordPoster {
  return posterOn(
    new REST(discordRestOptions(options.apiUrl, options.restTimeoutMs)),
    options.token,
    options.logger.child({ part: 'discord' }),
  );
}

/**
 * The token set on `rest` now, not only at login (`manzil poll --once` posts without the gateway), and its 429s logged.
 */
function posterOn(rest: REST, token: string, log: Logger): DiscordPoster {
  // An interaction's token is in its webhook route: it stays out of the logs.
  rest.on('rateLimited', (info) =>
    log.info('discord rate limit: waiting', {
      route: info.route.replace(/\/webhooks\/[^/]+\/[^/]+/, '/webhooks/:id/:token'),
      ms: info.timeToReset,
      global: info.global,
    }),
  );
  rest.setToken(token);
  return new DiscordPoster(rest, (message, fields) => log.warn(message, fields), token);
}

export function createDiscordApp(options: DiscordAppOptions): DiscordApp {
  const log = options.logger.child({ part: 'discord' });
  const client = new Client({
    intents: [GatewayIntentBits.Guilds],
    // 429s wait in discord.js's queue (X-RateLimit-Reset-After, global limits), so a rate-limited reply or alert is
    // late,
    // never lost; only an alert facing a long wait fails at once, as `wait` (see discordRestOptions).
    rest: discordRestOptions(options.apiUrl, options.restTimeoutMs),
    allowedMentions: { parse: [] },
  });
  registerListeners(client, {
    bot: options.bot,
    logger: options.logger,
    autocompleteDeadlineMs: options.autocompleteDeadlineMs ?? DISCORD_LIMITS.autocompleteDeadlineMs,
    ...(options.track ? { track: options.track } : {}),
  });
  client.on(Events.Error, (e) => log.error('discord client error', { error: describeError(e) }));
  client.on(Events.Warn, (message) => log.warn('discord warning', { message }));
  client.on(Events.ShardDisconnect, (event, shard) =>
    log.warn('discord gateway disconnected', { code: event.code, shard }),
  );
  client.on(Events.ShardResume, (shard, replayed) => log.info('discord gateway resumed', { shard, replayed }));
  const poster = posterOn(client.rest, options.token, log);

  return {
    client,
    poster,
    async start() {
      let timer: NodeJS.Timeout | undefined;
      const ready = new Promise<void>((resolve, reject) => {
        timer = setTimeout(
          () => reject(new Error('discord: no READY from the gateway in time')),
          options.readyTimeoutMs ?? 30_000,
        );
        client.once(Events.ClientReady, () => resolve());
      });
      try {
        await client.login(options.token);
        await ready;
      } catch (e) {
        await client.destroy();
        // discord.js's errors never carry the token; ours says only what failed.
        throw new Error(`discord: login failed (${describeError(e)})`);
      } finally {
        // Cleared on failure too: a pending timer would keep a process that could not start alive for its length.
        clearTimeout(timer);
      }
      log.info('discord: connected to the gateway', { user: client.user?.tag, guilds: client.guilds.cache.size });
    },
    async standDown() {
      await client.destroy();
      // destroy() takes the token from the REST manager too, which still posts this instance's alerts and digests.
      client.rest.setToken(options.token);
      log.info('discord: left the gateway to another instance; posting over REST only');
    },
    async stop() {
      await client.destroy();
    },
  };
}
