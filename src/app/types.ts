// What a started instance offers its caller (the CLI, the tests, the benches) and how one is started.
import type { SlackApp } from '../../adapters/slack/app.js';
import type { DiscordApp, DiscordAppOptions } from '../../adapters/discord/app.js';
import type { ConsolePoster } from '../../adapters/console/poster.js';
import type { RunReport } from '../alerts/index.js';
import type { ApiClient } from '../api/client.js';
import type { Config } from '../config.js';
import type { DemoClock } from '../demo.js';
import type { Lifecycle } from '../lifecycle.js';
import type { Logger } from '../log.js';
import type { runDigests } from '../digests/index.js';
import type { Heartbeat, JobScheduler } from '../jobs/index.js';
import type { MarketData } from '../market/index.js';
import type { Health } from '../ops/health.js';
import type { Metrics } from '../ops/metrics.js';
import type { Delivery } from '../outbox/index.js';
import type { ChatCore } from '../ports/index.js';
import type { Sandbox } from '../sandbox/index.js';
import type { AlertsRepo, DigestRepo, LeaseRepo, OutboxRepo } from '../store/index.js';

export interface Manzil {
  config: Config;
  bot: ChatCore;
  api: ApiClient;
  logger: Logger;
  sandbox: Sandbox | undefined;
  /** Demo mode's market clock: set on the sandbox with the terminal chat as the only chat (a first run). */
  demo: DemoClock | undefined;
  slack: SlackApp | undefined;
  /** The port Slack is served on (HTTP mode). */
  slackPort: number | undefined;
  /** The Discord bot, when DISCORD_TOKEN is set (logged in to the gateway when serving). */
  discord: DiscordApp | undefined;
  /** The stop steps, in order; other parts (the alerts poller, the outbox) add theirs with `lifecycle.onDrain` / `onStop`. */
  lifecycle: Lifecycle;
  /**
   * Saved searches, one poller run on demand, and delivery: the outbox's drainer in this thread, or the handle of the
   * delivery thread that runs it (and the poller and digests) when `deliveryThread` is on.
   */
  alerts: { repo: AlertsRepo; poll(): Promise<RunReport>; drainer: Delivery; outbox: OutboxRepo; leases: LeaseRepo };
  /** Whether the drainer, the poller and the digests run in a thread of their own. */
  deliveryThread: boolean;
  /** Market digests: the repository, one run of the job on demand, and the shared market data. */
  digests: { repo: DigestRepo; run(): ReturnType<typeof runDigests>; market: MarketData };
  /** The named jobs (the alerts poller, digests, maintenance) and this instance's heartbeat. */
  jobs: JobScheduler;
  heartbeat: Heartbeat;
  /** The graceful stop a signal triggers: refuse new requests, finish those in flight (up to SHUTDOWN_TIMEOUT_S), close. */
  shutdown(reason?: string): Promise<void>;
  /** The same as `shutdown()`. */
  stop(): Promise<void>;
  /** Prometheus metrics (GET /metrics) and the health check (GET /healthz). */
  metrics: Metrics;
  health: Health;
  /** The port of the operator's own HTTP server, when it runs (not when Slack's HTTP port serves the routes). */
  opsPort: number | undefined;
  /** The address it is bound to (OPS_HOST: 127.0.0.1 by default). */
  opsHost: string | undefined;
}

export interface StartOptions {
  /** The configuration, when the caller has loaded it already (`npm start` checks it first); else read from `env`. */
  config?: Config;
  env?: Record<string, string | undefined>;
  /** Where log lines go (default stderr). */
  writeLog?: (line: string) => void;
  /** Host to bind Slack's HTTP server to (tests use 127.0.0.1). */
  host?: string;
  /** False for one-shot commands (`manzil poll --once`): no HTTP server, no scheduler, no background delivery. */
  serve?: boolean;
  /** The terminal chat's poster, used for alerts saved in the terminal when no chat platform is configured. */
  terminal?: ConsolePoster;
  /** Discord's timings (tests make them short). */
  discord?: Pick<DiscordAppOptions, 'autocompleteDeadlineMs' | 'restTimeoutMs' | 'readyTimeoutMs'>;
  /** Serve GET /healthz and /metrics on PORT even with no chat platform (`manzil start --ops`); OPS_PORT does too. */
  ops?: boolean;
  /** The terminal chat runs alongside Slack or Discord (`manzil start --console`): its poster joins theirs. */
  consoleChat?: boolean;
  /** With the terminal chat, where the one-line warnings and errors go (default stderr); the full log goes to its file. */
  logScreen?: (line: string) => void;
  /** The delivery core's clock (tests drive hours of retries without waiting them out); Date.now by default. */
  clock?: () => number;
  /**
   * Run the drainer, the poller and the digests in a thread of their own (`manzil start` does, unless DELIVERY_THREAD=off),
   * so that their work never delays a chat answer. Only when serving a chat platform from a database file on the real
   * service; the embedded sandbox, the terminal chat, an in-memory database and a test clock keep them in this thread.
   */
  deliveryThread?: boolean;
}
