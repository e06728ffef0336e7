// The Slack app: a real Bolt 5 app, over HTTP at POST /slack/events (commands, buttons and options alike),
// or over Socket Mode when an app-level token is given. One workspace (a bot token), or any workspace that adds the app
// (Add to Slack: Bolt's installer at /slack/install and /slack/oauth_redirect, each workspace answered with its own
// token).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver, LogLevel, SocketModeReceiver, type Logger as BoltLogger } from '@slack/bolt';
import type { ChatCore, HomePort, SlackInstallations, TrackRequest } from '../../src/ports/index.js';
import type { Logger } from '../../src/log.js';
import { SlackAdmins } from './admins.js';
import { SlackHome } from './home.js';
import { installationStore, installedClients } from './installations.js';
import { registerListeners, untracked } from './listeners/index.js';
import { slackForms } from './forms.js';
import { refuseOrgWideInstall } from './org-install.js';
import { SlackPoster, postingClient, singleClient, type SlackClients } from './poster.js';
import { SLACK_SCOPES } from './scopes.js';

/** Add to Slack: the app's OAuth credentials and where installations are kept. */
export interface SlackOAuth {
  clientId: string;
  clientSecret: string;
  stateSecret: string;
  installations: SlackInstallations;
}

export interface SlackAppOptions {
  bot: ChatCore;
  /** A person's own alerts and digests: drawn on their Home tab, again after each change. None: no Home tab. */
  home?: HomePort | undefined;
  /** One workspace's bot token; or `oauth`, for any workspace that adds the app. */
  botToken?: string | undefined;
  oauth?: SlackOAuth | undefined;
  signingSecret: string;
  /** Socket Mode when set. */
  appToken?: string;
  /** The Web API base URL (tests and proxies); Slack's own when unset. */
  apiUrl?: string;
  logger: Logger;
  /** How long an alert post may go unanswered before it counts as failed (default 30 s). */
  postTimeoutMs?: number;
  /** How long a person's admin status is remembered (default 5 minutes). */
  adminCacheMs?: number;
  /** How often open Home tabs are drawn again when what they show changed (SLACK_HOME_REFRESH_S). */
  homeRefreshMs?: number;
  /**
   * Counts each listener's whole run, the reply to Slack included, so a graceful stop waits for it (the lifecycle's).
   */
  track?: TrackRequest;
  /** More routes on the HTTP port (the operator's /healthz and /metrics); ignored in Socket Mode. */
  routes?: { path: string; method: string; handler: (req: IncomingMessage, res: ServerResponse) => void }[];
}

export interface SlackApp {
  app: App;
  /** The ChatPoster through which alerts reach Slack (channels `slack:TEAM:CHANNEL`). */
  poster: SlackPoster;
  /** Starts serving; for HTTP, resolves to the port actually bound. */
  start(port: number, host?: string): Promise<number | undefined>;
  stop(): Promise<void>;
}

/** Bolt's own logs go through our logger, which masks tokens and secrets. */
function boltLogger(logger: Logger): BoltLogger {
  let level = LogLevel.WARN;
  const log = logger.child({ part: 'slack' });
  return {
    debug: (...m: unknown[]) => log.debug(m.map(String).join(' ')),
    info: (...m: unknown[]) => log.info(m.map(String).join(' ')),
    warn: (...m: unknown[]) => log.warn(m.map(String).join(' ')),
    error: (...m: unknown[]) => log.error(m.map(String).join(' ')),
    setLevel: (l: LogLevel) => {
      level = l;
    },
    getLevel: () => level,
    setName: () => {},
  };
}

/**
 * The poster alone, with the app's client settings: the delivery thread posts alerts and digests without serving Slack.
 */
export function createSlackPoster(options: ClientOptions): SlackPoster {
  const log = options.logger.child({ part: 'slack' });
  return new SlackPoster(slackClients(options), (message, fields) => log.warn(message, fields));
}

type ClientOptions = Pick<SlackAppOptions, 'botToken' | 'apiUrl' | 'logger' | 'postTimeoutMs'> & {
  installations?: SlackInstallations | undefined;
};

