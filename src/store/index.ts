// The store's public surface: one repository per concern, each behind its named interface.
export { openStore, type Store, type StoreOptions } from './db.js';
export { WriteLock } from './write-lock.js';
export { applyMigrations, ForeignKeyViolationError, type Violation } from './migrate.js';
export { normaliseQuery } from './location-cache.js';
export { adoptServiceSpellings, serviceKey } from './service-key.js';
export * as schema from './schema.js';
export { createAlertDefinitionRepo } from './alert-definitions.js';
export type { AlertDefinitionRepo, AlertRow, CreateResult, NewAlert } from './contracts/alerts.js';
export { createSeenRepo, type SyncSeenRepo } from './seen.js';
export type { HistoryRepo, HistoryWrites, ListingHistory } from './contracts/history.js';
export type {
  ChannelPosted,
  CommitOptions,
  PostedAlert,
  PostedQuery,
  RunOutcome,
  RunPlan,
  SeenRepo,
  SeenRow,
  SeenUpdate,
} from './contracts/seen.js';
export { deliveryIdOf, INTERRUPTED } from './outbox.js';
export type {
  ClaimedEntry,
  ClaimOptions,
  FailedAttempt,
  ClaimedRef,
  HeldChannel,
  NewDelivery,
  OutboxRepo,
  OutboxRow,
  OutboxStats,
} from './contracts/outbox.js';
export type { Fence, InstanceInfo, InstanceRow, LastRun, LeaseRepo } from './contracts/leases.js';
export { markRestored, readDbId, readLineage, readRestore, renewDbId } from './meta.js';
export { digestKey } from './digests.js';
export type { DigestRow, NewDigest } from './contracts/digests.js';
export { REMOVED_REASON } from './installations.js';
export type { InstallationKey, InstallationListing, SlackInstallationRepo } from './contracts/installations.js';
export { keyIdOf, parseKey, Sealer, sealerFrom } from './sealing.js';
export { monthOf } from './teams.js';
export { promised, type Promised } from './promised.js';
export type { AlertsRepo } from './contracts/alerts.js';
export type { DigestRepo } from './contracts/digests.js';
export type { ButtonStateRepo, LocationCacheRepo, MarketCacheEntry, MarketCacheRepo } from './contracts/caches.js';
export type { ApiUsageRepo, PersonTake, PersonUseRepo, TeamLine, TeamRepo } from './contracts/usage.js';
export type { Synced } from './contracts/synced.js';
export {
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
export { openDatabase, sqliteDatabase, type DatabaseOptions, type OpenedDatabase } from './database.js';
export type { Database } from './contracts/database.js';
export { copyToPostgres, type CopyResult, type TableCount } from './copy-to-postgres.js';
export { openPgStore, type PgStore } from './pg/open.js';
