// The composition root: the only file that wires the parts together (and src/background/worker.ts, the delivery
// thread's).
import { threadId } from 'node:worker_threads';
import { AlertCommands, POLL_JOB, describeSchedule, lastPollOf, pauseImpossibleAlerts } from './alerts/index.js';
import { Bot, StateMaintenance, typedReplies } from './bot/index.js';
import { loadConfig } from './config.js';
import { DemoClock, demoClockFile, loadDemoMarket } from './demo.js';
import { LocationResolver } from './locations/index.js';
import { guardBot, Lifecycle } from './lifecycle.js';
import { createLogger, maskSecrets, resolveFormat } from './log.js';
import {
  backgroundScheduler,
  composeBackground,
  digestComposer,
  pollerOptionsOf,
  splitMinuteBudget,
} from './background/compose.js';
import { DeliveryThread } from './background/thread.js';
import { CompareCommands } from './compare/index.js';
import { DigestCommands, postDigestNow } from './digests/index.js';
import { Heartbeat, JobScheduler } from './jobs/index.js';
import { contextText, periodTransactions, readValue } from './market/index.js';
import type { ListingSummary } from './api/records.js';
import { Health, cronPeriodMs } from './ops/health.js';
import { logOpsPlan, planOps } from './ops/exposure.js';
import { livenessRoutes, opsRoutes, startOpsServer, type OpsServer } from './ops/http.js';
import { Metrics, countRequests } from './ops/metrics.js';
import { pruneOutbox, type Delivery } from './outbox/index.js';
import { teamOf, type ChatPoster } from './ports/index.js';
import { buildPlatforms, resealAtStart } from './platforms.js';
import { openService } from './service.js';
import {
  limitingPeople,
  limitingSuggestions,
  payingChat,
  PERSON_WINDOW_MS,
  PersonLimiter,
  storedHourlyUses,
} from './teams/index.js';
import { adoptServiceSpellings, openDatabase, serviceKey, WriteLock } from './store/index.js';

/** How long a button keeps working after it was last used. */
export const BUTTON_RETENTION_MS = 90 * 86_400_000;

export const SANDBOX_FOOTER = 'Sample data from the local sandbox. Set UAE_API_KEY for live data.';

import type { Manzil, StartOptions } from './instance.js';

export type { Manzil, StartOptions };

