// The store's written contracts (src/store/contracts/) are plain interfaces, so that the SQLite and Postgres sides
// share them without either importing the other; the rows among them must stay the SQLite schema's rows (the Postgres
// schema is held equal to that one by pg-schema.test.ts). Each contract is checked against both implementations: the
// SQLite factory returns its synchronous form (`Synced<XRepo>`), which `promised` turns into the contract, and the
// Postgres factory returns the contract itself. Checked by the type checker: `npx tsc --noEmit`.
import { describe, expectTypeOf, it } from 'vitest';
import { createApiUsageRepo } from '../../src/store/api-usage.js';
import { createButtonStateRepo } from '../../src/store/button-state.js';
import type { ButtonStateRepo, LocationCacheRepo, MarketCacheRepo } from '../../src/store/contracts/caches.js';
import type { InstallationListing, SlackInstallationRepo } from '../../src/store/contracts/installations.js';
import type { InstanceRow, LeaseRepo } from '../../src/store/contracts/leases.js';
import type { OutboxRepo, OutboxRow } from '../../src/store/contracts/outbox.js';
import type { ListingHistory } from '../../src/store/contracts/history.js';
import type { ChannelPosted, SeenRepo, SeenRow } from '../../src/store/contracts/seen.js';
import type { Synced } from '../../src/store/contracts/synced.js';
import type { ApiUsageRepo, PersonUseRepo, TeamRepo } from '../../src/store/contracts/usage.js';
import type { schema } from '../../src/store/index.js';
import { createSlackInstallationRepo } from '../../src/store/installations.js';
import { createLeaseRepo } from '../../src/store/leases.js';
import { createLocationCacheRepo } from '../../src/store/location-cache.js';
import { createMarketCacheRepo } from '../../src/store/market-cache.js';
import { createOutboxRepo } from '../../src/store/outbox.js';
import { createPersonUseRepo } from '../../src/store/person-uses.js';
import { createPgApiUsageRepo } from '../../src/store/pg/api-usage.js';
import { createPgButtonStateRepo } from '../../src/store/pg/button-state.js';
import { createPgSlackInstallationRepo } from '../../src/store/pg/installations.js';
import { createPgLeaseRepo } from '../../src/store/pg/leases.js';
import { createPgLocationCacheRepo } from '../../src/store/pg/location-cache.js';
import { createPgMarketCacheRepo } from '../../src/store/pg/market-cache.js';
import { createPgOutboxRepo } from '../../src/store/pg/outbox.js';
import { createPgSeenRepo } from '../../src/store/pg/seen.js';
import { createPgPersonUseRepo } from '../../src/store/pg/person-uses.js';
import { createPgTeamRepo } from '../../src/store/pg/teams.js';
import type { Promised } from '../../src/store/promised.js';
import { createSeenRepo } from '../../src/store/seen.js';
import { createTeamRepo } from '../../src/store/teams.js';

describe('the store contracts', () => {
  it('write the rows as the schema reads them', () => {
    expectTypeOf<typeof schema.outbox.$inferSelect>().toEqualTypeOf<OutboxRow>();
    expectTypeOf<typeof schema.searchSeen.$inferSelect>().toEqualTypeOf<SeenRow>();
    expectTypeOf<typeof schema.channelPosted.$inferSelect>().toEqualTypeOf<ChannelPosted>();
    expectTypeOf<typeof schema.listingHistory.$inferSelect>().toEqualTypeOf<ListingHistory>();
    expectTypeOf<typeof schema.instance.$inferSelect>().toEqualTypeOf<InstanceRow>();
    type Listed = Pick<typeof schema.slackInstallation.$inferSelect, keyof InstallationListing>;
    expectTypeOf<Listed>().toEqualTypeOf<InstallationListing>();
  });

  it('are what both databases implement: the caches and the state behind buttons', () => {
    expectTypeOf(createButtonStateRepo).returns.toEqualTypeOf<Synced<ButtonStateRepo>>();
    expectTypeOf<Promised<ReturnType<typeof createButtonStateRepo>>>().toExtend<ButtonStateRepo>();
    expectTypeOf(createLocationCacheRepo).returns.toEqualTypeOf<Synced<LocationCacheRepo>>();
    expectTypeOf<Promised<ReturnType<typeof createLocationCacheRepo>>>().toExtend<LocationCacheRepo>();
    expectTypeOf(createMarketCacheRepo).returns.toEqualTypeOf<Synced<MarketCacheRepo>>();
    expectTypeOf<Promised<ReturnType<typeof createMarketCacheRepo>>>().toExtend<MarketCacheRepo>();
    expectTypeOf(createPgButtonStateRepo).returns.toEqualTypeOf<ButtonStateRepo>();
    expectTypeOf(createPgLocationCacheRepo).returns.toEqualTypeOf<LocationCacheRepo>();
    expectTypeOf(createPgMarketCacheRepo).returns.toEqualTypeOf<MarketCacheRepo>();
  });

  it('are what both databases implement: what is counted against limits', () => {
    expectTypeOf(createApiUsageRepo).returns.toEqualTypeOf<Synced<ApiUsageRepo>>();
    expectTypeOf<Promised<ReturnType<typeof createApiUsageRepo>>>().toExtend<ApiUsageRepo>();
    expectTypeOf(createPersonUseRepo).returns.toEqualTypeOf<Synced<PersonUseRepo>>();
    expectTypeOf<Promised<ReturnType<typeof createPersonUseRepo>>>().toExtend<PersonUseRepo>();
    expectTypeOf(createTeamRepo).returns.toEqualTypeOf<Synced<TeamRepo>>();
    expectTypeOf<Promised<ReturnType<typeof createTeamRepo>>>().toExtend<TeamRepo>();
    expectTypeOf(createPgApiUsageRepo).returns.toEqualTypeOf<ApiUsageRepo>();
    expectTypeOf(createPgPersonUseRepo).returns.toEqualTypeOf<PersonUseRepo>();
    expectTypeOf(createPgTeamRepo).returns.toEqualTypeOf<TeamRepo>();
  });

  it('are what both databases implement: the outbox, the leases, what searches have seen and the Slack installations', () => {
    expectTypeOf(createOutboxRepo).returns.toEqualTypeOf<Synced<OutboxRepo>>();
    expectTypeOf<Promised<ReturnType<typeof createOutboxRepo>>>().toExtend<OutboxRepo>();
    expectTypeOf(createLeaseRepo).returns.toEqualTypeOf<Synced<LeaseRepo>>();
    expectTypeOf<Promised<ReturnType<typeof createLeaseRepo>>>().toExtend<LeaseRepo>();
    expectTypeOf(createSlackInstallationRepo).returns.toEqualTypeOf<Synced<SlackInstallationRepo>>();
    expectTypeOf<Promised<ReturnType<typeof createSlackInstallationRepo>>>().toExtend<SlackInstallationRepo>();
    expectTypeOf(createSeenRepo).returns.toEqualTypeOf<Synced<SeenRepo>>();
    expectTypeOf<Promised<ReturnType<typeof createSeenRepo>>>().toExtend<SeenRepo>();
    expectTypeOf(createPgOutboxRepo).returns.toEqualTypeOf<OutboxRepo>();
    expectTypeOf(createPgSeenRepo).returns.toEqualTypeOf<SeenRepo>();
    expectTypeOf(createPgLeaseRepo).returns.toEqualTypeOf<LeaseRepo>();
    expectTypeOf(createPgSlackInstallationRepo).returns.toEqualTypeOf<SlackInstallationRepo>();
  });
});
