// The databases the store’s contracts run on (each contract’s .test.ts): each opener makes a new empty database and
// every repository on it, through the ports, plus `connect()`, a second connection to the same database with its own
// repositories, as a second instance has.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  createAlertsRepo,
  createApiUsageRepo,
  createButtonStateRepo,
  createDigestRepo,
  createLeaseRepo,
  createLocationCacheRepo,
  createMarketCacheRepo,
  createOutboxRepo,
  createPersonUseRepo,
  createSlackInstallationRepo,
  createTeamRepo,
  openStore,
  type Store,
} from '../../../src/store/index.js';
import { createPgApiUsageRepo } from '../../../src/store/pg/api-usage.js';
import { createPgButtonStateRepo } from '../../../src/store/pg/button-state.js';
import { createPgSlackInstallationRepo } from '../../../src/store/pg/installations.js';
import { createPgLocationCacheRepo } from '../../../src/store/pg/location-cache.js';
import { createPgMarketCacheRepo } from '../../../src/store/pg/market-cache.js';
import { createPgTeamRepo } from '../../../src/store/pg/teams.js';
import { createPgAlertsRepo } from '../../../src/store/pg/alerts.js';
import { createPgDigestRepo } from '../../../src/store/pg/digests.js';
import { createPgLeaseRepo } from '../../../src/store/pg/leases.js';
import { openPgStore, type PgStore } from '../../../src/store/pg/open.js';
import { createPgOutboxRepo } from '../../../src/store/pg/outbox.js';
import { createPgPersonUseRepo } from '../../../src/store/pg/person-uses.js';
import type { MarketCacheRepo } from '../../../src/store/contracts/caches.js';
import type { PersonUseRepo } from '../../../src/store/contracts/usage.js';
import type { LeaseRepo } from '../../../src/store/contracts/leases.js';
import type { OutboxRepo } from '../../../src/store/contracts/outbox.js';
import type { AlertsRepo } from '../../../src/store/contracts/alerts.js';
import type { DigestRepo } from '../../../src/store/contracts/digests.js';
import { freshPostgres } from '../../support/postgres.js';
import type { SmallRepoMakers } from './small-repos.contract.js';

/** Every repository, on one connection (the small ones made with the test's clock, service or key). */
export interface Repos extends SmallRepoMakers {
  outbox: OutboxRepo;
  leases: LeaseRepo;
  alerts: AlertsRepo;
  digests: DigestRepo;
  /** Each person's costly asks, with the test's clock. */
  personUses(now?: () => number): PersonUseRepo;
  /** The market data's answers, with the test's clock and service. */
  marketCache(now?: () => number, service?: string): MarketCacheRepo;
  close(): Promise<void>;
}

export interface Stores extends Repos {
  /** Another connection to the same database, with repositories of its own. */
  connect(): Promise<Repos>;
}

export interface Database {
  name: string;
  open(): Promise<Stores>;
}

// The SQLite ones are the synchronous repositories behind `promised` (src/store/sqlite-repos.ts).
const sqliteMakers = (store: Store): SmallRepoMakers => ({
  buttonState: (now, service) => createButtonStateRepo(store, now, service),
  locationCache: (now, service) => createLocationCacheRepo(store, now, service),
  apiUsage: (baseUrl) => createApiUsageRepo(store, baseUrl),
  teams: (now) => createTeamRepo(store, now),
  installations: (sealer, now) => createSlackInstallationRepo(store, sealer, now),
});

const postgresMakers = (store: PgStore): SmallRepoMakers => ({
  buttonState: (now, service) => createPgButtonStateRepo(store, now, service),
  locationCache: (now, service) => createPgLocationCacheRepo(store, now, service),
  apiUsage: (baseUrl) => createPgApiUsageRepo(store, baseUrl),
  teams: (now) => createPgTeamRepo(store, now),
  installations: (sealer, now) => createPgSlackInstallationRepo(store, sealer, now),
});

const sqliteRepos = (store: Store): Omit<Repos, 'close'> => ({
  ...sqliteMakers(store),
  outbox: createOutboxRepo(store),
  leases: createLeaseRepo(store),
  alerts: createAlertsRepo(store),
  digests: createDigestRepo(store),
  personUses: (now) => createPersonUseRepo(store, now),
  marketCache: (now, service) => createMarketCacheRepo(store, now, service),
});

const postgresRepos = (store: PgStore): Omit<Repos, 'close'> => ({
  ...postgresMakers(store),
  outbox: createPgOutboxRepo(store),
  leases: createPgLeaseRepo(store),
  alerts: createPgAlertsRepo(store),
  digests: createPgDigestRepo(store),
  personUses: (now) => createPgPersonUseRepo(store, now),
  marketCache: (now, service) => createPgMarketCacheRepo(store, now, service),
});

/** A temp SQLite file; close removes it. */
export async function sqliteStores(): Promise<Stores> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manzil-contract-'));
  const file = path.join(dir, 'manzil.db');
  const connections: Store[] = [];
  // Each connection closed once, by itself or with the database.
  const closeOne = (store: Store): void => {
    const i = connections.indexOf(store);
    if (i < 0) return;
    connections.splice(i, 1);
    store.close();
  };
  const on = (): Repos => {
    const store = openStore(file);
    connections.push(store);
    return { ...sqliteRepos(store), close: async () => closeOne(store) };
  };
  return {
    ...on(),
    connect: async () => on(),
    async close() {
      for (const store of [...connections]) closeOne(store);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A new database on the run's Postgres; close drops it. */
export async function postgresStores(): Promise<Stores> {
  const { url, drop } = await freshPostgres();
  const connections: PgStore[] = [];
  const on = async (): Promise<Repos> => {
    const store = await openPgStore(url, { poolSize: 4 });
    connections.push(store);
    return { ...postgresRepos(store), close: () => store.close() };
  };
  try {
    return {
      ...(await on()),
      connect: on,
      async close() {
        for (const store of connections.splice(0)) await store.close();
        await drop();
      },
    };
  } catch (error) {
    await drop();
    throw error;
  }
}

export const sqlite: Database = { name: 'SQLite', open: sqliteStores };
export const postgres: Database = { name: 'Postgres', open: postgresStores };
