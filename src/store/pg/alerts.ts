// What src/alerts reaches of the store, on Postgres: saved searches and what each has seen, merged into one port as
// ../alerts.ts merges them on SQLite.
import type { AlertsRepo } from '../contracts/alerts.js';
import type { PgStore } from './open.js';
import { createPgAlertDefinitionRepo } from './alert-definitions.js';
import { createPgChannelSettingsRepo } from './channel-settings.js';
import { createPgSeenRepo } from './seen.js';

export function createPgAlertsRepo(store: PgStore, now: () => number = Date.now): AlertsRepo {
  return {
    ...createPgAlertDefinitionRepo(store, now),
    ...createPgSeenRepo(store, now),
    ...createPgChannelSettingsRepo(store),
  };
}