/**
 * Posting and users.info go through clients that neither retry nor wait out 429s themselves: the outbox retries, and
 * an admin check must answer now or not at all. One for the one token, or one per workspace from its installation.
 */
function slackClients(options: ClientOptions): SlackClients {
  const clientOptions = {
    apiUrl: options.apiUrl,
    logger: boltLogger(options.logger),
    timeoutMs: options.postTimeoutMs,
  };
  if (options.installations) return installedClients(options.installations, clientOptions);
  if (!options.botToken) throw new Error('slack: a bot token or Add to Slack (oauth) is needed');
  return singleClient(postingClient(options.botToken, clientOptions));
}

const INSTALL_PATH = '/slack/install';

/**
 * Bolt's installer: "Add to Slack" at /slack/install, Slack's redirect back at /slack/oauth_redirect. An org-wide
 * Enterprise Grid install is refused there with a page (org-install.ts); each workspace adds Manzil on its own.
 */
function installer(
  oauth: SlackOAuth,
  clientOptions: { slackApiUrl?: string },
  options: ClientOptions,
  warn: (message: string, fields: Record<string, unknown>) => void,
) {
  const afterInstallation = refuseOrgWideInstall(
    INSTALL_PATH,
    { apiUrl: options.apiUrl, logger: boltLogger(options.logger), timeoutMs: options.postTimeoutMs },
    warn,
  );
  return {
    clientId: oauth.clientId,
    clientSecret: oauth.clientSecret,
    stateSecret: oauth.stateSecret,
    scopes: [...SLACK_SCOPES],
    installationStore: installationStore(oauth.installations),
    installerOptions: {
      directInstall: true,
      installPath: INSTALL_PATH,
      redirectUriPath: '/slack/oauth_redirect',
      clientOptions,
      callbackOptions: { afterInstallation },
    },
  };
}

export function createSlackApp(options: SlackAppOptions): SlackApp {
  const logger = boltLogger(options.logger);
  const clientOptions = options.apiUrl ? { slackApiUrl: options.apiUrl } : {};
  const socketMode = Boolean(options.appToken);
  const log = options.logger.child({ part: 'slack' });
  const warn = (message: string, fields: Record<string, unknown>) => log.warn(message, fields);
  // Built here rather than by App, so that Socket Mode also honours SLACK_API_URL.
  const receiver = socketMode
    ? new SocketModeReceiver({ appToken: options.appToken!, logger, installerOptions: { clientOptions } })
    : new HTTPReceiver({
        signingSecret: options.signingSecret,
        endpoints: '/slack/events',
        logger,
        unhandledRequestTimeoutMillis: 2_500,
        ...(options.routes?.length ? { customRoutes: options.routes } : {}),
        ...(options.oauth ? installer(options.oauth, clientOptions, options, warn) : {}),
      });
  const app = new App({
    ...(options.oauth ? {} : { token: options.botToken }),
    receiver,
    logger,
    logLevel: LogLevel.WARN,
    clientOptions,
  });
  const clients = slackClients({ ...options, installations: options.oauth?.installations });
  const admins = new SlackAdmins(clients, warn, options.adminCacheMs);
  const home = options.home && new SlackHome(options.home, clients, log, options.homeRefreshMs);
  registerListeners(app, {
    forms: slackForms({ bot: options.bot, admins, logger: log, track: options.track ?? untracked }),
    bot: options.bot,
    admins,
    clients,
    logger: log,
    track: options.track ?? untracked,
    installations: options.oauth?.installations,
    home,
  });
  app.error(async (error) => {
    options.logger.error('slack listener failed', { error });
  });

  return {
    app,
    poster: new SlackPoster(clients, warn),
    async start(port, host = '0.0.0.0') {
      if (socketMode) {
        await app.start();
        return undefined;
      }
      const server = (await app.start({ port, host })) as unknown as Server;
      return (server.address() as AddressInfo).port;
    },
    stop: async () => {
      home?.stop();
      await app.stop();
    },
  };
}
