// The store's public surface: one repository per concern, each behind its named interface.
export { openStore, type Store, type StoreOptions } from './db.js';
export { WriteLock } from './write-lock.js';
export { applyMigrations, ForeignKeyViolationError, type Violation } from './migrate.js';
export { createButtonStateRepo, type ButtonStateRepo } from './button-state.js';
export { createLocationCacheRepo, normaliseQuery, type LocationCacheRepo } from './location-cache.js';
export { createApiUsageRepo, type ApiUsageRepo } from './api-usage.js';
export { adoptServiceSpellings, serviceKey } from './service-key.js';
export * as schema from './schema.js';
export { createSavedSearchRepo, type CreateResult, type NewSavedSearch, type SavedSearchRepo, type SavedSearchRow } from './saved-searches.js';
export { createSeenRepo, type RunOutcome, type SeenRepo, type SeenRow, type SeenUpdate } from './seen.js';
export {
  createOutboxRepo,
  deliveryIdOf,
  INTERRUPTED,
  type ClaimedEntry,
  type ClaimOptions,
  type FailedAttempt,
  type NewDelivery,
  type OutboxRepo,
  type OutboxRow,
  type OutboxStats,
} from './outbox.js';
export { createLeaseRepo, type Fence, type InstanceInfo, type LeaseRepo } from './leases.js';
export { markRestored, readDbId, readLineage, readRestore, renewDbId } from './meta.js';
export { createAlertsRepo, type AlertsRepo } from './alerts.js';
export { createDigestRepo, digestKey, type DigestRepo, type DigestRow, type NewDigest } from './digests.js';
export {
  createSlackInstallationRepo,
  holdWorkspace,
  releaseWorkspace,
  REMOVED_REASON,
  slackInstallations,
  type InstallationKey,
  type SlackInstallationRepo,
} from './installations.js';
export { keyIdOf, parseKey, Sealer, sealerFrom } from './sealing.js';
export { createTeamRepo, monthOf, type TeamRepo } from './teams.js';
