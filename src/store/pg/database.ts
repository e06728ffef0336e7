// The repositories on Postgres (DATABASE_URL): one pool, shared by every repository of this instance.
import type { Database } from '../contracts/database.js';
import { createPgAlertsRepo } from './alerts.js';
import { createPgApiUsageRepo } from './api-usage.js';
import { createPgButtonStateRepo } from './button-state.js';
import { createPgDigestRepo } from './digests.js';
import { createPgSlackInstallationRepo } from './installations.js';
import { createPgLeaseRepo } from './leases.js';
import { createPgLocationCacheRepo } from './location-cache.js';
import { createPgMarketCacheRepo } from './market-cache.js';
import { openPgStore, type PgStoreOptions } from './open.js';
import { createPgOutboxRepo } from './outbox.js';
import { createPgPersonUseRepo } from './person-uses.js';
import { createPgTeamRepo } from './teams.js';

export async function openPgDatabase(url: string, options: PgStoreOptions = {}): Promise<Database> {
  const store = await openPgStore(url, options);
  return {
    dialect: 'postgres',
    alerts: createPgAlertsRepo(store),
    outbox: createPgOutboxRepo(store),
    leases: createPgLeaseRepo(store),
    digests: createPgDigestRepo(store),
    teams: createPgTeamRepo(store),
    people: createPgPersonUseRepo(store),
    buttons: (service) => createPgButtonStateRepo(store, Date.now, service),
    locationCache: (service) => createPgLocationCacheRepo(store, Date.now, service),
    marketCache: (service, now = Date.now) => createPgMarketCacheRepo(store, now, service),
    usage: (baseUrl) => createPgApiUsageRepo(store, baseUrl),
    installations: (sealer) => createPgSlackInstallationRepo(store, sealer),
    close: () => store.close(),
  };
}
