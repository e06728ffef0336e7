// The database the configuration names: the SQLite file (the embedded default) or Postgres (DATABASE_URL), seen by
// the rest of Manzil only as its repositories. What only SQLite does (backup and restore, the threads' write lock,
// adopting old service spellings) reaches the file through `sqlite`.
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
} from './sqlite-repos.js';
import type { Database } from './contracts/database.js';
import { openStore, type Store } from './db.js';
import { openPgDatabase } from './pg/database.js';
import type { WriteLock } from './write-lock.js';

export interface DatabaseOptions {
  /** The SQLite file, used when `postgres` is not given. */
  dbPath: string;
  postgres?: { url: string; poolSize: number } | undefined;
  /** SQLite only: taken around every write when several threads of this process write to the file. */
  writeLock?: WriteLock | undefined;
  /** Postgres only: an idle connection failed (the pool opens another when needed). */
  onError?: (error: Error) => void;
  /** Postgres only: a one-off command needs a connection or two, not the server's pool. */
  poolSizeAtMost?: number;
}

/** A database as opened here: the contract, and the SQLite file behind it (undefined on Postgres). */
export interface OpenedDatabase extends Database {
  sqlite: Store | undefined;
}

export async function openDatabase(o: DatabaseOptions): Promise<OpenedDatabase> {
  if (o.postgres) {
    const poolSize = Math.min(o.postgres.poolSize, o.poolSizeAtMost ?? Infinity);
    const db = await openPgDatabase(o.postgres.url, { poolSize, ...(o.onError ? { onError: o.onError } : {}) });
    return Object.assign(db, { sqlite: undefined });
  }
  return sqliteDatabase(openStore(o.dbPath, o.writeLock ? { writeLock: o.writeLock } : {}));
}

/** The repositories on an open SQLite file. */
export function sqliteDatabase(store: Store): OpenedDatabase & { sqlite: Store } {
  return {
    dialect: 'sqlite',
    alerts: createAlertsRepo(store),
    outbox: createOutboxRepo(store),
    leases: createLeaseRepo(store),
    digests: createDigestRepo(store),
    teams: createTeamRepo(store),
    people: createPersonUseRepo(store),
    buttons: (service) => createButtonStateRepo(store, Date.now, service),
    locationCache: (service) => createLocationCacheRepo(store, Date.now, service),
    marketCache: (service, now = Date.now) => createMarketCacheRepo(store, now, service),
    usage: (baseUrl) => createApiUsageRepo(store, baseUrl),
    installations: (sealer) => createSlackInstallationRepo(store, sealer),
    sqlite: store,
    close: async () => store.close(),
  };
}
