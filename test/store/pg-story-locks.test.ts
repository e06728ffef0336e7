// On Postgres, two batches that share listings commit side by side however their queries order them: each writes its
// listings' stories at its end, under locks taken in one order, so neither is ever chosen as a deadlock's victim
// (40P01, the alerts benchmark's failure before), and each listing's story ends as the two left it.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { HistoryWrites, ListingHistory } from '../../src/store/index.js';
import { openDatabase } from '../../src/store/index.js';
import { freshPostgres } from '../support/postgres.js';

const SERVICE = 'https://api.example';

const ids = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => `p${String(from + i).padStart(2, '0')}`);

const story = (propertyId: string, at: number): ListingHistory => ({
  service: SERVICE,
  propertyId,
  firstSeenAt: at,
  lastSeenAt: at,
  lastPrice: 100,
  prices: JSON.stringify([[at, 100]]),
  goneSince: null,
  timesBack: 0,
  backAt: null,
  awayMs: null,
  title: null,
});

describe('listing stories on Postgres, written by batches side by side', () => {
  it('commit side by side in opposite orders, round after round, and leave every story at its last sight', async () => {
    const database = await freshPostgres();
    const open = () => openDatabase({ dbPath: '', postgres: { url: database.url, poolSize: 2 } });
    const [one, two] = [await open(), await open()];
    try {
      const save = async (name: string) => {
        const saved = await one.alerts.create(
          {
            service: SERVICE,
            channel: `slack:T1:${name}`,
            owner: 'U1',
            text: `rent ${name}`,
            query: '{}',
            operation: 'search',
            paramsKey: `location=${name}`,
            summary: `Rent in ${name}`,
          },
          { perChannel: 25, perOwner: 50 },
        );
        if (!saved.ok) throw new Error('not saved');
        return saved.row.id;
      };
      const searches = [await save('marina'), await save('jvc'), await save('jlt'), await save('downtown')];
      const query = (searchId: number, touched: string[], writes: HistoryWrites) => ({
        plan: {
          service: SERVICE,
          channels: [`slack:T1:${searchId}`],
          propertyIds: touched,
          locationKeys: [],
          outcomes: () => [{ searchId, at: writes.at, seen: [], deliveries: [], clearError: false }],
          history: { ids: touched, writes: () => writes },
        },
      });
      const [low, high] = [ids(0, 30), ids(30, 60)];
      await one.alerts.commitMany([
        query(searches[0]!, [...low, ...high], {
          at: 1_000,
          rows: [...low, ...high].map((id) => story(id, 1_000)),
          seen: [],
          gone: [],
        }),
      ]);
      let at = 1_000;
      for (let round = 0; round < 25; round++) {
        at += 1_000;
        // One writes the low listings whole and then sees the high ones; the other the other way round.
        await Promise.all([
          one.alerts.commitMany([
            query(searches[0]!, low, { at, rows: low.map((id) => story(id, at)), seen: [], gone: [] }),
            query(searches[1]!, high, { at, rows: [], seen: high, gone: [] }),
          ]),
          two.alerts.commitMany([
            query(searches[2]!, high, { at, rows: high.map((id) => story(id, at)), seen: [], gone: [] }),
            query(searches[3]!, low, { at, rows: [], seen: low, gone: [] }),
          ]),
        ]);
      }
      const stories = await one.alerts.history(SERVICE, [...low, ...high]);
      expect(stories).toHaveLength(60);
      expect(new Set(stories.map((s) => s.lastSeenAt))).toEqual(new Set([at]));
      expect(stories.every((s) => s.firstSeenAt === 1_000 && s.goneSince === null)).toBe(true);
    } finally {
      await one.close();
      await two.close();
      await database.drop();
    }
  });

  it('prunes around a story a commit is writing, without waiting for it, and that story stays', async () => {
    const database = await freshPostgres();
    const db = await openDatabase({ dbPath: '', postgres: { url: database.url, poolSize: 2 } });
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    try {
      const saved = await db.alerts.create(
        {
          service: SERVICE,
          channel: 'slack:T1:C1',
          owner: 'U1',
          text: 'rent marina',
          query: '{}',
          operation: 'search',
          paramsKey: 'location=marina',
          summary: 'Rent in marina',
        },
        { perChannel: 25, perOwner: 50 },
      );
      if (!saved.ok) throw new Error('not saved');
      const old = ids(0, 3);
      await db.alerts.commitMany([
        {
          plan: {
            service: SERVICE,
            channels: ['slack:T1:C1'],
            propertyIds: old,
            locationKeys: [],
            outcomes: () => [{ searchId: saved.row.id, at: 1_000, seen: [], deliveries: [], clearError: false }],
            history: {
              ids: old,
              writes: () => ({ at: 1_000, rows: old.map((id) => story(id, 1_000)), seen: [], gone: [] }),
            },
          },
        },
      ]);
      // Another instance's commit is writing p01's story: it holds the row until it commits.
      await other.query('BEGIN');
      await other.query(`SELECT 1 FROM listing_history WHERE property_id = 'p01' FOR UPDATE`);
      const pruned = db.alerts.pruneHistory(5_000);
      expect(await Promise.race([pruned, new Promise((r) => setTimeout(() => r('waiting'), 10_000))])).toBe(2);
      await other.query('COMMIT');
      expect((await db.alerts.history(SERVICE, old)).map((h) => h.propertyId)).toEqual(['p01']);
    } finally {
      await other.end();
      await db.close();
      await database.drop();
    }
  });
});
