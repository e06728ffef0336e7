// On Postgres, the runs that post in a channel commit one at a time (its advisory lock, held until the commit), and a
// run that posts nothing there waits for none of them: another instance holding the channel's lock, as a run posting
// there does, holds back only the run that would post.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { RunOutcome } from '../../src/store/index.js';
import { openDatabase } from '../../src/store/index.js';
import { freshPostgres } from '../support/postgres.js';

const SERVICE = 'https://api.example';
const CHANNEL = 'slack:T1:C1';

describe('a run on Postgres and the lock of its channel', () => {
  it('waits for it only when the run posts in the channel, and then decides from what was posted meanwhile', async () => {
    const database = await freshPostgres();
    const db = await openDatabase({ dbPath: '', postgres: { url: database.url, poolSize: 4 } });
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    try {
      const save = async (name: string) => {
        const saved = await db.alerts.create(
          {
            service: SERVICE,
            channel: CHANNEL,
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
      const [id, otherId] = [await save('marina'), await save('dubai marina')];
      const seen = (propertyId: string) => ({
        propertyId,
        price: 100,
        locationKey: 'marina',
        bedrooms: '2',
        size: 1200,
        posted: true,
      });
      const run = (at: number, o: Partial<RunOutcome>): RunOutcome => ({
        searchId: id,
        at,
        seen: [],
        deliveries: [],
        clearError: false,
        ...o,
      });
      const plan = (outcomes: (posted: readonly { propertyId: string }[]) => RunOutcome[]) => ({
        service: SERVICE,
        channels: [CHANNEL],
        propertyIds: ['p1', 'p2'],
        locationKeys: [],
        outcomes,
      });
      // Another instance's run posting in the channel: it holds the channel's lock until it commits.
      await other.query('BEGIN');
      await other.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`manzil:alerts-place:${CHANNEL}`]);

      // A run that posts nothing (a repriced listing recorded) commits at once.
      const quiet = db.alerts.commitPlanned(plan(() => [run(1_000, { seen: [{ ...seen('p9'), posted: false }] })]));
      expect(await Promise.race([quiet, new Promise((r) => setTimeout(() => r('waiting'), 5_000))])).toBe(0);

      // A run that would post p1 waits; meanwhile the other run posts p1, so it decides again and posts nothing.
      let asked = 0;
      const posting = db.alerts.commitPlanned(
        plan((posted) => {
          asked++;
          return posted.some((p) => p.propertyId === 'p1')
            ? [run(2_000, { seen: [{ ...seen('p1'), posted: true }] })]
            : [
                run(2_000, {
                  seen: [seen('p1')],
                  deliveries: [
                    {
                      searchId: id,
                      channel: CHANNEL,
                      kind: 'new',
                      propertyId: 'p1',
                      dedupeKey: `${id}:new:p1`,
                      payload: '{}',
                    },
                  ],
                }),
              ];
        }),
      );
      expect(await Promise.race([posting, new Promise((r) => setTimeout(() => r('waiting'), 1_000))])).toBe('waiting');
      expect(asked).toBe(1);
      await other.query(
        `INSERT INTO channel_posted (service, place, property_id, location_key, bedrooms, size, last_price, reported_price)
         VALUES ($1, $2, 'p1', 'marina', '2', 1200, 100, 100)`,
        [SERVICE, CHANNEL],
      );
      await other.query(
        `INSERT INTO channel_posted_alert (service, place, property_id, search_id) VALUES ($1, $2, 'p1', $3)`,
        [SERVICE, CHANNEL, otherId],
      );
      await other.query('COMMIT');
      expect(await posting).toBe(0);
      expect(asked).toBe(2);
      expect(await db.outbox.list({ channel: CHANNEL })).toEqual([]);
    } finally {
      await other.end();
      await db.close();
      await database.drop();
    }
  });
});