/** Builds everything from the environment and starts serving Slack when its tokens are set. */
export async function startManzil(options: StartOptions = {}): Promise<Manzil> {
  const config = options.config ?? loadConfig(options.env ?? process.env);
  // The terminal chat runs (no chat platform): log lines go to a file, so they never interleave with the conversation.
  const chatPlatform = Boolean(config.slack) || ('discord' in config && Boolean(config.discord));
  // The terminal's poster delivers alerts when the terminal chat runs: alone, or alongside a platform with --console.
  const withTerminal = Boolean(options.terminal) && (!chatPlatform || options.consoleChat === true);
  // MANZIL_LOG_FILE=- keeps them on stderr as usual.
  const terminalChat = withTerminal && options.serve !== false && config.logFile !== '-';
  const logger = createLogger({
    level: config.logLevel,
    secrets: config.secrets,
    format: config.logFormat,
    ...(options.writeLog
      ? { write: options.writeLog }
      : terminalChat
        ? { logFile: config.logFile, ...(options.logScreen ? { screen: options.logScreen } : {}) }
        : {}),
  });
  const metrics = new Metrics({ maxTeams: config.ops.maxTeams });
  const serve = options.serve !== false;
  // The drainer, the poller and the digests in a thread of their own: another instance on the same database file.
  const threaded =
    options.deliveryThread === true &&
    serve &&
    chatPlatform &&
    !config.sandbox &&
    !withTerminal &&
    !options.clock &&
    config.dbPath !== ':memory:';
  const budgets = splitMinuteBudget(config, threaded);

  // With the delivery thread on SQLite, the two threads' writes take turns, chat's first (see store/write-lock.ts).
  const writeLock = threaded && !config.postgres ? new WriteLock(WriteLock.buffer(), threadId, true) : undefined;
  const db = await openDatabase({
    dbPath: config.dbPath,
    postgres: config.postgres,
    writeLock,
    onError: (error) => logger.warn('a Postgres connection failed; the pool opens another', { error }),
  });
  // Demo mode, a first run with no keys (the sandbox, only the terminal chat): the sample market moves every few
  // seconds and alerts are checked often, so a saved alert fires within a minute. Any chat platform configured turns
  // it off. Its market starts at the calendar's today, not at the sandbox's fixed start (see src/demo.ts).
  const demoOn = serve && config.sandbox && Boolean(options.terminal) && !chatPlatform && config.demo.tickSeconds > 0;
  const demoFile = demoOn ? demoClockFile(config.dbPath) : undefined;
  const demoMarket = demoOn ? loadDemoMarket(demoFile, logger) : undefined;
  const { api, sandbox, shares } = await openService(budgets.chat, logger, db, metrics.upstream, demoMarket?.start);
  // State is kept per service, so the sandbox's sample ids never reach the real API (the sandbox's port changes each
  // run).
  const service = sandbox ? 'sandbox' : serviceKey(config.api.baseUrl ?? 'sandbox');
  if (!sandbox && db.sqlite) adoptServiceSpellings(db.sqlite, service);
  const demo =
    demoMarket && sandbox
      ? new DemoClock({
          market: sandbox,
          tickMs: config.demo.tickSeconds * 1000,
          logger,
          stateFile: demoFile,
          resume: demoMarket,
        })
      : undefined;
  const alertsCron = demo ? config.demo.alertsCron : config.alerts.cron;
  const buttons = db.buttons(service);
  const locationCache = db.locationCache(service);
  const locations = new LocationResolver(api, locationCache, config.locationCacheTtlMs);
  await locations.ready;
  const { alerts: alertsRepo, outbox, leases } = db;
  const heartbeat = new Heartbeat(leases, INSTANCE);
  const scheduler = new JobScheduler({ timezone: config.alerts.timezone, logger });
  // The poller and digests: here unless a delivery thread runs them; shared with the other instances on Postgres.
  const backgroundJobs = threaded ? undefined : backgroundScheduler(config, logger);
  const pollerOptions = pollerOptionsOf(config);
  const alerts = new AlertCommands({
    repo: alertsRepo,
    leases,
    holder: INSTANCE,
    outbox,
    api,
    locations,
    service,
    logger,
    ...pollerOptions,
    limits: { perChannel: config.alerts.maxPerChannel, perOwner: config.alerts.maxPerUser },
    schedule: describeSchedule(alertsCron, config.alerts.timezone),
    // A first look that could not take the poller's lease (a run held it) is taken by a run right after.
    needsFirstLook: () => (thread ? thread.runSoon(POLL_JOB) : backgroundJobs?.runSoon(POLL_JOB)),
    onReleased: () => delivery.poke(),
    teamAllows: (channel) => shares.allows(teamOf(channel)),
  });
  // Digests: market figures per area (cached for hours, shared by every channel), composed with their charts by the
  // digests job, and posted through the outbox like alerts.
  const marketCache = db.marketCache(service);
  const { market, composer } = digestComposer(config, api, sandbox ? () => sandbox.now().getTime() : undefined, {
    cache: marketCache,
    logger,
  });
  const digestRepo = db.digests;
  const digests = new DigestCommands({
    repo: digestRepo,
    locations,
    service,
    logger,
    timezone: config.alerts.timezone,
    callsPerArea: 10,
    limits: { perChannel: config.digests.maxPerChannel, areasPerDigest: config.digests.areasPerDigest },
    postNow: (channel, areas) =>
      postDigestNow(
        { composer, enqueue: (d) => outbox.enqueue(d), logger, onQueued: () => delivery.poke() },
        channel,
        areas,
      ),
  });
  // Saved alerts of another property service are not run: said plainly at start (and in /alerts list and /healthz).
  const elsewhere = await alertsRepo.countElsewhere(service);
  if (elsewhere > 0)
    logger.warn('saved alerts belong to another property service than UAE_API_BASE_URL and are not checked', {
      alerts: elsewhere,
      service,
    });
  // Alerts saved asking for what no listing can be (AED Infinity) are paused before any run, each with one message.
  await pauseImpossibleAlerts({ repo: alertsRepo, outbox, logger });
  const bot = new Bot({
    api,
    locations,
    state: buttons,
    logger,
    alerts,
    digests,
    compare: new CompareCommands({ market, locations, logger }),
    market: {
      listingContext: async (area, listing) => {
        const c = await market.listingContext(area, listing as ListingSummary);
        return c && contextText(c);
      },
    },
    // A transactions reply's figures cover its period: every page (DIGEST_MAX_PAGES at most), shared with the digests.
    periods: { transactions: (params, use) => periodTransactions(market, params, use) },
    // `/value`: from the same market cache as the digests and the cards.
    value: { estimate: (area, ask) => readValue(market, area, ask) },
    ...(sandbox ? { footer: SANDBOX_FOOTER } : {}),
    // Answers as fresh as the alerts: one older than the query's last poll (here, in the thread or elsewhere) is not
    // reused.
    searchFreshMs: config.searchFreshMs,
    lastPolled: lastPollOf(alertsRepo, service),
  });
  // Buttons unused for BUTTON_RETENTION_MS stop working (the reply says so); expired lookups are only dead weight.
  const maintenance = new StateMaintenance({
    buttons,
    buttonRetentionMs: BUTTON_RETENTION_MS,
    locations: locationCache,
    market: marketCache,
    answers: bot.searches,
    alerts: { prune: () => pruneOutbox(outbox) },
    people: { prune: () => db.people.prune(PERSON_WINDOW_MS) },
    logger,
  });
  await maintenance.runOnce();
  scheduler.register({ name: MAINTENANCE_JOB, cron: MAINTENANCE_CRON, run: () => maintenance.runOnce() });

  // Adapters get the guarded bot: requests in flight are counted, and refused politely once shutdown begins.
  const lifecycle = new Lifecycle({ timeoutMs: config.shutdownTimeoutMs, logger });
  // Each request's calls are its team's (its fair share of the month: src/teams); one person's costly asks are limited,
  // and so are the calls their typing into an area picker costs.
  const suggesting = limitingSuggestions(payingChat(bot), {
    perHour: config.teams.suggestionsPerHour,
    takeUse: storedHourlyUses(db.people, 'suggestion'),
    teamAllows: (team) => shares.allows(team),
    onLimited: (team, user) =>
      logger.warn(
        'area suggestions: one person reached the hourly limit of calls; the picker answers from the cache for now',
        {
          team,
          user,
          perHour: config.teams.suggestionsPerHour,
        },
      ),
  });
  // Outermost, so that every reply, a refusal at shutdown included, writes commands as the platform types them.
  const chatBot = typedReplies(
    guardBot(
      countRequests(limitingPeople(suggesting, new PersonLimiter(db.people, config.teams, logger)), metrics),
      lifecycle,
    ),
  );

  // The operator's endpoints: on Slack's HTTP port when Slack is served over HTTP, else on a small server of their own.
  const health = new Health({
    probe: (at) => leases.probe(at),
    poller: {
      lastRun: () => leases.lastRun(POLL_JOB),
      alerts: () => alertsRepo.count(service),
      elsewhere: () => alertsRepo.countElsewhere(service),
    },
    platforms: () => delivery.gate.status(),
    delivery: () => ({ thread: threaded, running: thread ? thread.running : true }),
    maxPollerAgeMs: 3 * cronPeriodMs(alertsCron, config.alerts.timezone),
    upstream: { sandbox: Boolean(sandbox), budgetLeft: () => api.budgetLeft() },
    stopping: () => lifecycle.isStopping,
    startedAt: Date.now(),
  });
  metrics.watch({
    outbox: () => outbox.stats(),
    platforms: () => delivery.gate.status(),
    budget: () => api.budgetLeft(),
    serviceQuota: () => api.serviceQuota(),
  });
  const routes = opsRoutes(health, metrics, logger, { token: config.ops.token });
  // What is served where (src/ops/exposure.ts): Slack's public port answers a liveness /healthz only, unless asked.
  const opsPlan = planOps(config, { chatPlatform, ops: options.ops === true });

  // Built first, started last: the stop steps are registered before anything starts, so a start that fails (a wrong
  // Discord token, a port in use) closes whatever was already opened and the process can exit.
  let slackPort: number | undefined;
  await resealAtStart(config, db, logger);
  const platforms = buildPlatforms({
    config,
    bot: chatBot,
    db,
    logger,
    host: options.host,
    track: (work) => lifecycle.admit(work),
    routes: opsPlan.slackPort === 'all' ? routes : livenessRoutes(health),
    ...(options.discord ? { discordTimings: options.discord } : {}),
    leadership: { leases, holder: INSTANCE, lapsed: () => heartbeat.lapsed() },
  });

  // Alerts: the poller queues deliveries; the drainer posts them through each platform's poster.
  const posters: ChatPoster[] = [
    ...platforms.list.map((p) => p.poster),
    ...(options.terminal && withTerminal ? [options.terminal] : []),
  ];
  const events = {
    delivered: metrics.alertDelivered.bind(metrics),
    failed: metrics.alertFailed.bind(metrics),
    pollerRun: metrics.pollerRun.bind(metrics),
  };
  // In the delivery thread, or here: the drainer, and the poller and digests jobs that feed it.
  const thread = threaded
    ? new DeliveryThread({
        init: {
          config: budgets.background,
          service,
          alertsCron,
          logFormat: resolveFormat(config.logFormat, options.writeLog !== undefined),
          writeLock: writeLock?.buffer,
        },
        instancePrefix: INSTANCE,
        logger,
        writeLog: options.writeLog ?? ((line) => void process.stderr.write(`${line}\n`)),
        events: { ...events, upstream: metrics.upstream },
        onDied: (id, threadId) => {
          writeLock?.releaseIfHeldBy(threadId);
          heartbeat
            .markGone(id)
            .catch((error: unknown) =>
              logger.error('could not mark the dead delivery thread gone; its claims wait out their lease', { error }),
            );
        },
      })
    : undefined;
  const here = thread
    ? undefined
    : composeBackground({
        config,
        api,
        service,
        repos: { alerts: alertsRepo, outbox, leases, digests: digestRepo },
        buttons,
        composer,
        posters,
        logger,
        instance: INSTANCE,
        heartbeat,
        scheduler: backgroundJobs!,
        alertsCron,
        shares,
        signal: lifecycle.signal,
        events,
        ...(options.clock ? { clock: options.clock } : {}),
      });
  const delivery: Delivery = thread ?? here!.drainer;
  const poll = thread ? () => thread.poll() : here!.poll;
  const digestRun = thread ? () => thread.digests() : here!.digests;
  let opsServer: OpsServer | undefined;

  // The stop steps, in the order they run: finish the requests in flight and the poller's current run, let posts in
  // flight finish (the rest stay in the outbox for the next start), then close from the outside in.
  lifecycle.onDrain('requests in flight', () => lifecycle.inFlight.idle());
  if (demo) lifecycle.onDrain('demo clock', () => demo.stop());
  lifecycle.onDrain('jobs', async () => {
    await scheduler.stop();
    await backgroundJobs?.stop();
  });
  lifecycle.onDrain('alerts delivery', () => delivery.stop());
  // Closed after the drains, so /healthz says "stopping" (503) while they run.
  lifecycle.onStop('ops http', () => opsServer?.close());
  for (const platform of platforms.list) lifecycle.onStop(platform.name, () => platform.stop());
  lifecycle.onStop('api client', () => api.close());
  if (sandbox) lifecycle.onStop('sandbox', () => sandbox.close());
  lifecycle.onStop('heartbeat', () => heartbeat.stop());
  lifecycle.onStop('database', () => db.close());

  if (serve) {
    try {
      for (const platform of platforms.list) {
        const port = await platform.start();
        if (platform.name === 'slack') slackPort = port;
      }
      await thread?.open();
      await heartbeat.start();
      scheduler.start();
      await backgroundJobs?.start();
      delivery.start();
      demo?.start();
      logger.info('alerts: poller scheduled', {
        cron: alertsCron,
        timezone: config.alerts.timezone,
        platforms: posters.map((p) => p.platform),
        deliveryThread: threaded,
      });

      if (opsPlan.server) opsServer = await startOpsServer(routes, opsPlan.server.port, opsPlan.server.host);
      logOpsPlan(opsPlan, config, logger, { slackPort, server: opsServer });
    } catch (e) {
      logger.error('start failed; closing what was opened', { error: e });
      await lifecycle.stop('start failed');
      // Printed as it is: masked like every log line, whatever a library put in its message.
      throw new StartError(maskSecrets(e instanceof Error ? e.message : String(e), config.secrets));
    }
  }

  const shutdown = (reason?: string) => lifecycle.stop(reason);
  return {
    config,
    bot: chatBot,
    api,
    logger,
    sandbox,
    demo,
    slack: platforms.slack,
    slackPort,
    discord: platforms.discord,
    lifecycle,
    alerts: { repo: alertsRepo, poll, drainer: delivery, outbox, leases },
    deliveryThread: threaded,
    digests: { repo: digestRepo, run: digestRun, market },
    jobs: scheduler,
    heartbeat,
    shutdown,
    stop: () => shutdown(),
    metrics,
    health,
    opsPort: opsServer?.port,
    opsHost: opsServer?.host,
  };
}

/**
 * Starting failed after the configuration was accepted (a platform refused the login, a port is taken): said in one
 * line.
 */
export class StartError extends Error {
  override readonly name = 'StartError';
}

/** This process's name on outbox claims, job leases and its heartbeat. */
const INSTANCE = `${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
/** Old button state, expired lookups and old outbox entries are pruned hourly. */
const MAINTENANCE_JOB = 'maintenance';
const MAINTENANCE_CRON = '17 * * * *';
