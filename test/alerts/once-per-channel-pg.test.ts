// One listing once per channel (issue 27) on Postgres: two instances on one database run the two queries of one
// channel's overlapping alerts at the same moment (as the parts of a shared run are taken by whichever instance is
// free), and each drains the one outbox. The channel gets each listing once, naming both alerts when both matched.
import { describe, expect, it } from 'vitest';
import { ALERT_KINDS, alertKind, matchingAlerts, pollOnce } from '../../src/alerts/index.js';
import { KindRegistry, OutboxDrainer } from '../../src/outbox/index.js';
import type { Reply } from '../../src/views/model.js';
import { freshPostgres } from '../support/postgres.js';
import {
  alertsRig,
  ctx,
  onCleanup,
  pgInstance,
  POLLER,
  RecordingPoster,
  type PgInstance,
  type Post,
} from './helpers.js';

const SHARED = 'test:shared';
const ALERTS = ['buy dubai marina', 'buy marina apartment'];
const ALONE = ['test:alone1', 'test:alone2'];

const idsOf = (r: Reply): Set<string> =>
  new Set([...JSON.stringify(r.blocks).matchAll(/\/property\/(\d+)/g)].map((x) => x[1]!));
const numbersOf = (r: Reply): number[] => [...r.text.split(':')[0]!.matchAll(/#(\d+)/g)].map((x) => Number(x[1]));
const meets = (a: Set<string>, b: Set<string>) => [...a].some((id) => b.has(id));

describe('one listing once per channel, on Postgres', () => {
  it(
    'two instances running two overlapping alerts of one channel at once post each listing once, and a drop once',
    { timeout: 120_000 },
    async () => {
      const rig = await alertsRig();
      const pg = await freshPostgres();
      onCleanup(() => pg.drop());
      const [a, b] = [await pgInstance(rig, pg.url, 'instance-a'), await pgInstance(rig, pg.url, 'instance-b')];
      for (const [k, text] of ALERTS.entries()) {
        expect((await a.commands.handle(ctx(SHARED), `add ${text}`)).text).toMatch(/^Saved as alert #/);
        expect((await b.commands.handle(ctx(ALONE[k]), `add ${text}`)).text).toMatch(/^Saved as alert #1/);
      }
      const queries = [...new Set((await a.db.alerts.listByChannel(SHARED)).map((s) => s.paramsKey))];
      expect(queries).toHaveLength(2);
      const poster = new RecordingPoster();
      const drainerOf = (i: PgInstance) =>
        new OutboxDrainer({
          outbox: i.db.outbox,
          kinds: new KindRegistry().register(
            ALERT_KINDS,
            alertKind({ matches: matchingAlerts(i.db.alerts, rig.logger) }),
          ),
          posters: [poster],
          logger: rig.logger,
          holder: i.holder,
          options: {
            giveUpMs: 3_600_000,
            perChannelIntervalMs: 0,
            baseBackoffMs: 1,
            maxBackoffMs: 2,
            leaseMs: 5_000,
            lookupRetryMs: 1,
          },
        });
      const drainers = [drainerOf(a), drainerOf(b)];
      // Each instance takes one of the two queries, at the same moment; then both drain.
      const round = async () => {
        const [ra, rb] = await Promise.all([
          pollOnce({ ...a.deps, options: POLLER, query: queries[0]! }),
          pollOnce({ ...b.deps, options: POLLER, query: queries[1]! }),
        ]);
        expect([ra.ran, rb.ran, ra.failedQueries + rb.failedQueries]).toEqual([true, true, 0]);
        for (let i = 0; i < 20 && (await a.db.outbox.stats()).pending > 0; i++)
          await Promise.all(drainers.map((d) => d.drain()));
      };
      await round(); // the first look: silent
      expect(poster.posts).toHaveLength(0);
      for (let r = 0; r < 8; r++) {
        rig.sandbox.advance(40);
        await round();
      }

      const of = (channel: string, kind: RegExp) =>
        poster.posts.filter((p: Post) => p.channel === channel && kind.test(p.reply.text)).map((p) => p.reply);
      const news = of(SHARED, /^New listing/);
      const alone = ALONE.map((p) => of(p, /^New listing/));
      expect(alone.every((posts) => posts.length > 0)).toBe(true);
      for (const [i, x] of news.entries())
        for (const y of news.slice(i + 1)) expect(meets(idsOf(x), idsOf(y)), `${x.text} / ${y.text}`).toBe(false);
      for (const posts of alone)
        for (const p of posts)
          expect(
            news.filter((n) => meets(idsOf(n), idsOf(p))),
            p.text,
          ).toHaveLength(1);
      for (const n of news)
        expect(numbersOf(n), n.text).toEqual(
          alone.flatMap((posts, k) => (posts.some((p) => meets(idsOf(p), idsOf(n))) ? [k + 1] : [])),
        );
      const both = news.filter((n) => numbersOf(n).length === 2);
      expect(both.length).toBeGreaterThan(0);

      // A listing both matched drops 5 %: both instances run at once again; one drop post in the channel.
      const id = [...idsOf(both.at(-1)!)][0]!;
      const price = (await a.db.alerts.seenBy((await a.db.alerts.listByChannel(SHARED)).map((s) => s.id)))
        .get((await a.db.alerts.listByChannel(SHARED))[0]!.id)!
        .find((s) => s.propertyId === id)!.lastPrice!;
      const to = Math.round(price * 0.95);
      expect(rig.sandbox.reprice(id, to)).toBe(true);
      await round();
      await round();
      const drops = of(SHARED, /^Price dropped/).filter((r) => idsOf(r).has(id));
      expect(drops).toHaveLength(1);
      expect(drops[0]!.text).toMatch(
        new RegExp(
          `^Price dropped from AED ${price.toLocaleString('en-US')} to AED ${to.toLocaleString('en-US')} for alerts #1, #2:`,
        ),
      );
      for (const p of ALONE) expect(of(p, /^Price dropped/).filter((r) => idsOf(r).has(id))).toHaveLength(1);
    },
  );
});
