// An alerts rig: the sandbox on loopback, the real API client, a real SQLite file, the real resolver, and a
// chat platform that records what it is asked to post (the port's contract, as the terminal chat implements it).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { ALERT_KINDS, AlertCommands, alertKind, pollOnce, type PollerOptions } from '../../src/alerts/index.js';
import { ApiClient } from '../../src/api/index.js';
import { KindRegistry, OutboxDrainer, type DeliveryOptions } from '../../src/outbox/index.js';
import type { ChatPoster, PostFailure } from '../../src/ports/index.js';
import type { Reply } from '../../src/views/model.js';
import { LocationResolver } from '../../src/locations/index.js';
import { createLogger } from '../../src/log.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createAlertsRepo, createLeaseRepo, createLocationCacheRepo, createOutboxRepo, openStore, type LeaseRepo, type OutboxRepo, type Store } from '../../src/store/index.js';

export interface Post {
  place: string;
  deliveryId: string;
  reply: Reply;
  at: number;
}

/** A platform that records posts; it can be told to fail the next posts. */
export class RecordingPoster implements ChatPoster {
  readonly posts: Post[] = [];
  /** Every attempt, refused ones included. */
  readonly attempts: { place: string; deliveryId: string; at: number; ok: boolean }[] = [];
  private failures: PostFailure[] = [];
  constructor(readonly platform = 'test') {}
  failNext(...failures: PostFailure[]) {
    this.failures.push(...failures);
  }
  async post(place: string, reply: Reply, deliveryId: string) {
    const failure = this.failures.shift();
    this.attempts.push({ place, deliveryId, at: Date.now(), ok: !failure });
    if (failure) throw failure;
    this.posts.push({ place, deliveryId, reply, at: Date.now() });
    return { messageId: `m${this.posts.length}` };
  }
  /** Every listing id posted as a card, in order. */
  postedIds(): string[] {
    return this.posts.flatMap((p) => p.reply.blocks.flatMap((b) => (b.kind === 'card' && b.card.url ? [b.card.url.match(/(\d+)(?:\D*)$/)?.[1] ?? b.card.url] : [])));
  }
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

export interface Rig {
  sandbox: Sandbox;
  api: ApiClient;
  store: Store;
  repo: ReturnType<typeof createAlertsRepo>;
  outbox: OutboxRepo;
  leases: LeaseRepo;
  /** A drainer on this rig's outbox with other posters or options (a second instance, a platform that fails). */
  newDrainer(o?: { posters?: ChatPoster[]; holder?: string; options?: Partial<DeliveryOptions>; now?: () => number; lapsed?: () => Promise<string[]> }): OutboxDrainer;
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

export async function alertsRig(options: { dbFile?: string; sandbox?: Sandbox; perPlaceIntervalMs?: number; limits?: { perPlace: number; perOwner: number } } = {}): Promise<Rig> {
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
    const api = new ApiClient({ baseUrl: sandbox.url!, key: sandbox.key, retry: { attempts: 2, baseDelayMs: 5, maxDelayMs: 10 }, breaker: { cooldownMs: 50 }, logger });
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
      limits: options.limits ?? { perPlace: 25, perOwner: 10 },
      schedule: 'every 15 minutes',
      ...POLLER,
    });
    const poster = new RecordingPoster();
    const kinds = new KindRegistry().register(ALERT_KINDS, alertKind());
    const newDrainer: Rig['newDrainer'] = (o = {}) =>
      new OutboxDrainer({
        outbox,
        kinds,
        posters: o.posters ?? [poster],
        logger,
        ...(o.holder ? { holder: o.holder } : {}),
        ...(o.now ? { now: o.now } : {}),
        ...(o.lapsed ? { lapsed: o.lapsed } : {}),
        options: { giveUpMs: 48 * 3_600_000, perPlaceIntervalMs: options.perPlaceIntervalMs ?? 0, baseBackoffMs: 1, maxBackoffMs: 2, leaseMs: 200, lookupRetryMs: 1, ...o.options },
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
      poll: (o: Partial<PollerOptions> = {}) => pollOnce({ api, repo, leases, service, logger, options: { ...POLLER, ...o } }),
      upstreamCalls: (p?: string) => sandbox.requests().filter((r) => !p || r.path === p).length,
      reopen: build,
    };
  };
  return build();
}

export const ctx = (place = 'test:c1', user = 'U1', admin = false) => ({ user, place, isAdmin: async () => admin });
