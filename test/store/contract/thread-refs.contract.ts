// Where a listing's first card landed (issue 40), as every database keeps it: written with the card's delivery
// (OutboxRepo.markDelivered's `threadRoot`) into the channel's record of the listing, read back by the run's keyed
// read (postedIn); and a batch's own deliveries (CommitOptions.after), queued in its transaction from what it decided.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewAlert } from '../../../src/store/contracts/alerts.js';
import type { NewDelivery } from '../../../src/store/contracts/outbox.js';
import type { PostedQuery, RunOutcome, RunPlan } from '../../../src/store/contracts/seen.js';
import type { AlertsDatabase } from './alerts.contract.js';
import { staleAndCurrent } from './fences.js';

const SERVICE = 'https://api.example';
const CHANNEL = 'slack:T1:C1';
const T = 1_000_000;

const search = (name: string, o: Partial<NewAlert> = {}): NewAlert => ({
  service: SERVICE,
  channel: CHANNEL,
  owner: 'U1',
  text: `rent ${name}`,
  query: JSON.stringify({ v: 1, name }),
  operation: 'search',
  paramsKey: `location=${name}`,
  summary: `Rent in ${name}`,
  ...o,
});

const delivery = (searchId: number, kind: string, propertyId: string, channel = CHANNEL): NewDelivery => ({
  searchId,
  channel,
  kind,
  propertyId,
  dedupeKey: `${searchId}:${kind}:${propertyId}`,
  payload: '{}',
});

/** A run that posts `ids` (one card each) in the search's channel. */
const posting = (searchId: number, ids: string[], channel = CHANNEL): RunOutcome => ({
  searchId,
  at: T,
  seen: ids.map((propertyId) => ({
    propertyId,
    price: 1_000,
    reportedPrice: 1_000,
    locationKey: 'marina',
    bedrooms: '2',
    size: 1200,
    posted: true,
  })),
  deliveries: ids.map((id) => delivery(searchId, 'new', id, channel)),
  clearError: false,
});

const query = (ids: string[], channels = [CHANNEL]): PostedQuery => ({
  service: SERVICE,
  channels,
  propertyIds: ids,
  locationKeys: [],
});

