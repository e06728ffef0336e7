// What src/alerts reaches of the store: saved searches and what each has seen (the outbox and the leases are
// repositories of their own, shared with every kind of delivery and job).
import type { Store } from './db.js';
import { createAlertDefinitionRepo } from './alert-definitions.js';
import { createChannelSettingsRepo } from './channel-settings.js';
import type { AlertDefinitionRepo } from './contracts/alerts.js';
import type { ChannelSettingsRepo } from './contracts/channel-settings.js';
import type { Synced } from './contracts/synced.js';
import { createSeenRepo, type SyncSeenRepo } from './seen.js';

export type SyncAlertsRepo = Synced<AlertDefinitionRepo> & SyncSeenRepo & Synced<ChannelSettingsRepo>;

export function createAlertsRepo(store: Store, now: () => number = Date.now): SyncAlertsRepo {
  return {
    ...createAlertDefinitionRepo(store, now),
    ...createSeenRepo(store, now),
    ...createChannelSettingsRepo(store),
  };
}
