// The sandbox: a faithful local stand-in for the UAE Property Data Service, on 127.0.0.1.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { advance as advanceMarket, buildDataset } from './dataset.js';
import { Faults, type FaultRule } from './faults.js';
import { Quota } from './quota.js';
import { RequestLog, type RequestLogEntry } from './request-log.js';
import { requestListener, type ServerContext } from './server.js';

export type { FaultRule } from './faults.js';
export type { RequestLogEntry } from './request-log.js';

export interface SandboxOptions {
  /** Default 'sandbox-key'. */
  key?: string;
  /** Default 'full'; 'basic' refuses the -detailed agent and brokerage searches with 403. */
  plan?: 'basic' | 'full';
  /** Default 1. */
  seed?: number;
  /** The market clock's start; default 2026-11-01T00:00:00Z so data is stable across days. */
  start?: Date;
  /** Transactions as the spec's flat array (default) or the nested shape real callers report. */
  transactionShape?: 'flat' | 'nested';
  /** Gateway quota headers and 429 when used up. Default: no quota. */
  quota?: { perMinute?: number; perDay?: number };
}

export interface Sandbox {
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
  readonly url: string | undefined;
  readonly key: string;
  now(): Date;
  advance(minutes: number): { added: number; withdrawn: number; repriced: number; relisted: number };
  /** How far the market clock has moved since the start, and the next listing id: what a later run resumes from. */
  clock(): MarketClock;
  /**
   * Resumes a market a previous run moved (demo mode across restarts): ids continue past the ones it handed out, then
   * the clock moves by the saved minutes (the listings of that time arrive as one batch). Before anyone has seen it.
   */
  resume(clock: MarketClock): void;
  /** Sets one listing's price (AED; the annual rent for rentals): a price drop on demand, for tests and demos. */
  reprice(propertyId: string, price: number): boolean;
  /** Takes one listing off the market (searches leave it out, its details answer 404): a withdrawal on demand. */
  withdraw(propertyId: string): boolean;
  /** Puts a withdrawn listing back on the market under its own id, at a new price when given: a relisting on demand. */
  relist(propertyId: string, price?: number): boolean;
  addFault(rule: FaultRule): void;
  clearFaults(): void;
  requests(): RequestLogEntry[];
  clearRequests(): void;
  stats(): {
    locations: number;
    emirates: number;
    listings: number;
    projects: number;
    agents: number;
    brokers: number;
    developers: number;
    transactions: number;
    adrec: number;
  };
}

export const DEFAULT_START = new Date('2026-11-01T00:00:00Z');

/** The start of the UTC day of `at` (ms): where a market that begins "today" starts (demo mode, `manzil sandbox`). */
export function startOfUtcDay(at: number): Date {
  return new Date(Math.floor(at / 86_400_000) * 86_400_000);
}

export interface MarketClock {
  /** Market minutes since the start. */
  minutes: number;
  /** Listing ids below this were handed out already. */
  nextListingId: number;
}

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const key = options.key ?? 'sandbox-key';
  if (key.trim() === '') throw new RangeError('the sandbox key must not be empty');
  const seed = options.seed ?? 1;
  const start = (options.start ?? DEFAULT_START).getTime();
  const ds = buildDataset(seed, new Date(start));
  const faults = new Faults(seed);
  const log = new RequestLog(key);
  const stats = () => ({
    locations: ds.geo.areas.length,
    emirates: new Set(ds.geo.areas.map((p) => p.emirate)).size,
    listings: ds.listings.filter((l) => !l.withdrawn).length,
    projects: ds.projects.length,
    agents: ds.agents.length,
    brokers: ds.brokers.length,
    developers: ds.developers.length,
    transactions: ds.transactions.filter((t) => t.at <= ds.now).length,
    adrec: ds.adrec.length,
  });
  const ctx: ServerContext = {
    ds,
    key,
    plan: options.plan ?? 'full',
    transactionShape: options.transactionShape ?? 'flat',
    faults,
    log,
    advance: (minutes) => advanceMarket(ds, minutes),
    stats,
    timers: new Set(),
    ...(options.quota ? { quota: new Quota(options.quota) } : {}),
  };
  let server: Server | undefined;
  let url: string | undefined;

  return {
    get url() {
      return url;
    },
    key,
    async listen(port = 0, host = '127.0.0.1') {
      if (server) throw new Error(`the sandbox is already listening on ${url}`);
      const s = createServer(requestListener(ctx));
      server = s;
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(port, host, () => {
          s.off('error', reject);
          resolve();
        });
      });
      const address = s.address() as AddressInfo;
      url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
      return url;
    },
    async close() {
      const s = server;
      if (!s) return;
      server = undefined;
      url = undefined;
      for (const t of ctx.timers) clearTimeout(t);
      ctx.timers.clear();
      await new Promise<void>((resolve) => {
        s.close(() => resolve());
        s.closeAllConnections();
      });
    },
    now: () => new Date(ds.now),
    advance: (minutes) => advanceMarket(ds, minutes),
    clock: () => ({ minutes: Math.round((ds.now - start) / 60_000), nextListingId: ds.nextListingId }),
    resume(clock) {
      const minutes = Math.round(clock.minutes - (ds.now - start) / 60_000);
      if (Number.isSafeInteger(clock.nextListingId)) ds.nextListingId = Math.max(ds.nextListingId, clock.nextListingId);
      if (Number.isFinite(minutes) && minutes > 0) advanceMarket(ds, minutes);
    },
    reprice(propertyId, price) {
      const listing = ds.listingById.get(Number(propertyId));
      if (!listing || !(price > 0)) return false;
      listing.price = Math.round(price);
      return true;
    },
    withdraw(propertyId) {
      const listing = ds.listingById.get(Number(propertyId));
      if (!listing || listing.withdrawn) return false;
      listing.withdrawn = true;
      return true;
    },
    relist(propertyId, price) {
      const listing = ds.listingById.get(Number(propertyId));
      if (!listing || !listing.withdrawn) return false;
      listing.withdrawn = false;
      if (price !== undefined && price > 0) listing.price = Math.round(price);
      return true;
    },
    addFault: (rule) => faults.add(rule),
    clearFaults: () => faults.clear(),
    requests: () => log.list(),
    clearRequests: () => log.clear(),
    stats,
  };
}