export function threadRefsContract(open: () => Promise<AlertsDatabase>): void {
  let db: AlertsDatabase;
  beforeEach(async () => {
    db = await open();
  });
  afterEach(async () => {
    await db.close();
  });

  async function saved(name: string, o: Partial<NewAlert> = {}) {
    const result = await db.alerts.create(search(name, o), { perChannel: 25, perOwner: 50 });
    if (!result.ok) throw new Error(`not saved: ${result.reason}`);
    return result.row;
  }

  /** Claims everything due (entries are queued on the real clock): each by its kind and property id (then channel). */
  async function claimed(after: number) {
    const rows = await db.outbox.claimDue({
      holder: 'a',
      at: Date.now() + after,
      leaseMs: 60_000,
      perChannel: 10,
      channels: 10,
      platforms: ['slack'],
    });
    return new Map(rows.map((r) => [`${r.channel === CHANNEL ? '' : `${r.channel} `}${r.kind}:${r.propertyId}`, r]));
  }

  const refs = async (ids: string[], channels?: string[]) =>
    (await db.alerts.postedIn(query(ids, channels))).map((r) => [r.channel, r.propertyId, r.messageRef]);

  describe('where a first card landed (channel_posted.message_ref)', () => {
    it('is kept with the card’s delivery, read by key; not by another kind, another channel, or a stale claim', async () => {
      const a = await saved('marina');
      const b = await saved('marina', { channel: 'slack:T1:C2' });
      await db.alerts.commitRuns([posting(a.id, ['p1', 'p2', 'p3']), posting(b.id, ['p1'], 'slack:T1:C2')]);
      await db.outbox.enqueue(delivery(a.id, 'price_drop', 'p2'));
      expect(await refs(['p1', 'p2', 'p3'])).toEqual([
        [CHANNEL, 'p1', null],
        [CHANNEL, 'p2', null],
        [CHANNEL, 'p3', null],
      ]);
      const entries = await claimed(T + 1);
      const [p1, p2, drop, p3] = ['new:p1', 'new:p2', 'price_drop:p2', 'new:p3'].map((k) => entries.get(k)!);
      expect(await db.outbox.markDelivered(p1!.id, p1!.token, '1700.0001', T + 2, false, true)).toBe(true);
      // Not a first card (a drop): its place is not the listing's.
      expect(await db.outbox.markDelivered(drop!.id, drop!.token, '1700.0009', T + 2, false, false)).toBe(true);
      // A stale claim marks nothing, and keeps no place.
      expect(await db.outbox.markDelivered(p3!.id, p3!.token + 1_000, '1700.0003', T + 2, false, true)).toBe(false);
      expect(await refs(['p1', 'p2', 'p3'])).toEqual([
        [CHANNEL, 'p1', '1700.0001'],
        [CHANNEL, 'p2', null],
        [CHANNEL, 'p3', null],
      ]);
      expect(await refs(['p1'], ['slack:T1:C2'])).toEqual([['slack:T1:C2', 'p1', null]]);
      expect((await db.outbox.byId(p3!.id))!.state).toBe('claimed');
      // Marked as before otherwise (delivered, with the platform's id), and a card's place is not overwritten.
      expect(await db.outbox.byId(p1!.id)).toMatchObject({ state: 'delivered', messageId: '1700.0001' });
      expect(await db.outbox.markDelivered(p2!.id, p2!.token, '1700.0002', T + 3, true, true)).toBe(true);
      expect(await db.outbox.byId(p2!.id)).toMatchObject({ state: 'delivered', possibleDuplicate: true });
      await db.alerts.commitRuns([posting(a.id, ['p1'])]); // seen again: the channel's row rewritten
      expect(await refs(['p1', 'p2'])).toEqual([
        [CHANNEL, 'p1', '1700.0001'],
        [CHANNEL, 'p2', '1700.0002'],
      ]);
    });

    it('is forgotten once the channel starts over (every alert that posted it gone), and kept anew after', async () => {
      const a = await saved('marina');
      await db.alerts.commitRuns([posting(a.id, ['p1'])]);
      const first = (await claimed(T + 1)).get('new:p1')!;
      await db.outbox.markDelivered(first.id, first.token, '1700.0001', T + 2, false, true);
      await db.alerts.remove(a.id);
      const b = await saved('jvc');
      await db.alerts.commitRuns([posting(b.id, ['p1'])]);
      expect(await refs(['p1'])).toEqual([[CHANNEL, 'p1', null]]);
      const again = (await claimed(T + 3)).get('new:p1')!;
      await db.outbox.markDelivered(again.id, again.token, '1700.0005', T + 4, false, true);
      expect(await refs(['p1'])).toEqual([[CHANNEL, 'p1', '1700.0005']]);
    });
  });

  describe("a batch's own deliveries (CommitOptions.after)", () => {
    const plan = (outcome: RunOutcome): RunPlan => ({ ...query(['p1']), outcomes: () => [outcome] });
    const line = (channel: string, n: number): NewDelivery => ({
      channel,
      kind: 'drops',
      dedupeKey: `drops:${channel}:${T}`,
      payload: JSON.stringify({ n }),
    });

    it('are queued after the items’ own, from every item’s decision, once by their dedupe key', async () => {
      const [a, b] = [await saved('marina'), await saved('jvc')];
      let given: readonly RunOutcome[] = [];
      const after = (decided: readonly RunOutcome[]) => {
        given = decided;
        return [line(CHANNEL, decided.length)];
      };
      const items = [{ plan: plan(posting(a.id, ['p1'])) }, { plan: plan(posting(b.id, ['p2'])) }];
      expect(await db.alerts.commitMany(items, undefined, { after })).toEqual([1, 2]);
      expect(given.map((o) => o.searchId)).toEqual([a.id, b.id]);
      const queued = await db.outbox.list({ channel: CHANNEL });
      expect(queued.map((r) => [r.kind, r.propertyId])).toEqual([
        ['new', 'p1'],
        ['new', 'p2'],
        ['drops', null],
      ]);
      expect(queued[2]).toMatchObject({ searchId: null, payload: JSON.stringify({ n: 2 }) });
      // The same line again (a later job of the run) is not queued twice.
      const later = [{ plan: plan(posting(a.id, ['p3'])) }];
      expect(await db.alerts.commitMany(later, undefined, { after })).toEqual([1]);
      expect((await db.outbox.list({ channel: CHANNEL })).filter((r) => r.kind === 'drops')).toHaveLength(1);
    });

    it('are neither asked for nor queued under a stale fence', async () => {
      const a = await saved('marina');
      const { stale } = await staleAndCurrent(db.leases, 'poller');
      let asked = false;
      const after = () => ((asked = true), [line(CHANNEL, 1)]);
      expect(await db.alerts.commitMany([{ plan: plan(posting(a.id, ['p1'])) }], stale, { after })).toBeUndefined();
      expect(asked).toBe(false);
      expect(await db.outbox.list({ channel: CHANNEL })).toEqual([]);
    });
  });
}
