// A digests rig: the sandbox on loopback, the real API client, MarketData and MarketDigestComposer over it, a real
// SQLite file with the real repositories, the real resolver, and a clock the test moves (the job's, the commands' and
// the store's). Also raw HTTP reads of the sandbox, for figures computed here independently of src/market, and a
// loopback proxy in front of the sandbox that fails the calls for chosen areas (the sandbox's faults go by path only).
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { ApiClient, type ApiClientOptions } from '../../src/api/index.js';
import {
  DigestCommands,
  MarketDigestComposer,
  postDigestNow,
  runDigests,
  digestOrders,
  type DigestComposer,
  type DigestRunReport,
} from '../../src/digests/index.js';
import { LocationResolver } from '../../src/locations/index.js';
import { createLogger } from '../../src/log.js';
import { MarketData, type MarketOptions } from '../../src/market/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { listParts } from '../../src/standing-orders/run.js';
import {
  createDigestRepo,
  createLeaseRepo,
  createLocationCacheRepo,
  createOutboxRepo,
  openStore,
  type DigestRepo,
  type LeaseRepo,
  type LocationCacheRepo,
  type OutboxRepo,
  type OutboxRow,
  type Store,
} from '../../src/store/index.js';
import { createPgDigestRepo } from '../../src/store/pg/digests.js';
import { createPgLeaseRepo } from '../../src/store/pg/leases.js';
import { createPgLocationCacheRepo } from '../../src/store/pg/location-cache.js';
import { openPgStore } from '../../src/store/pg/open.js';
import { createPgOutboxRepo } from '../../src/store/pg/outbox.js';
import { startManzil, type Manzil } from '../../src/app/index.js';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
export const SERVICE = 'sandbox';
export const MARINA = { id: 50, name: 'Dubai Marina' };
export const BUSINESS_BAY = { id: 86, name: 'Business Bay' };

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});
export const onCleanup = (fn: () => Promise<void> | void) => cleanups.push(fn);

