// An instance that serves chat (the roles `chat` and `both`): the order in which its parts are built, started and
// stopped. Its background runs here, or in the delivery thread, which composes the `background` role.
import type { Config } from '../config.js';
import { DemoClock, demoClockFile, loadDemoMarket } from '../demo.js';
import { Lifecycle } from '../lifecycle.js';
import { createLogger, maskSecrets, resolveFormat } from '../log.js';
import { DeliveryThread } from '../background/thread.js';
import { Heartbeat, JobScheduler } from '../jobs/index.js';
import { logOpsPlan } from '../ops/exposure.js';
import { startOpsServer, type OpsServer } from '../ops/http.js';
import { Metrics } from '../ops/metrics.js';
import type { Delivery } from '../outbox/index.js';
import type { ChatPoster } from '../ports/index.js';
import { backgroundScheduler, composeBackground, digestComposer, splitMinuteBudget } from './background.js';
import { composeChat } from './chat.js';
import { composeOps } from './ops.js';
import { buildPlatforms } from './platforms.js';
import { openService } from './service.js';
import {
  INSTANCE,
  MAINTENANCE_CRON,
  MAINTENANCE_JOB,
  mainWriteLock,
  openInstanceDatabase,
  serviceOf,
  startChecks,
  storeMaintenance,
} from './store.js';
import { chatPlatformIn, withTerminalIn } from './roles.js';
import type { Manzil, StartOptions } from './types.js';

export async function composeInstance(config: Config, role: 'chat' | 'both', options: StartOptions): Promise<Manzil> {
  // The thread opens its own store and service: an in-memory database or an embedded sandbox would not be the same one.
  if (role === 'chat' && (config.sandbox || config.dbPath === ':memory:'))
    throw new Error(
      'the chat role runs the background in a delivery thread: it needs a database file and the real service',
    );
  const chatPlatform = chatPlatformIn(config);
  const withTerminal = withTerminalIn(config, options);
  const serve = options.serve !== false;
  // The terminal chat runs (no chat platform): log lines go to a file, so they never interleave with the conversation.
  // MANZIL_LOG_FILE=- keeps them on stderr as usual.
  const terminalChat = withTerminal && serve && config.logFile !== '-';
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
  const threaded = role === 'chat';
  const budgets = splitMinuteBudget(config, threaded);
  const writeLock = mainWriteLock(config, threaded);
  const db = await openInstanceDatabase(config, logger, writeLock);
  // Demo mode, a first run with no keys (the sandbox, only the terminal chat): the sample market moves every few
  // seconds and alerts are checked often, so a saved alert fires within a minute. Any chat platform configured turns
  // it off. Its market starts at the calendar's today, not at the sandbox's fixed start (see src/demo.ts).
  const demoOn = serve && config.sandbox && Boolean(options.terminal) && !chatPlatform && config.demo.tickSeconds > 0;
  const demoFile = demoOn ? demoClockFile(config.dbPath) : undefined;
  const demoMarket = demoOn ? loadDemoMarket(demoFile, logger) : undefined;
  const { api, sandbox, shares } = await openService(budgets.chat, logger, db, metrics.upstream, demoMarket?.start);
  const service = serviceOf(config, sandbox, db);
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
  const heartbeat = new Heartbeat(db.leases, INSTANCE);
  const scheduler = new JobScheduler({ timezone: config.alerts.timezone, logger });
  // The poller and digests: here unless a delivery thread runs them; shared with the other instances on Postgres.
  const backgroundJobs = threaded ? undefined : backgroundScheduler(config, logger);
  // Market figures per area, shared by the chat's answers and the digests; their ages on the market's clock.
  const marketNow = sandbox ? () => sandbox.now().getTime() : undefined;
  const { market, composer } = digestComposer(config, api, marketNow, {
    cache: db.marketCache(service, marketNow),
    logger,
  });
  const lifecycle = new Lifecycle({ timeoutMs: config.shutdownTimeoutMs, logger });
  const { bot, chatBot, home } = await composeChat({
    config,
    db,
    api,
    sandboxed: Boolean(sandbox),
    shares,
    service,
    logger,
    metrics,
    lifecycle,
    market,
    composer,
    alertsCron,
    ...(options.clock ? { clock: options.clock } : {}),
    background: {
      runSoon: (job) => (thread ? thread.runSoon(job) : backgroundJobs?.runSoon(job)),
      poke: () => delivery.poke(),
    },
  });
  await startChecks(config, db, service, logger);
  const maintenance = storeMaintenance(db, service, logger, bot.searches);
  await maintenance.runOnce();
  scheduler.register({ name: MAINTENANCE_JOB, cron: MAINTENANCE_CRON, run: () => maintenance.runOnce() });

  const ops = composeOps({
    config,
    db,
    api,
    sandboxed: Boolean(sandbox),
    service,
    alertsCron,
    logger,
    metrics,
    lifecycle,
    chatPlatform,
    ops: options.ops === true,
    delivery: () => delivery,
    threaded,
    running: () => (thread ? thread.running : true),
  });

  // Built first, started last: the stop steps are registered before anything starts, so a start that fails (a wrong
  // Discord token, a port in use) closes whatever was already opened and the process can exit.
  let slackPort: number | undefined;
  const platforms = buildPlatforms({
    config,
    bot: chatBot,
    home,
    db,
    logger,
    host: options.host,
    track: (work) => lifecycle.admit(work),
    routes: ops.slackRoutes,
    ...(options.discord ? { discordTimings: options.discord } : {}),
    leadership: { leases: db.leases, holder: INSTANCE, lapsed: () => heartbeat.lapsed() },
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
  // In the delivery thread (which composes the `background` role), or here: the drainer, and the jobs that feed it.
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
        repos: { alerts: db.alerts, outbox: db.outbox, leases: db.leases, digests: db.digests },
        buttons: db.buttons(service),
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

      if (ops.plan.server) opsServer = await startOpsServer(ops.routes, ops.plan.server.port, ops.plan.server.host);
      logOpsPlan(ops.plan, config, logger, { slackPort, server: opsServer });
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
    alerts: { repo: db.alerts, poll, drainer: delivery, outbox: db.outbox, leases: db.leases },
    deliveryThread: threaded,
    digests: { repo: db.digests, run: digestRun, market },
    jobs: scheduler,
    heartbeat,
    shutdown,
    stop: () => shutdown(),
    metrics,
    health: ops.health,
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
