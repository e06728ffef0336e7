// An alerts rig: the sandbox on loopback, the real API client, a real SQLite file, the real resolver, and a
// chat platform that records what it is asked to post (the port's contract, as the terminal chat implements it). Also
// instances on a shared Postgres (pgInstance), for what only runs there.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import {
  ALERT_KINDS,
  AlertCommands,
  alertKind,
  pollOnce,
  type PollerDeps,
  type PollerOptions,
} from '../../src/alerts/index.js';
import { ApiClient } from '../../src/api/index.js';
import { KindRegistry, OutboxDrainer, type DeliveryOptions } from '../../src/outbox/index.js';
import type { ChatPoster, PostFailure } from '../../src/ports/index.js';
import type { Reply } from '../../src/views/model.js';
import { LocationResolver } from '../../src/locations/index.js';
import { createLogger } from '../../src/log.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import {
  createAlertsRepo,
  createLeaseRepo,
  createLocationCacheRepo,
  createOutboxRepo,
  openDatabase,
  openStore,
  type Database,
  type LeaseRepo,
  type OutboxRepo,
  type Store,
} from '../../src/store/index.js';

export interface Post {
  channel: string;
  deliveryId: string;
  reply: Reply;
  at: number;
}

/** A platform that records posts; it can be told to fail the next posts. */
export class RecordingPoster implements ChatPoster {
  readonly posts: Post[] = [];
  /** Every attempt, refused ones included. */
  readonly attempts: { channel: string; deliveryId: string; at: number; ok: boolean }[] = [];
  private failures: PostFailure[] = [];
  constructor(readonly platform = 'test') {}
  failNext(...failures: PostFailure[]) {
    this.failures.push(...failures);
  }
  async post(channel: string, reply: Reply, deliveryId: string) {
    const failure = this.failures.shift();
    this.attempts.push({ channel, deliveryId, at: Date.now(), ok: !failure });
    if (failure) throw failure;
    this.posts.push({ channel, deliveryId, reply, at: Date.now() });
    return { messageId: `m${this.posts.length}` };
  }
  /** Every listing id posted as a card, in order. */
  postedIds(): string[] {
    return this.posts.flatMap((p) =>
      p.reply.blocks.flatMap((b) =>
        b.kind === 'card' && b.card.url ? [b.card.url.match(/(\d+)(?:\D*)$/)?.[1] ?? b.card.url] : [],
      ),
    );
  }
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});
/** Runs after the test, before what was set up earlier (a database dropped after the instances on it are closed). */
export const onCleanup = (fn: () => Promise<void> | void) => cleanups.push(fn);

export interface Rig {
  sandbox: Sandbox;
  api: ApiClient;
  store: Store;
  repo: ReturnType<typeof createAlertsRepo>;
  outbox: OutboxRepo;
  leases: LeaseRepo;
  /**
   * A drainer on this rig's outbox with other posters or options (a second instance, a platform that fails); `outbox`:
   * the rig's outbox seen through a wrapper (one that records its claims).
   */
  newDrainer(o?: {
    posters?: ChatPoster[];
    holder?: string;
    options?: Partial<DeliveryOptions>;
    now?: () => number;
    lapsed?: () => Promise<string[]>;
    outbox?: OutboxRepo;
  }): OutboxDrainer;
  commands: AlertCommands;
  poster: RecordingPoster;
  drainer: OutboxDrainer;
  dbFile: string;
  logs: string[];
  logger: ReturnType<typeof createLogger>;
  service: string;
  poll(options?: Partial<PollerOptions>): ReturnType<typeof pollOnce>;
  upstreamCalls(path?: string): number;
  reopen(): Rig;
}

export const POLLER: PollerOptions = { maxPages: 3, priceDropPct: 1, deadlineMs: 5_000 };

