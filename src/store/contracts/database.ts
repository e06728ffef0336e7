// The database as the rest of Manzil sees it: its repositories, whichever dialect is behind them. Both openers write it
// (SQLite ../database.ts, Postgres ../pg/database.ts), so it lives where neither is imported, and names no dialect's
// type: what only SQLite does reaches its file through ../database.ts's OpenedDatabase.
import type { AlertsRepo } from './alerts.js';
import type { DigestRepo } from './digests.js';
import type { LeaseRepo } from './leases.js';
import type { OutboxRepo } from './outbox.js';
import type { SlackInstallationRepo } from './installations.js';
import type { ButtonStateRepo, LocationCacheRepo, MarketCacheRepo } from './caches.js';
import type { ApiUsageRepo, PersonUseRepo, TeamRepo } from './usage.js';
import type { Sealer } from '../sealing.js';

export interface Database {
  readonly dialect: 'sqlite' | 'postgres';
  alerts: AlertsRepo;
  outbox: OutboxRepo;
  leases: LeaseRepo;
  digests: DigestRepo;
  teams: TeamRepo;
  /** Each person's costly asks, counted for the per-person limits of every instance on this database. */
  people: PersonUseRepo;
  /** State behind buttons, per property service (`service`: its key, or 'sandbox'). */
  buttons(service: string): ButtonStateRepo;
  locationCache(service: string): LocationCacheRepo;
  /**
   * The market data's answers, shared by every process and instance on this database. `now`: the market's clock, which
   * the answers' ages are on (the sandbox's market time on the sandbox; default the wall clock).
   */
  marketCache(service: string, now?: () => number): MarketCacheRepo;
  usage(baseUrl: string): ApiUsageRepo;
  installations(sealer: Sealer): SlackInstallationRepo;
  close(): Promise<void>;
}
