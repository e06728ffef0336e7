// The background work of one instance: the outbox's drainer and the scheduled jobs that feed it (the alerts poller, the
// digests). Wired the same way in the main thread (embedded runs, tests) and in the delivery thread (`manzil start`).
import {
  ALERT_KINDS,
  alertKind,
  alertOrders,
  foldHeld,
  matchingAlerts,
  pauseForRecipient,
  savedQueryLookup,
} from '../alerts/index.js';
import type { ApiClient } from '../api/client.js';
import { alertButtons, type ButtonStateStore } from '../bot/index.js';
import type { Config } from '../config.js';
import {
  DIGEST_KIND,
  DIGEST_NOTICE_KIND,
  MarketDigestComposer,
  digestKind,
  digestNoticeKind,
  digestOrders,
} from '../digests/index.js';
import { JobScheduler, SharedScheduler, type Heartbeat, type Scheduler } from '../jobs/index.js';
import { newRequestId, type Logger } from '../log.js';
import { MarketData, type SharedMarketCache } from '../market/index.js';
import { KindRegistry, OutboxDrainer } from '../outbox/index.js';
import type { ChatPoster } from '../ports/index.js';
import { orderJob, type RunOptions } from '../standing-orders/run.js';
import type { AlertsRepo, DigestRepo, LeaseRepo, OutboxRepo } from '../store/index.js';
import type { TeamShares } from '../teams/index.js';

/** The poller's settings, as the first look of a new alert uses them too. */
export const pollerOptionsOf = (config: Config) => ({
  maxPages: config.alerts.maxPages,
  priceDropPct: config.alerts.priceDropPct,
  historyDays: config.alerts.historyDays,
  deadlineMs: config.alerts.deadlineSeconds * 1000,
  timezone: config.alerts.timezone,
});

/**
 * The share of UAE_API_BUDGET_PER_MINUTE each thread counts against (the minute window is counted in memory): with a
 * delivery thread, a quarter is kept for chat lookups, so a poller run can never take the whole minute from them.
 */
export function splitMinuteBudget(config: Config, threaded: boolean): { chat: Config; background: Config } {
  const perMinute = config.api.budget.perMinute;
  if (!threaded || perMinute === undefined) return { chat: config, background: config };
  const chat = Math.max(1, Math.ceil(perMinute / 4));
  const withMinute = (n: number): Config => ({
    ...config,
    api: { ...config.api, budget: { ...config.api.budget, perMinute: n } },
  });
  return { chat: withMinute(chat), background: withMinute(Math.max(1, perMinute - chat)) };
}

/**
 * Where the poller and digests jobs run: on SQLite, on this process's schedule under a lease (one run at a time across
 * processes); on Postgres, as pg-boss jobs that the instances share, a run split into parts (shared-scheduler.ts).
 */
export function backgroundScheduler(config: Config, logger: Logger): Scheduler {
  const timezone = config.alerts.timezone;
  if (!config.postgres) return new JobScheduler({ timezone, logger });
  return new SharedScheduler({
    url: config.postgres.url,
    timezone,
    logger,
    expireSeconds: config.postgres.jobExpireSeconds,
  });
}

/**
 * Market figures per area (cached for hours, shared by every channel) and the digest composer on them. `shared`: the
 * store's market cache, so this process reads what the chat side, the delivery thread or another instance fetched.
 * `sandboxNow`: the sandbox's market clock, which the figures' ages are on (the store's cache must be made on it too).
 */
export function digestComposer(
  config: Config,
  api: ApiClient,
  sandboxNow?: () => number,
  shared?: { cache: SharedMarketCache; logger: Logger },
) {
  const market = new MarketData(api, {
    ...(sandboxNow ? { now: sandboxNow } : {}),
    cacheTtlMs: config.market.cacheTtlMs,
    maxPages: config.market.maxPages,
    ...(shared
      ? {
          shared: shared.cache,
          onSharedError: (error: unknown) =>
            shared.logger.warn('the shared market cache failed; this answer is fetched from the service', { error }),
        }
      : {}),
  });
  const composer = new MarketDigestComposer(
    market,
    config.alerts.timezone,
    sandboxNow,
    config.api.breaker.cooldownSeconds * 1000,
  );
  return { market, composer };
}

/** What the background's counters report, wherever they are kept (the main thread's /metrics). */
export interface BackgroundEvents {
  delivered(channel: string, kind: string): void;
  failed(channel: string, kind: string): void;
  pollerRun(ok: boolean): void;
}