export async function alertsRig(
  options: {
    dbFile?: string;
    sandbox?: Sandbox;
    perChannelIntervalMs?: number;
    limits?: { perChannel: number; perOwner: number };
  } = {},
): Promise<Rig> {
  const sandbox = options.sandbox ?? createSandbox({ key: 'alerts-key' });
  if (!options.sandbox) {
    await sandbox.listen();
    cleanups.push(() => sandbox.close());
  }
  const dir = options.dbFile ? path.dirname(options.dbFile) : fs.mkdtempSync(path.join(os.tmpdir(), 'manzil-alerts-'));
  if (!options.dbFile) cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const dbFile = options.dbFile ?? path.join(dir, 'alerts.db');
  const logs: string[] = [];
  const logger = createLogger({ level: 'debug', write: (l) => logs.push(l) });
  const build = (): Rig => {
    const api = new ApiClient({
      baseUrl: sandbox.url!,
      key: sandbox.key,
      retry: { attempts: 2, baseDelayMs: 5, maxDelayMs: 10 },
      breaker: { cooldownMs: 50 },
      logger,
    });
    const store = openStore(dbFile);
    let closed = false;
    cleanups.push(async () => {
      if (closed) return;
      closed = true;
      await api.close();
      store.close();
    });
    const repo = createAlertsRepo(store);
    const outbox = createOutboxRepo(store);
    const leases = createLeaseRepo(store);
    const service = sandbox.url!;
    const commands = new AlertCommands({
      repo,
      leases,
      holder: 'rig',
      outbox,
      api,
      service,
      logger,
      locations: new LocationResolver(api, createLocationCacheRepo(store, Date.now, service), 3_600_000),
      limits: options.limits ?? { perChannel: 25, perOwner: 10 },
      schedule: 'every 15 minutes',
      ...POLLER,
    });
    const poster = new RecordingPoster();
    const kinds = new KindRegistry().register(ALERT_KINDS, alertKind());
    const newDrainer: Rig['newDrainer'] = (o = {}) =>
      new OutboxDrainer({
        outbox: o.outbox ?? outbox,
        kinds,
        posters: o.posters ?? [poster],
        logger,
        ...(o.holder ? { holder: o.holder } : {}),
        ...(o.now ? { now: o.now } : {}),
        ...(o.lapsed ? { lapsed: o.lapsed } : {}),
        options: {
          giveUpMs: 48 * 3_600_000,
          perChannelIntervalMs: options.perChannelIntervalMs ?? 0,
          baseBackoffMs: 1,
          maxBackoffMs: 2,
          leaseMs: 200,
          lookupRetryMs: 1,
          ...o.options,
        },
      });
    const drainer = newDrainer();
    return {
      sandbox,
      api,
      store,
      repo,
      outbox,
      leases,
      newDrainer,
      commands,
      poster,
      drainer,
      dbFile,
      logs,
      logger,
      service,
      poll: (o: Partial<PollerOptions> = {}) =>
        pollOnce({ api, repo, leases, service, logger, options: { ...POLLER, ...o } }),
      upstreamCalls: (p?: string) => sandbox.requests().filter((r) => !p || r.path === p).length,
      reopen: build,
    };
  };
  return build();
}

export const ctx = (channel = 'test:c1', user = 'U1', admin = false) => ({ user, channel, isAdmin: async () => admin });

/** Waits (real time) until no outbox entry is under a claim that has not run out: another drainer may take them all. */
export async function claimsRunOut(outbox: OutboxRepo, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    const now = Date.now();
    if (
      (await outbox.list({ state: ['claimed', 'sending'] })).every(
        (r) => r.claimedUntil === null || r.claimedUntil < now,
      )
    )
      return;
    if (now > end) throw new Error(`outbox claims still held after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * An instance on a shared Postgres, as `manzil start` with DATABASE_URL runs one (or on a SQLite file): its own pool,
 * client and commands.
 */
export interface PgInstance {
  holder: string;
  db: Database;
  commands: AlertCommands;
  /** What its poller runs with: its holder name, and only the test platform's searches. */
  deps: Omit<PollerDeps, 'options'>;
}

/** A new instance on the Postgres at `url`, on the rig's sandbox and log; closed after the test. */
export const pgInstance = (rig: Rig, url: string, holder: string): Promise<PgInstance> =>
  dbInstance(rig, { dbPath: '', postgres: { url, poolSize: 4 } }, holder);

/** A new instance on the database `options` open (a SQLite file, or a Postgres), on the rig's sandbox and log. */
export async function dbInstance(
  rig: Rig,
  options: Parameters<typeof openDatabase>[0],
  holder: string,
): Promise<PgInstance> {
  const { sandbox, logger, service } = rig;
  const db = await openDatabase(options);
  const api = new ApiClient({
    baseUrl: sandbox.url!,
    key: sandbox.key,
    retry: { attempts: 2, baseDelayMs: 5, maxDelayMs: 10 },
    breaker: { cooldownMs: 50 },
    logger,
  });
  cleanups.push(async () => {
    await api.close();
    await db.close();
  });
  const commands = new AlertCommands({
    repo: db.alerts,
    leases: db.leases,
    holder,
    outbox: db.outbox,
    api,
    service,
    logger,
    locations: new LocationResolver(api, db.locationCache(service), 3_600_000),
    limits: { perChannel: 25, perOwner: 10 },
    schedule: 'every 15 minutes',
    ...POLLER,
  });
  return {
    holder,
    db,
    commands,
    deps: { api, repo: db.alerts, leases: db.leases, service, logger, holder, platforms: ['test'] },
  };
}
