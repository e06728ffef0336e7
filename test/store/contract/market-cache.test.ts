// The market cache's contract (market-cache.contract.ts), on SQLite and on Postgres: the same calls give the same
// results.
import { describe } from 'vitest';
import { postgres, sqlite, type Repos } from './databases.js';
import { marketCacheContract } from './market-cache.contract.js';

const withMarket = (stores: Repos & { connect?: () => Promise<Repos> }) => ({
  marketCache: stores.marketCache,
  connect: stores.connect!,
  close: () => stores.close(),
});

for (const db of [sqlite, postgres]) {
  describe(db.name, () => {
    marketCacheContract(async () => withMarket(await db.open()));
  });
}