export interface BackgroundDeps {
  config: Config;
  api: ApiClient;
  /** The service the saved searches are kept under (`sandbox`, or the API's base URL). */
  service: string;
  repos: { alerts: AlertsRepo; outbox: OutboxRepo; leases: LeaseRepo; digests: DigestRepo };
  /** Where an alert card's buttons keep their state (saved as each card is rendered; no Bot is needed for it). */
  buttons: ButtonStateStore;
  composer: MarketDigestComposer;
  posters: ChatPoster[];
  logger: Logger;
  /** This instance's name on claims and leases. */
  instance: string;
  heartbeat: Heartbeat;
  scheduler: Scheduler;
  alertsCron: string;
  /** Each team's share of the month: the searches and digests of a team that spent it wait. */
  shares: Pick<TeamShares, 'allows'>;
  /** Aborted when the instance stops: a poller or digests run in progress ends early. */
  signal: AbortSignal;
  events: BackgroundEvents;
  /** The delivery core's clock (tests drive hours of retries without waiting them out). */
  clock?: () => number;
  /** In the delivery thread: no chat shares its event loop, so posts never wait for the loop to catch up. */
  ownThread?: boolean;
}

/**
 * Each kind of message the outbox carries registers its decoder and renderer; the drainer knows none of them. An alert
 * card's buttons are rendered from stored state (no Bot is needed for it).
 */
export function messageKinds(buttons: ButtonStateStore, alerts: AlertsRepo, logger: Logger): KindRegistry {
  return new KindRegistry()
    .register(
      ALERT_KINDS,
      alertKind({
        ...alertButtons(
          buttons,
          savedQueryLookup((id) => alerts.byId(id)),
        ),
        matches: matchingAlerts(alerts, logger),
      }),
    )
    .register(DIGEST_KIND, digestKind)
    .register(DIGEST_NOTICE_KIND, digestNoticeKind);
}

/** Builds the drainer and registers each kind's job (alerts, digests) on the scheduler; starting them is the caller's. */
export function composeBackground(d: BackgroundDeps) {
  const { config, repos, logger } = d;
  const kinds = messageKinds(d.buttons, repos.alerts, logger);
  const drainer = new OutboxDrainer({
    outbox: repos.outbox,
    kinds,
    posters: d.posters,
    logger,
    holder: d.instance,
    lapsed: () => d.heartbeat.lapsed(),
    release: (at) => repos.outbox.releaseHeld(at, foldHeld),
    ...(d.clock ? { now: d.clock } : {}),
    options: {
      giveUpMs: config.alerts.giveUpMs,
      leaseMs: config.alerts.deliveryLeaseMs,
      ...(d.ownThread ? { holdWhileLateMs: 0 } : {}),
    },
    onDelivered: (row) => d.events.delivered(row.channel, row.kind),
    onFailed: (row) => d.events.failed(row.channel, row.kind),
    onRecipientGone: async (channel, reason) => {
      await pauseForRecipient(repos.alerts, channel, reason, logger);
    },
  });
  // What every kind's run takes: this instance's leases, its stop, the teams' shares; each run's log lines carry a
  // `req` id of their own, as a chat request's do.
  const runOptions = (): RunOptions => ({
    leases: repos.leases,
    holder: d.instance,
    logger: logger.child({ req: newRequestId() }),
    signal: d.signal,
    teamAllows: (team) => d.shares.allows(team),
    lapsed: () => d.heartbeat.lapsed(),
    onQueued: () => drainer.poke(),
  });
  const alerts = orderJob(
    alertOrders({
      api: d.api,
      repo: repos.alerts,
      service: d.service,
      options: pollerOptionsOf(config),
      platforms: d.posters.map((p) => p.platform),
      // A test's clock moves the alerts' time too: summaries' slots and quiet hours are read on it.
      ...(d.clock ? { now: d.clock } : {}),
    }),
    d.alertsCron,
    () => ({
      ...runOptions(),
      ...(d.clock ? { now: d.clock } : {}),
      onRun: (report) => d.events.pollerRun(report.failed === 0),
    }),
  );
  const digests = orderJob(
    digestOrders({ repo: repos.digests, composer: d.composer, service: d.service }),
    config.digests.cron,
    runOptions,
  );
  // Each kind of standing order is one job: run whole on this process's schedule (SQLite), or shared in parts by the
  // instances (pg-boss, Postgres).
  for (const job of [alerts, digests]) d.scheduler.register(job);
  return { drainer, poll: () => alerts.run(), digests: () => digests.run() };
}
