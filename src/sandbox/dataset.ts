// The whole seeded market in memory, and the clock that moves it: same seed and same advances, same data.
import { createGeography, type Geography, type Area } from './geography.js';
import { MARINA_BATCH_CYCLE, makeListing, type Staffing } from './listings.js';
import type { AdrecEntry, Agent, Broker, Category, Developer, Listing, Project, Transaction } from './model.js';
import { makeAgents, makeBrokers } from './people.js';
import { makeDevelopers, makeProjects } from './projects.js';
import { LRUCache } from 'lru-cache';
import { TX_HISTORY_DAYS, dayOf, makeAdrec, transactionsOfDay } from './history.js';
import { Rng, hash } from './random.js';

const INITIAL_LISTINGS = 4200;
/** New listings per minute of market time (about 12 an hour). */
const LISTINGS_PER_MINUTE = 0.2;
const MAX_ADDED_PER_ADVANCE = 600;

export interface Dataset {
  readonly seed: number;
  readonly geo: Geography;
  readonly brokers: readonly Broker[];
  readonly agents: readonly Agent[];
  readonly developers: readonly Developer[];
  readonly projects: readonly Project[];
  /** Made a day at a time up to the clock's day (see addTransactionDays); answered once their time has come. */
  readonly transactions: Transaction[];
  readonly adrec: readonly AdrecEntry[];
  /** Every listing ever made, withdrawn ones included (flagged). */
  readonly listings: Listing[];
  readonly listingById: Map<number, Listing>;
  readonly brokerById: ReadonlyMap<number, Broker>;
  readonly agentById: ReadonlyMap<number, Agent>;
  readonly developerById: ReadonlyMap<string, Developer>;
  /** The market clock, ms since epoch. */
  now: number;
  /** Where the clock started: the trend's prices are counted from its month. */
  readonly start: number;
  /** The last UTC day (days since the epoch) whose transactions are made. */
  transactionsThrough: number;
  nextListingId: number;
  advances: number;
}

export function buildDataset(seed: number, start: Date): Dataset {
  const now = start.getTime();
  const geo = createGeography();
  const stream = (name: string) => new Rng(hash(seed, name));
  const brokers = makeBrokers(stream('brokers'));
  const agents = makeAgents(stream('agents'), brokers);
  const developers = makeDevelopers(stream('developers'));
  const ds: Dataset = {
    seed,
    geo,
    brokers,
    agents,
    developers,
    projects: makeProjects(stream('projects'), geo, developers, now),
    transactions: [],
    adrec: makeAdrec(stream('adrec'), now),
    listings: [],
    listingById: new Map(),
    brokerById: new Map(brokers.map((b) => [b.id, b])),
    agentById: new Map(agents.map((a) => [a.id, a])),
    developerById: new Map(developers.map((d) => [d.id, d])),
    now,
    start: now,
    transactionsThrough: dayOf(now) - TX_HISTORY_DAYS - 1,
    nextListingId: 16_100_000,
    advances: 0,
  };
  addTransactionDays(ds);
  const rng = stream('listings');
  const staff = staffing(brokers, agents);
  const communities = weightedCommunities(geo);
  // Listed over the 120 days before the clock starts; ids grow with time as upstream.
  const times = Array.from({ length: INITIAL_LISTINGS }, () => now - rng.int(1, 120 * 24 * 60) * 60_000).sort(
    (a, b) => a - b,
  );
  for (const listedAt of times) {
    ds.nextListingId += rng.int(1, 60);
    addListing(ds, makeListing(rng, geo, staff, ds.nextListingId, listedAt, rng.weighted(communities)));
  }
  addStockOfAddedAreas(ds, stream('listings-added'), staff);
  return ds;
}

/** Ids of the added areas' stock: below the first market's, which stay as they were. */
const ADDED_FIRST_ID = 15_000_000;

