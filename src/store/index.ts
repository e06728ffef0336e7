// The store's public surface.
export { openStore, type Store } from './db.js';
export { applyMigrations, ForeignKeyViolationError, type Violation } from './migrate.js';
export { createButtonStateRepo, type ButtonStateRepo } from './button-state.js';
export { createLocationCacheRepo, normaliseQuery, type LocationCacheRepo } from './location-cache.js';
export { createApiUsageRepo, type ApiUsageRepo } from './api-usage.js';
export { adoptServiceSpellings, serviceKey } from './service-key.js';
export * as schema from './schema.js';
export { createAlertsRepo, type AlertsRepo, type NewDelivery, type OutboxRow, type OutboxStats, type RunOutcome, type SavedSearchRow, type SeenRow, type SeenUpdate } from './alerts.js';
