// The chat platforms configured, built for the composition root: Slack's app (one workspace, or Add to Slack) and
// Discord's bot, whose gateway one instance at a time connects to (Leadership), while every instance posts over REST.
import { createDiscordApp, type DiscordApp, type DiscordAppOptions } from '../adapters/discord/app.js';
import { createSlackApp, type SlackApp, type SlackAppOptions } from '../adapters/slack/app.js';
import type { Config } from './config.js';
import { Leadership } from './jobs/index.js';
import type { Logger } from './log.js';
import type { ChatCore, TrackRequest } from './ports/index.js';
import { sealerFrom, slackInstallations, type LeaseRepo, type Store } from './store/index.js';

export interface PlatformDeps {
  config: Config;
  bot: ChatCore;
  store: Store;
  logger: Logger;
  /** Counts each request until its answer is sent, so a stop waits for it. */
  track: TrackRequest;
  /** The operator's routes on Slack's HTTP port. */
  routes?: SlackAppOptions['routes'];
  discordTimings?: Pick<DiscordAppOptions, 'autocompleteDeadlineMs' | 'restTimeoutMs' | 'readyTimeoutMs'>;
  leadership: { leases: Pick<LeaseRepo, 'acquire' | 'renew' | 'finish'>; holder: string; lapsed: () => string[] };
}

export interface Platforms {
  slack: SlackApp | undefined;
  discord: DiscordApp | undefined;
  /** Who holds Discord's gateway: started in place of `discord.start()`. */
  gateway: Leadership | undefined;
}

/** Built first, started by the caller: its stop steps are registered before anything starts. */
export function buildPlatforms(d: PlatformDeps): Platforms {
  const { config, logger } = d;
  const slack = config.slack
    ? createSlackApp({
        bot: d.bot,
        botToken: config.slack.botToken,
        // Add to Slack: each workspace's installation, sealed in the database; a removal holds its channels.
        oauth: config.slack.oauth && { ...config.slack.oauth, installations: slackInstallations(d.store, sealerFrom(config.encryption!), { logger }) },
        signingSecret: config.slack.signingSecret,
        appToken: config.slack.appToken,
        apiUrl: config.slack.apiUrl,
        logger,
        track: d.track,
        ...(d.routes ? { routes: d.routes } : {}),
      })
    : undefined;
  // Discord alongside Slack when both are configured: one process, one bot, one outbox.
  const discord = config.discord
    ? createDiscordApp({ bot: d.bot, token: config.discord.token, apiUrl: config.discord.apiUrl, logger, track: d.track, ...d.discordTimings })
    : undefined;
  const gateway =
    discord &&
    new Leadership({
      ...d.leadership,
      name: 'discord-gateway',
      lead: () => discord.start(),
      standDown: () => discord.standDown(),
      logger: logger.child({ part: 'discord' }),
    });
  return { slack, discord, gateway };
}
