// The store as an instance opens it, the service its state is kept under, what is checked in it at start, and the
// pruning that keeps it the same size over months. Every role opens its store here.
import { threadId } from 'node:worker_threads';
import { pauseImpossibleAlerts } from '../alerts/index.js';
import { StateMaintenance } from '../bot/index.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { pruneOutbox } from '../outbox/index.js';
import type { Sandbox } from '../sandbox/index.js';
import { PERSON_WINDOW_MS } from '../teams/index.js';
import {
  adoptServiceSpellings,
  openDatabase,
  serviceKey,
  WriteLock,
  type Database,
  type OpenedDatabase,
} from '../store/index.js';
import { resealAtStart } from './platforms.js';

/** This process's name on outbox claims, job leases and its heartbeat. */
export const INSTANCE = `${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

/** How long a button keeps working after it was last used. */
export const BUTTON_RETENTION_MS = 90 * 86_400_000;

/** Old button state, expired lookups and old outbox entries are pruned hourly. */
export const MAINTENANCE_JOB = 'maintenance';
export const MAINTENANCE_CRON = '17 * * * *';

/**
 * The main thread's write lock when a delivery thread shares the SQLite file: the two threads' writes take turns, chat's
 * first (see store/write-lock.ts). None on Postgres or without the thread.
 */
export const mainWriteLock = (config: Config, threaded: boolean) =>
  threaded && !config.postgres ? new WriteLock(WriteLock.buffer(), threadId, true) : undefined;

/** The delivery thread's side of the same lock, from the buffer the main thread handed it. */
export const threadWriteLock = (buffer: SharedArrayBuffer | undefined) =>
  buffer && new WriteLock(buffer, threadId, false);

/** The database the configuration names (SQLite file or Postgres). */
export function openInstanceDatabase(config: Config, logger: Logger, writeLock?: WriteLock): Promise<OpenedDatabase> {
  return openDatabase({
    dbPath: config.dbPath,
    postgres: config.postgres,
    writeLock,
    onError: (error) => logger.warn('a Postgres connection failed; the pool opens another', { error }),
  });
}

/**
 * State is kept per service, so the sandbox's sample ids never reach the real API (the sandbox's port changes each run).
 */
export function serviceOf(config: Config, sandbox: Sandbox | undefined, db: OpenedDatabase): string {
  const service = sandbox ? 'sandbox' : serviceKey(config.api.baseUrl ?? 'sandbox');
  if (!sandbox && db.sqlite) adoptServiceSpellings(db.sqlite, service);
  return service;
}

/**
 * Once per process that owns the store (not the delivery thread, whose parent has done it): saved alerts of another
 * property service are said plainly; alerts asking for what no listing can be (AED Infinity) are paused before any run,
 * each with one message; Add to Slack's installations sealed with a previous key are sealed again.
 */
export async function startChecks(config: Config, db: Database, service: string, logger: Logger): Promise<void> {
  // Said at start (and in /alerts list and /healthz): they are not run.
  const elsewhere = await db.alerts.countElsewhere(service);
  if (elsewhere > 0)
    logger.warn('saved alerts belong to another property service than UAE_API_BASE_URL and are not checked', {
      alerts: elsewhere,
      service,
    });
  await pauseImpossibleAlerts({ repo: db.alerts, outbox: db.outbox, logger });
  await resealAtStart(config, db, logger);
}

/**
 * Buttons unused for BUTTON_RETENTION_MS stop working (the reply says so); expired lookups are only dead weight.
 * `answers`: the bot's answer cache, on the chat side.
 */
export function storeMaintenance(
  db: Database,
  service: string,
  logger: Logger,
  answers?: { purgeExpired(): void },
): StateMaintenance {
  return new StateMaintenance({
    buttons: db.buttons(service),
    buttonRetentionMs: BUTTON_RETENTION_MS,
    locations: db.locationCache(service),
    market: db.marketCache(service),
    ...(answers ? { answers } : {}),
    alerts: { prune: () => pruneOutbox(db.outbox) },
    people: { prune: () => db.people.prune(PERSON_WINDOW_MS) },
    logger,
  });
}