/**
 * The listings of the areas added after the first market (areas-added.ts), from a stream of their own: 4 plus 4 per
 * unit of weight each, listed over the same 120 days; the first ones of each area for rent and for sale, and
 * commercial too where it has towers, so every kind of search finds something there.
 */
function addStockOfAddedAreas(ds: Dataset, rng: Rng, staff: Staffing) {
  const made: Listing[] = [];
  for (const area of ds.geo.areas.filter((p) => p.added)) {
    const kinds: Category[] = [
      'residential_rent',
      'residential_sale',
      ...(area.style === 'villas' ? [] : (['commercial_rent', 'commercial_sale'] as const)),
    ];
    for (let i = 0; i < 4 + 4 * area.weight; i++) {
      const listedAt = ds.now - rng.int(1, 120 * 24 * 60) * 60_000;
      made.push(
        makeListing(rng, ds.geo, staff, 0, listedAt, area, i < kinds.length ? { category: kinds[i]! } : undefined),
      );
    }
  }
  // Ids grow with time, as upstream.
  let id = ADDED_FIRST_ID;
  for (const l of made.sort((a, b) => a.listedAt - b.listedAt)) addListing(ds, { ...l, id: (id += rng.int(1, 30)) });
}

/**
 * A listing of the first market: the clock's withdrawals and price changes are drawn among these, as they always were.
 */
const ofFirstMarket = (ds: Dataset) => (l: Listing) => !ds.geo.byId.get(l.areaId)?.added;

function staffing(brokers: readonly Broker[], agents: readonly Agent[]): Staffing {
  const brokersByEmirate = new Map<string, Broker[]>();
  for (const b of brokers) brokersByEmirate.set(b.emirate, [...(brokersByEmirate.get(b.emirate) ?? []), b]);
  const agentsByBroker = new Map<number, Agent[]>();
  for (const a of agents) agentsByBroker.set(a.brokerId, [...(agentsByBroker.get(a.brokerId) ?? []), a]);
  return { brokersByEmirate, agentsByBroker };
}

/** The first market's communities, by weight: the added areas have a stock of their own (addStockOfAddedAreas). */
const weightedCommunities = (geo: Geography) =>
  geo.areas.filter((p) => p.level === 'community' && !p.added).map((p) => [p, p.weight] as const);

// A day's transactions depend only on the seed, the day and the clock's start (the geography is fixed), and nothing
// changes them once made: sandboxes built in one process (the tests build hundreds) share them rather than drawing
// the same year of history again, about half of a build's time.
const DAYS_KEPT = 2_000;
const daysMade = new LRUCache<string, readonly Transaction[]>({ max: DAYS_KEPT });

function transactionsOf(ds: Dataset, day: number): readonly Transaction[] {
  const key = `${ds.seed}:${ds.start}:${day}`;
  let made = daysMade.get(key);
  if (!made) daysMade.set(key, (made = transactionsOfDay(ds.seed, ds.geo, day, ds.start)));
  return made;
}

/** Makes the transactions of every day up to the clock's (those of its later hours wait for the clock). */
function addTransactionDays(ds: Dataset) {
  for (let day = ds.transactionsThrough + 1; day <= dayOf(ds.now); day++)
    ds.transactions.push(...transactionsOf(ds, day));
  ds.transactionsThrough = Math.max(ds.transactionsThrough, dayOf(ds.now));
}

function addListing(ds: Dataset, l: Listing) {
  ds.listings.push(l);
  ds.listingById.set(l.id, l);
}

export interface AdvanceResult {
  added: number;
  /** New listings that are another brokerage's copy of a flat listed in the same advance (as on real portals). */
  relisted: number;
  withdrawn: number;
  repriced: number;
}

/**
 * Moves the market clock: the sales and lettings of the days it enters (see transactionsOfDay), new listings (higher
 * ids, listed at the new time, the first of each batch in Dubai
 * Marina so searches there always see them), a third as many withdrawals and half as many price changes.
 */
