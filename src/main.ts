// The composition root: the only file that wires the parts together.
import { createSlackApp, type SlackApp } from '../adapters/slack/app.js';
import { runTerminalChat } from '../adapters/console/chat.js';
import { ApiClient } from './api/client.js';
import { Bot } from './bot/index.js';
import { loadConfig, type Config } from './config.js';
import { LocationResolver } from './locations/index.js';
import { createLogger, type Logger } from './log.js';
import { createSandbox, type Sandbox } from './sandbox/index.js';
import { createButtonStateRepo, createLocationCacheRepo, openStore, type Store } from './store/index.js';

/** How long a button keeps working after it was last used. */
export const BUTTON_RETENTION_MS = 90 * 86_400_000;

export const SANDBOX_FOOTER = 'Sample data from the local sandbox. Set UAE_API_KEY for live data.';

export interface Manzil {
  config: Config;
  bot: Bot;
  api: ApiClient;
  logger: Logger;
  sandbox: Sandbox | undefined;
  slack: SlackApp | undefined;
  /** The port Slack is served on (HTTP mode). */
  slackPort: number | undefined;
  stop(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string | undefined>;
  /** Where log lines go (default stderr). */
  writeLog?: (line: string) => void;
  /** Host to bind Slack's HTTP server to (tests use 127.0.0.1). */
  host?: string;
}

/** The property service as configured: the real one with a key, else the embedded sandbox on loopback. */
async function openService(config: Config, logger: Logger): Promise<{ api: ApiClient; sandbox: Sandbox | undefined }> {
  const sandbox = config.sandbox ? createSandbox() : undefined;
  const baseUrl = sandbox ? await sandbox.listen(0, '127.0.0.1') : config.api.baseUrl!;
  if (sandbox) logger.warn('no UAE_API_KEY: using the embedded sandbox, sample data only', { url: baseUrl });
  const api = new ApiClient({
    baseUrl,
    key: sandbox ? sandbox.key : config.api.key!,
    ...(config.api.host ? { host: config.api.host } : {}),
    connectTimeoutSeconds: config.api.connectTimeoutSeconds,
    headersTimeoutSeconds: config.api.headersTimeoutSeconds,
    bodyTimeoutSeconds: config.api.bodyTimeoutSeconds,
    retry: { attempts: config.api.retryAttempts, maxRetryAfterMs: config.api.maxRetryAfterSeconds * 1000 },
    budget: { ...config.api.budget, maxWaitMs: config.api.budget.maxWaitSeconds * 1000 },
    logger,
  });
  return { api, sandbox };
}

/** Builds everything from the environment and starts serving Slack when its tokens are set. */
export async function startManzil(options: StartOptions = {}): Promise<Manzil> {
  const config = loadConfig(options.env ?? process.env);
  const logger = createLogger({ level: config.logLevel, secrets: config.secrets, ...(options.writeLog ? { write: options.writeLog } : {}) });

  const { api, sandbox } = await openService(config, logger);
  const store: Store = openStore(config.dbPath);
  const buttons = createButtonStateRepo(store);
  const locationCache = createLocationCacheRepo(store);
  // Buttons unused for BUTTON_RETENTION_MS stop working (the reply says so); expired lookups are only dead weight.
  const pruned = { buttons: buttons.prune(BUTTON_RETENTION_MS), locations: locationCache.prune() };
  if (pruned.buttons + pruned.locations > 0) logger.info('pruned old state', pruned);
  const bot = new Bot({
    api,
    locations: new LocationResolver(api, locationCache, config.locationCacheTtlMs),
    state: buttons,
    logger,
    ...(sandbox ? { footer: SANDBOX_FOOTER } : {}),
  });

  let slack: SlackApp | undefined;
  let slackPort: number | undefined;
  if (config.slack) {
    const { botToken, signingSecret, appToken, apiUrl } = config.slack;
    slack = createSlackApp({ bot, botToken, signingSecret, appToken, apiUrl, logger });
    slackPort = await slack.start(config.port, options.host);
    logger.info(config.slack.appToken ? 'slack: socket mode connected' : 'slack: serving POST /slack/events', { port: slackPort });
  }

  return {
    config, bot, api, logger, sandbox, slack, slackPort,
    async stop() {
      await slack?.stop();
      await api.close();
      await sandbox?.close();
      store.close();
    },
  };
}

/** `npm start`: Slack when configured, otherwise the terminal chat on stdin/stdout. */
export async function runStart(): Promise<number> {
  const manzil = await startManzil();
  const shutdown = async () => {
    await manzil.stop();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  if (manzil.slack) return new Promise<number>(() => {}); // serve until a signal
  await runTerminalChat(manzil.bot, { sandbox: Boolean(manzil.sandbox) });
  await manzil.stop();
  return 0;
}

/**
 * For `manzil parse --resolve`: a resolver on the configured service (or the embedded sandbox),
 * giving `location_id` and the resolved name, or an error with the alternatives.
 */
export async function openResolver(env: Record<string, string | undefined> = process.env) {
  const config = loadConfig(env);
  // Only problems are worth a line on stderr here: stdout carries the JSON answers.
  const { api, sandbox } = await openService(config, createLogger({ level: 'error', secrets: config.secrets }));
  // The cache lives only as long as this command, as before; the store's repository serves it in memory.
  const store = openStore(':memory:');
  const resolver = new LocationResolver(api, createLocationCacheRepo(store), config.locationCacheTtlMs);
  return {
    async resolveToFields(words: string): Promise<Record<string, unknown>> {
      const r = await resolver.resolve(words);
      if (r.kind === 'found') return { location_id: String(r.location.id), location_name: r.location.name };
      if (r.kind === 'ambiguous') return { error: `"${words}" matches several places: ${r.choices.map((c) => c.name).join(', ')}` };
      const close = r.suggestions.map((c) => c.name).join(', ');
      return { error: `I couldn't find a place called "${words}".${close ? ` Did you mean: ${close}?` : ''}` };
    },
    async close() {
      await api.close();
      await sandbox?.close();
      store.close();
    },
  };
}
