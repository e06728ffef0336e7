// The background role alone: an instance that answers no chat and only delivers (the delivery thread, `manzil poll
// --once`). It opens its own store, service client and posters, and wires the drainer and the jobs as the main thread
// does (background.ts).
import type { RunReport } from '../alerts/index.js';
import type { Config } from '../config.js';
import type { runDigests } from '../digests/index.js';
import { Heartbeat, type Scheduler } from '../jobs/index.js';
import { createLogger, type Logger } from '../log.js';
import type { UpstreamCall } from '../ops/metrics.js';
import type { OutboxDrainer } from '../outbox/index.js';
import type { OutboxRepo } from '../store/index.js';
import { backgroundScheduler, composeBackground, digestComposer, type BackgroundEvents } from './background.js';
import { buildPosters } from './platforms.js';
import { openService } from './service.js';
import { INSTANCE, openInstanceDatabase, serviceOf, startChecks, storeMaintenance, threadWriteLock } from './store.js';

/** In the delivery thread: what the main thread decided and hands over, and where its logs and counters go. */
export interface InThread {
  /** The thread's name on claims, leases and its heartbeat. */
  instance: string;
  service: string;
  alertsCron: string;
  /** SQLite only: the write lock's buffer shared with the main thread. */
  writeLock: SharedArrayBuffer | undefined;
  logger: Logger;
  onUpstream(call: UpstreamCall): void;
  events: BackgroundEvents;
}

export interface BackgroundOptions {
  /** Set in the delivery thread; without it, the process owns the store and checks it at start (`poll --once`). */
  thread?: InThread;
}

export interface BackgroundSide {
  logger: Logger;
  drainer: OutboxDrainer;
  outbox: OutboxRepo;
  heartbeat: Heartbeat;
  scheduler: Scheduler;
  poll(): Promise<RunReport>;
  digests(): ReturnType<typeof runDigests>;
  /** The heartbeat row first (a claim is only safe once this instance is known alive), then the drainer and the jobs. */
  start(): Promise<void>;
  /** Ends a run in progress, lets posts in flight finish, then closes from the outside in. */
  stop(): Promise<void>;
}

const quiet: BackgroundEvents = { delivered: () => {}, failed: () => {}, pollerRun: () => {} };

export async function composeBackgroundSide(config: Config, o: BackgroundOptions = {}): Promise<BackgroundSide> {
  const t = o.thread;
  const logger =
    t?.logger ?? createLogger({ level: config.logLevel, secrets: config.secrets, format: config.logFormat });
  // Another instance on the same database: in the thread, its writes take turns with the main thread's.
  const db = await openInstanceDatabase(config, logger, threadWriteLock(t?.writeLock));
  const { api, sandbox, shares } = await openService(config, logger, db, t?.onUpstream);
  const service = t?.service ?? serviceOf(config, sandbox, db);
  if (!t) {
    await startChecks(config, db, service, logger);
    await storeMaintenance(db, service, logger).runOnce();
  }
  const heartbeat = new Heartbeat(db.leases, t?.instance ?? INSTANCE);
  const scheduler = backgroundScheduler(config, logger);
  const stopping = new AbortController();
  const { drainer, poll, digests } = composeBackground({
    config,
    api,
    service,
    repos: { alerts: db.alerts, outbox: db.outbox, leases: db.leases, digests: db.digests },
    buttons: db.buttons(service),
    composer: digestComposer(config, api, sandbox ? () => sandbox.now().getTime() : undefined, {
      cache: db.marketCache(service, sandbox ? () => sandbox.now().getTime() : undefined),
      logger,
    }).composer,
    posters: buildPosters(config, db, logger),
    logger,
    instance: t?.instance ?? INSTANCE,
    heartbeat,
    scheduler,
    alertsCron: t?.alertsCron ?? config.alerts.cron,
    shares,
    signal: stopping.signal,
    ...(t ? { ownThread: true } : {}),
    events: t?.events ?? quiet,
  });
  return {
    logger,
    drainer,
    outbox: db.outbox,
    heartbeat,
    scheduler,
    poll,
    digests,
    async start() {
      await heartbeat.start();
      drainer.start();
      await scheduler.start();
    },
    async stop() {
      stopping.abort();
      await scheduler.stop();
      await drainer.stop();
      await heartbeat.stop();
      await api.close();
      await sandbox?.close();
      await db.close();
    },
  };
}