/** The test's clock: set and moved by hand. */
export class Clock {
  constructor(public t: number) {}
  readonly now = (): number => this.t;
  set(iso: string | number): void {
    this.t = typeof iso === 'number' ? iso : Date.parse(iso);
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

/** One "instance": its own connection to the database file, its repositories, its client and its market cache. */
export interface Instance extends PgDigestInstance {
  store: Store;
}

/** An instance on a shared Postgres (pg-boss shares the runs there): as Instance, on a pool of its own. */
export interface PgDigestInstance {
  repo: DigestRepo;
  leases: LeaseRepo;
  outbox: OutboxRepo;
  api: ApiClient;
  market: MarketData;
  composer: DigestComposer;
  /** One run of the digests job as this instance (its holder name), on the rig's clock; `only`: one digest's part. */
  run(o?: { composer?: DigestComposer; only?: number }): Promise<DigestRunReport>;
  /** A shared run's parts, as this instance lists them (pg-boss on Postgres): the due digests' ids. */
  due(): Promise<number[]>;
  commands(o?: { perChannel?: number; timezone?: string }): DigestCommands;
  close(): Promise<void>;
}

export interface DigestRig {
  sandbox: Sandbox;
  clock: Clock;
  dbFile: string;
  logs: string[];
  /** A new instance on the same database file (a second process, or this one restarted). */
  instance(
    holder: string,
    o?: { client?: Partial<ApiClientOptions>; market?: MarketOptions; baseUrl?: string },
  ): Instance;
  /**
   * A new instance on the Postgres at `url` (its repositories on the rig's clock, as on the file); closed after the
   * test.
   */
  pgInstance(holder: string, url: string): Promise<PgDigestInstance>;
  logger: ReturnType<typeof createLogger>;
  /** Digests queued in the outbox (kind `digest`), oldest first, read with a fresh connection. */
  digests(): Promise<OutboxRow[]>;
  notices(): Promise<OutboxRow[]>;
  /** Upstream requests the sandbox saw (to one path), since the last clearRequests. */
  upstream(path?: string): number;
  /** Every page of an operation until an empty one, over raw HTTP (not through the client or the cache). */
  raw(path: string, params: Record<string, string>): Promise<Record<string, unknown>[]>;
}

export async function digestRig(o: { start?: string; sandbox?: Sandbox } = {}): Promise<DigestRig> {
  const sandbox = o.sandbox ?? createSandbox({ key: 'digests-key' });
  if (!o.sandbox) {
    await sandbox.listen();
    cleanups.push(() => sandbox.close());
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manzil-digests-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const dbFile = path.join(dir, 'manzil.db');
  const clock = new Clock(Date.parse(o.start ?? '2026-11-24T10:00:00Z'));
  const logs: string[] = [];
  const logger = createLogger({ level: 'debug', write: (l) => logs.push(l) });

  type Repos = {
    repo: DigestRepo;
    leases: LeaseRepo;
    outbox: OutboxRepo;
    locationCache: LocationCacheRepo;
    close(): Promise<void>;
  };
  const on = (holder: string, repos: Repos, io: Parameters<DigestRig['instance']>[1] = {}): PgDigestInstance => {
    const { repo, leases, outbox } = repos;
    // A short circuit-breaker cooldown, waited out by a patient run as the production one is (30 s there).
    const breaker = { cooldownMs: 50, ...io.client?.breaker };
    const api = new ApiClient({
      baseUrl: io.baseUrl ?? sandbox.url!,
      key: sandbox.key,
      retry: { attempts: 2, baseDelayMs: 5, maxDelayMs: 10 },
      logger,
      ...io.client,
      breaker,
    });
    const market = new MarketData(api, io.market);
    const composer = new MarketDigestComposer(market, 'Asia/Dubai', undefined, breaker.cooldownMs + 10);
    let closed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      await api.close();
      await repos.close();
    };
    cleanups.push(close);
    return {
      repo,
      leases,
      outbox,
      api,
      market,
      composer,
      close,
      run: (ro = {}) =>
        runDigests({
          repo,
          leases,
          composer: ro.composer ?? composer,
          service: SERVICE,
          holder,
          logger,
          now: clock.now,
          ...(ro.only === undefined ? {} : { only: ro.only }),
        }),
      // A shared run's parts, as the digests job lists them under its lease (src/app/background.ts registers it).
      due: async () =>
        (
          await listParts(
            digestOrders({ repo, composer, service: SERVICE }),
            {
              leases,
              holder,
              logger,
              now: clock.now,
            },
            false,
          )
        ).flat(),
      commands: (co = {}) =>
        new DigestCommands({
          repo,
          service: SERVICE,
          logger,
          timezone: co.timezone ?? 'Asia/Dubai',
          callsPerArea: 10,
          now: clock.now,
          locations: new LocationResolver(api, repos.locationCache, HOUR),
          limits: { perChannel: co.perChannel ?? 5, areasPerDigest: 5 },
          postNow: (channel, areas) =>
            postDigestNow(
              { composer, enqueue: async (d) => outbox.enqueue(d), logger, now: clock.now },
              channel,
              areas,
            ),
        }),
    };
  };
  const instance: DigestRig['instance'] = (holder, io = {}) => {
    const store = openStore(dbFile);
    const repos = {
      repo: createDigestRepo(store, clock.now),
      leases: createLeaseRepo(store),
      outbox: createOutboxRepo(store, clock.now),
      locationCache: createLocationCacheRepo(store, clock.now, SERVICE),
      close: async () => store.close(),
    };
    return { store, ...on(holder, repos, io) };
  };
  const pgInstance: DigestRig['pgInstance'] = async (holder, url) => {
    const store = await openPgStore(url, { poolSize: 4 });
    const repos = {
      repo: createPgDigestRepo(store, clock.now),
      leases: createPgLeaseRepo(store),
      outbox: createPgOutboxRepo(store, clock.now),
      locationCache: createPgLocationCacheRepo(store, clock.now, SERVICE),
      close: () => store.close(),
    };
    return on(holder, repos);
  };

  const read = async (kind: string) => {
    const store = openStore(dbFile);
    try {
      return (await createOutboxRepo(store).list()).filter((r) => r.kind === kind).sort((a, b) => a.id - b.id);
    } finally {
      store.close();
    }
  };
  const headers = { 'x-gateway-key': sandbox.key };
  return {
    sandbox,
    clock,
    dbFile,
    logs,
    logger,
    instance,
    pgInstance,
    digests: () => read('digest'),
    notices: () => read('digest_notice'),
    upstream: (p?: string) => sandbox.requests().filter((r) => !p || r.path === p).length,
    async raw(p, params) {
      const out: Record<string, unknown>[] = [];
      const paged = p !== '/price-trend-of-location';
      for (let page = 1; page < 500; page++) {
        const qs = new URLSearchParams(paged ? { ...params, page: String(page) } : params);
        const body = (await (await fetch(`${sandbox.url}${p}?${qs.toString()}`, { headers })).json()) as {
          data: unknown;
        };
        const rows = body.data as Record<string, unknown>[];
        if (!Array.isArray(rows)) throw new Error(`${p}: not an array of records`);
        if (rows.length === 0 || !paged) return [...out, ...rows];
        out.push(...rows);
      }
      throw new Error('no empty page');
    },
  };
}

/**
 * A loopback proxy in front of the sandbox: calls for the location ids in `failing` answer `status` (an area whose
 * data the service cannot give), the rest pass through unchanged.
 */
export async function failingProxy(
  sandbox: Sandbox,
  failing: Set<string>,
  status = 503,
): Promise<{ url: string; failed(): number }> {
  let failed = 0;
  const server = http.createServer((req, res) => {
    void (async () => {
      const u = new URL(req.url!, 'http://proxy');
      if (failing.has(u.searchParams.get('location_id') ?? '')) {
        failed++;
        res
          .writeHead(status, { 'content-type': 'application/json' })
          .end(JSON.stringify({ success: false, message: 'Service temporarily unavailable' }));
        return;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === 'string' && k !== 'host' && k !== 'connection') headers[k] = v;
      const upstream = await fetch(`${sandbox.url}${req.url}`, { headers });
      const body = Buffer.from(await upstream.arrayBuffer());
      const out: Record<string, string> = {};
      upstream.headers.forEach((v, k) => {
        if (!['content-encoding', 'transfer-encoding', 'content-length', 'connection', 'keep-alive'].includes(k))
          out[k] = v;
      });
      res.writeHead(upstream.status, out).end(body);
    })().catch((e: unknown) => res.writeHead(500).end(String(e)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, failed: () => failed };
}

/** The test's own median (even count: the mean of the middle two). */
export function med(xs: readonly number[]): number | undefined {
  if (xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1]! + s[m]!) / 2;
}

export const bucketOf = (beds: number) => (beds === 0 ? 'studio' : beds >= 4 ? '4+' : String(beds));

/** A new schedule row for a channel, as `/digest add` would save it. */
export async function saveDigest(
  repo: DigestRepo,
  o: {
    channel?: string;
    areas?: { id: number; name: string }[];
    schedule: object;
    timezone: string;
    nextRunAt: number;
    owner?: string;
  },
) {
  const created = await repo.create(
    {
      service: SERVICE,
      channel: o.channel ?? 'test:c1',
      owner: o.owner ?? 'U1',
      areas: JSON.stringify(o.areas ?? [MARINA]),
      schedule: JSON.stringify(o.schedule),
      timezone: o.timezone,
      nextRunAt: o.nextRunAt,
    },
    { perChannel: 100 },
  );
  if (!created.ok) throw new Error('not saved');
  return created.row;
}

/** The PNG's signature and IHDR size. */
export function pngSize(bytes: Buffer): { width: number; height: number } | undefined {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(signature) || bytes.toString('ascii', 12, 16) !== 'IHDR')
    return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

export const ctx = (channel = 'test:c1', user = 'U1', admin = false) => ({ user, channel, isAdmin: async () => admin });

/** A cron that never comes round within a test: the jobs run when the test asks. */
export const NEVER = '0 0 1 1 *';

/** Manzil on the embedded sandbox serving Slack (the fake at `slackApiUrl`), its scheduled jobs never due. */
export function startSlackManzil(slackApiUrl: string, signingSecret: string, dbPrefix: string): Promise<Manzil> {
  return startManzil({
    env: {
      MANZIL_SANDBOX: '1',
      SLACK_BOT_TOKEN: 'xoxb-test',
      SLACK_SIGNING_SECRET: signingSecret,
      SLACK_API_URL: slackApiUrl,
      PORT: '0',
      MANZIL_DB_PATH: path.join(fs.mkdtempSync(path.join(os.tmpdir(), dbPrefix)), 'manzil.db'),
      LOG_LEVEL: 'warn',
      ALERTS_CRON: NEVER,
      DIGESTS_CRON: NEVER,
    },
    host: '127.0.0.1',
    writeLog: () => {},
  });
}
