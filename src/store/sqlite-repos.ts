// The SQLite repositories behind the core's promised ports (promised.ts). Inside the store they stay synchronous, so one
// repository can take part in another's transaction (a run's seen rows and its outbox entries commit together).
import { createAlertsRepo as alertsOn } from './alerts.js';
import { createApiUsageRepo as usageOn } from './api-usage.js';
import { createButtonStateRepo as buttonsOn } from './button-state.js';
import type { Store } from './db.js';
import { createDigestRepo as digestsOn } from './digests.js';
import { createSlackInstallationRepo as installationsOn } from './installations.js';
import { createLeaseRepo as leasesOn } from './leases.js';
import { createLocationCacheRepo as locationsOn } from './location-cache.js';
import { createMarketCacheRepo as marketOn } from './market-cache.js';
import { createOutboxRepo as outboxOn } from './outbox.js';
import { createPersonUseRepo as personUsesOn } from './person-uses.js';
import type { ButtonStateRepo, LocationCacheRepo, MarketCacheRepo } from './contracts/caches.js';
import type { ApiUsageRepo, PersonUseRepo, TeamRepo } from './contracts/usage.js';
import { promised } from './promised.js';
import type { AlertsRepo } from './contracts/alerts.js';
import type { DigestRepo } from './contracts/digests.js';
import type { SlackInstallationRepo } from './contracts/installations.js';
import type { LeaseRepo } from './contracts/leases.js';
import type { OutboxRepo } from './contracts/outbox.js';
import type { Sealer } from './sealing.js';
import { createTeamRepo as teamsOn } from './teams.js';

export const createAlertsRepo = (store: Store, now?: () => number): AlertsRepo => promised(alertsOn(store, now));
export const createOutboxRepo = (store: Store, now?: () => number): OutboxRepo => promised(outboxOn(store, now));
export const createLeaseRepo = (store: Store): LeaseRepo => promised(leasesOn(store));
export const createDigestRepo = (store: Store, now?: () => number): DigestRepo => promised(digestsOn(store, now));
export const createButtonStateRepo = (store: Store, now?: () => number, service?: string): ButtonStateRepo =>
  promised(buttonsOn(store, now, service));
export const createLocationCacheRepo = (store: Store, now?: () => number, service?: string): LocationCacheRepo =>
  promised(locationsOn(store, now, service));
export const createMarketCacheRepo = (store: Store, now?: () => number, service?: string): MarketCacheRepo =>
  promised(marketOn(store, now, service));
export const createApiUsageRepo = (store: Store, baseUrl: string): ApiUsageRepo => promised(usageOn(store, baseUrl));
export const createTeamRepo = (store: Store, now?: () => number): TeamRepo => promised(teamsOn(store, now));
export const createPersonUseRepo = (store: Store, now?: () => number): PersonUseRepo =>
  promised(personUsesOn(store, now));
export const createSlackInstallationRepo = (store: Store, sealer: Sealer, now?: () => number): SlackInstallationRepo =>
  promised(installationsOn(store, sealer, now));