export function advance(ds: Dataset, minutes: number): AdvanceResult {
  if (!Number.isFinite(minutes) || minutes <= 0) throw new RangeError('minutes must be a positive number');
  ds.advances++;
  ds.now += Math.round(minutes * 60_000);
  const rng = new Rng(hash(ds.seed, 'advance', ds.advances, ds.now));
  const added = Math.min(MAX_ADDED_PER_ADVANCE, Math.max(1, Math.round(minutes * LISTINGS_PER_MINUTE)));
  const geo = ds.geo;
  const staff = staffing(ds.brokers, ds.agents);
  const communities = weightedCommunities(geo);
  const marina = geo.byId.get(50)!;
  const fresh: Listing[] = [];
  for (let i = 0; i < added; i++) {
    ds.nextListingId += rng.int(1, 60);
    const community: Area = i === 0 ? marina : rng.weighted(communities);
    const drawn = makeListing(rng, geo, staff, ds.nextListingId, ds.now, community);
    // The Marina listing takes its kind in turn (MARINA_BATCH_CYCLE), drawn from a stream of its own: the main
    // stream is used exactly as before, so the rest of the market moves as it always has.
    const listing =
      i === 0
        ? makeListing(
            new Rng(hash(ds.seed, 'marina', ds.advances)),
            geo,
            staff,
            ds.nextListingId,
            ds.now,
            marina,
            MARINA_BATCH_CYCLE[(ds.advances - 1) % MARINA_BATCH_CYCLE.length],
          )
        : drawn;
    addListing(ds, listing);
    fresh.push(listing);
  }
  const relisted = relist(ds, staff, fresh[0]!);
  addTransactionDays(ds);
  const active = ds.listings.filter((l) => !l.withdrawn && l.listedAt < ds.now).filter(ofFirstMarket(ds));
  const withdrawn = Math.min(active.length, Math.floor(added / 3));
  const gone = rng.sample(active, withdrawn);
  for (const l of gone) l.withdrawn = true;
  const stillActive = active.filter((l) => !l.withdrawn);
  const repriced = Math.min(stillActive.length, Math.floor(added / 2));
  for (const l of rng.sample(stillActive, repriced)) {
    const step = l.category.endsWith('sale') ? 1000 : 500;
    // Mostly reductions, as on a real portal; never to the same price.
    const next = Math.round((l.price * rng.between(0.9, 1.05)) / step) * step;
    l.price = next === l.price ? l.price - step : Math.max(step, next);
  }
  return { added, withdrawn, repriced, relisted };
}

/**
 * The same flat listed again by another brokerage under its own id, within 1 % of the price: every advance's
 * first (Dubai Marina) listing gets one copy, so alerts can be seen folding the two into one card. Drawn from a
 * stream of its own, so the rest of the market moves exactly as before.
 */
function relist(ds: Dataset, staff: Staffing, original: Listing): number {
  const rng = new Rng(hash(ds.seed, 'relist', ds.advances));
  const emirate = ds.geo.byId.get(original.areaId)!.emirate;
  const others = (staff.brokersByEmirate.get(emirate) ?? []).filter(
    (b) => b.id !== original.brokerId && (staff.agentsByBroker.get(b.id)?.length ?? 0) > 0,
  );
  if (others.length === 0) return 0;
  const broker = rng.pick(others);
  const agent = rng.pick(staff.agentsByBroker.get(broker.id)!);
  const step = original.category.endsWith('sale') ? 1000 : 500;
  const price = Math.max(step, Math.round((original.price * rng.between(0.992, 1.008)) / step) * step);
  ds.nextListingId += rng.int(1, 5);
  addListing(ds, {
    ...original,
    id: ds.nextListingId,
    agentId: agent.id,
    brokerId: broker.id,
    price,
    boost: rng.between(0, 1),
    withdrawn: false,
  });
  return 1;
}
