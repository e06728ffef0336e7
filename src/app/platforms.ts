// The registry of chat platforms: each one once, with what the composition root needs of it: whether it is
// configured, its app (serving requests, starting, stopping, posting) and its poster alone (the delivery thread posts
// without serving). compose.ts and the background role loop over it instead of naming Slack and Discord.
import {
  createDiscordApp,
  createDiscordPoster,
  type DiscordApp,
  type DiscordAppOptions,
} from '../../adapters/discord/app.js';
import { createSlackApp, createSlackPoster, type SlackApp, type SlackAppOptions } from '../../adapters/slack/app.js';
import type { Config } from '../config.js';
import { Leadership } from '../jobs/index.js';
import type { Logger } from '../log.js';
import type { ChatCore, ChatPoster, HomePort, TrackRequest } from '../ports/index.js';
import { resealInstallations, slackInstallations } from '../slack-installations.js';
import { sealerFrom, type Database, type LeaseRepo } from '../store/index.js';

export interface PlatformDeps {
  config: Config;
  bot: ChatCore;
  /** A person's own orders as one view: Slack's Home tab (Discord and the terminal have none). */
  home?: HomePort | undefined;
  db: Database;
  logger: Logger;
  /** Counts each request until its answer is sent, so a stop waits for it. */
  track: TrackRequest;
  /** Where Slack's HTTP server listens (tests: 127.0.0.1). */
  host?: string | undefined;
  /** The operator's routes on Slack's HTTP port. */
  routes?: SlackAppOptions['routes'];
  discordTimings?: Pick<DiscordAppOptions, 'autocompleteDeadlineMs' | 'restTimeoutMs' | 'readyTimeoutMs'>;
  leadership: {
    leases: Pick<LeaseRepo, 'acquire' | 'renew' | 'finish'>;
    holder: string;
    lapsed: () => Promise<string[]>;
  };
}

/** A configured platform, as the composition root runs it. */
export interface ChatPlatform {
  readonly name: string;
  readonly poster: ChatPoster;
  /** Serves from now on; resolves with the HTTP port it serves on, when it has one. A failure fails the start. */
  start(): Promise<number | undefined>;
  stop(): Promise<void>;
}

export interface Platforms {
  /** Every configured platform, in a fixed order (Slack, then Discord). */
  list: ChatPlatform[];
  /** The apps themselves, for callers that need one (tests, the terminal's decision to run). */
  slack: SlackApp | undefined;
  discord: DiscordApp | undefined;
}

const installationRepo = (config: Config, db: Database) => db.installations(sealerFrom(config.encryption!));

/** Add to Slack's installations, sealed in the database, when Add to Slack is configured. */
const installationsOf = (config: Config, db: Database) =>
  config.slack?.oauth ? slackInstallations(installationRepo(config, db)) : undefined;

/**
 * At start, with Add to Slack: installations sealed with MANZIL_ENCRYPTION_KEY_PREVIOUS are sealed again with the
 * current key.
 */
export async function resealAtStart(config: Config, db: Database, logger: Logger): Promise<void> {
  if (config.slack?.oauth) await resealInstallations(installationRepo(config, db), logger);
}

/** Built first, started by the caller: every stop step is registered before anything starts. */
export function buildPlatforms(d: PlatformDeps): Platforms {
  const { config, logger } = d;
  const list: ChatPlatform[] = [];
  let slack: SlackApp | undefined;
  if (config.slack) {
    const app = createSlackApp({
      bot: d.bot,
      home: d.home,
      botToken: config.slack.botToken,
      // Add to Slack: each workspace's installation, sealed in the database; a removal holds its channels.
      oauth: config.slack.oauth && { ...config.slack.oauth, installations: installationsOf(config, d.db)! },
      signingSecret: config.slack.signingSecret,
      appToken: config.slack.appToken,
      apiUrl: config.slack.apiUrl,
      homeRefreshMs: config.slack.homeRefreshMs,
      logger,
      track: d.track,
      ...(d.routes ? { routes: d.routes } : {}),
    });
    const socketMode = Boolean(config.slack.appToken);
    let started = false;
    slack = app;
    list.push({
      name: 'slack',
      poster: app.poster,
      async start() {
        const port = await app.start(config.port, d.host);
        started = true;
        logger.info(socketMode ? 'slack: socket mode connected' : 'slack: serving POST /slack/events', { port });
        return port;
      },
      stop: async () => void (started && (await app.stop())),
    });
  }
  // Discord alongside Slack when both are configured: one process, one bot, one outbox. One gateway connection per
  // bot token: the instance that leads connects, the others stand by (and post over REST).
  let discord: DiscordApp | undefined;
  if (config.discord) {
    const app = createDiscordApp({
      bot: d.bot,
      token: config.discord.token,
      apiUrl: config.discord.apiUrl,
      logger,
      track: d.track,
      ...d.discordTimings,
    });
    const gateway = new Leadership({
      ...d.leadership,
      name: 'discord-gateway',
      lead: () => app.start(),
      standDown: () => app.standDown(),
      logger: logger.child({ part: 'discord' }),
    });
    discord = app;
    list.push({
      name: 'discord',
      poster: app.poster,
      start: async () => (await gateway.start(), undefined),
      stop: async () => (await gateway.stop(), await app.stop()),
    });
  }
  return { list, slack, discord };
}

/** The posters alone, for the delivery thread: the same clients' settings as the apps', without serving anything. */
export function buildPosters(config: Config, db: Database, logger: Logger): ChatPoster[] {
  return [
    ...(config.slack
      ? [
          createSlackPoster({
            botToken: config.slack.botToken,
            apiUrl: config.slack.apiUrl,
            logger,
            installations: installationsOf(config, db),
          }),
        ]
      : []),
    ...(config.discord
      ? [createDiscordPoster({ token: config.discord.token, apiUrl: config.discord.apiUrl, logger })]
      : []),
  ];
}
