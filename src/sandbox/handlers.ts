// The 17 operations over the dataset: every filter, sort and page applied for real.
import type { OperationName } from '../api/operations.js';
import { autocomplete } from './autocomplete.js';
import type { Dataset } from './dataset.js';
import { priceTrend } from './history.js';
import type { Category, Listing, Transaction } from './model.js';
import * as shape from './shape.js';
import type { RentFrequency } from './shape.js';

export type Params = Readonly<Record<string, string>>;
export type Answer = { status: 200; body: Record<string, unknown> } | { status: 400 | 404; error: string };
export type TransactionShape = 'flat' | 'nested';

const LISTING_PAGE = 25;
const TRANSACTION_PAGE = 15;
const DIRECTORY_PAGE = 20;
const MAX_ADREC_SIZE = 100;

const ok = (data: unknown): Answer => ({ status: 200, body: { success: true, data } });
const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
const counts = (v: string | undefined) => (v === undefined ? undefined : new Set(v.split(',').map(Number)));

function pageOf<T>(items: readonly T[], page: number, size: number): T[] {
  return items.slice(page * size, page * size + size);
}

/** A 1-based page of `size` items. */
const page1 = <T>(items: readonly T[], p: Params, size: number) => pageOf(items, Number(p.page ?? '1') - 1, size);

const within = (ds: Dataset, id: string | undefined) => (id === undefined ? undefined : ds.geo.within(Number(id)));
const active = (ds: Dataset) => ds.listings.filter((l) => !l.withdrawn && l.listedAt <= ds.now);

/** newest: most recently listed first (ids break ties, newer ids being higher). */
function sortListings(list: Listing[], sort: string, price: (l: Listing) => number): Listing[] {
  const newest = (a: Listing, b: Listing) => b.listedAt - a.listedAt || b.id - a.id;
  // Hidden prices ("on request") go last in either price order.
  const hiddenLast = (a: Listing, b: Listing) => Number(a.priceHidden) - Number(b.priceHidden);
  const by: Record<string, (a: Listing, b: Listing) => number> = {
    newest,
    featured: (a, b) => b.boost - a.boost || newest(a, b),
    price_asc: (a, b) => hiddenLast(a, b) || price(a) - price(b) || newest(a, b),
    price_desc: (a, b) => hiddenLast(a, b) || price(b) - price(a) || newest(a, b),
  };
  return list.sort(by[sort] ?? newest);
}

function searchListings(ds: Dataset, category: Category, p: Params, frequency?: RentFrequency): Answer {
  const areas = within(ds, p.location_id)!;
  const freq = frequency ?? (category === 'commercial_rent' ? 'monthly' : 'yearly');
  const shown = (l: Listing) => shape.shownPrice(l, freq).value;
  const beds = counts(p.bedrooms);
  const baths = counts(p.bathrooms);
  const [pmin, pmax, amin, amax] = [num(p.price_min), num(p.price_max), num(p.area_min), num(p.area_max)];
  const amenities = p.amenities?.split(',') ?? [];
  const hits = active(ds).filter(
    (l) =>
      l.category === category &&
      areas.has(l.areaId) &&
      (!beds || beds.has(l.bedrooms)) &&
      (!baths || baths.has(l.bathrooms)) &&
      // A hidden price cannot satisfy a price bound.
      ((pmin === undefined && pmax === undefined) ||
        (!l.priceHidden && (pmin === undefined || shown(l) >= pmin) && (pmax === undefined || shown(l) <= pmax))) &&
      (amin === undefined || l.size >= amin) &&
      (amax === undefined || l.size <= amax) &&
      (!p.property_type || l.type === p.property_type) &&
      (!p.furnishing || l.furnishing === p.furnishing) &&
      (!p.completion_status || l.completion === p.completion_status) &&
      amenities.every((a) => l.amenities.includes(a)),
  );
  const sorted = sortListings(hits, p.sort ?? 'newest', shown);
  return ok(page1(sorted, p, LISTING_PAGE).map((l) => shape.listingSummary(ds, l, freq)));
}

function ownerListings(
  ds: Dataset,
  p: Params,
  owner: (l: Listing) => boolean,
  shapeOne: (ds: Dataset, l: Listing) => unknown,
): Answer {
  const hits = active(ds).filter((l) => owner(l) && (!p.category || l.category === p.category));
  const sorted = sortListings(hits, p.sort ?? 'featured', (l) => l.price);
  return ok(page1(sorted, p, LISTING_PAGE).map((l) => shapeOne(ds, l)));
}

/** Agents active in a location (and category), with their listing counts. */
function searchAgents(ds: Dataset, p: Params, detailed: boolean): Answer {
  const areas = within(ds, p.location_id);
  const category = p.category ?? 'residential_sale';
  const totals = new Map<number, shape.AgentCounts>();
  const eligible = new Set<number>();
  for (const l of active(ds)) {
    const c = totals.get(l.agentId) ?? { total: 0, sale: 0, rent: 0 };
    c.total++;
    if (l.category.endsWith('sale')) c.sale++;
    else c.rent++;
    totals.set(l.agentId, c);
    if (l.category === category && (!areas || areas.has(l.areaId))) eligible.add(l.agentId);
  }
  const agents = ds.agents.filter((a) => eligible.has(a.id));
  const c = (id: number) => totals.get(id)!;
  const by: Record<string, (a: (typeof agents)[number], b: (typeof agents)[number]) => number> = {
    most_sales: (a, b) => c(b.id).sale - c(a.id).sale,
    most_rentals: (a, b) => c(b.id).rent - c(a.id).rent,
    featured: (a, b) => Number(b.superAgent) - Number(a.superAgent) || b.boost - a.boost,
  };
  const sorted = agents.sort((a, b) => by[p.sort ?? 'most_sales']!(a, b) || a.id - b.id);
  return ok(
    page1(sorted, p, DIRECTORY_PAGE).map((a) =>
      detailed ? shape.agentDetailed(ds, a, c(a.id)) : shape.agentSimple(ds, a, c(a.id)),
    ),
  );
}

function searchBrokers(ds: Dataset, p: Params, detailed: boolean): Answer {
  const areas = within(ds, p.location_id);
  const totals = new Map<number, number>();
  const eligible = new Set<number>();
  for (const l of active(ds)) {
    totals.set(l.brokerId, (totals.get(l.brokerId) ?? 0) + 1);
    if (!areas || areas.has(l.areaId)) eligible.add(l.brokerId);
  }
  const agentCount = new Map<number, number>();
  for (const a of ds.agents) agentCount.set(a.brokerId, (agentCount.get(a.brokerId) ?? 0) + 1);
  const total = (id: number) => totals.get(id) ?? 0;
  const agents = (id: number) => agentCount.get(id) ?? 0;
  const brokers = ds.brokers.filter((b) => eligible.has(b.id));
  const by: Record<string, (a: (typeof brokers)[number], b: (typeof brokers)[number]) => number> = {
    featured: (a, b) => b.boost - a.boost,
    most_properties: (a, b) => total(b.id) - total(a.id),
    most_agents: (a, b) => agents(b.id) - agents(a.id),
  };
  const sorted = brokers.sort((a, b) => by[p.sort ?? 'featured']!(a, b) || a.id - b.id);
  return ok(
    page1(sorted, p, DIRECTORY_PAGE).map((b) =>
      (detailed ? shape.brokerDetailed : shape.brokerSimple)(b, total(b.id), agents(b.id)),
    ),
  );
}

function searchProjects(ds: Dataset, p: Params): Answer {
  const areas = within(ds, p.location_id)!;
  const beds = counts(p.bedrooms);
  const [pmin, pmax, amin, amax] = [num(p.price_min), num(p.price_max), num(p.area_min), num(p.area_max)];
  const hits = ds.projects.filter(
    (x) =>
      areas.has(x.areaId) &&
      (!p.property_type || x.type === p.property_type) &&
      (!beds || x.bedrooms.some((b) => beds.has(b))) &&
      (pmin === undefined || x.priceFrom >= pmin) &&
      (pmax === undefined || x.priceFrom <= pmax) &&
      // Area bounds keep projects whose unit sizes overlap the range.
      (amin === undefined || x.areaTo >= amin) &&
      (amax === undefined || x.areaFrom <= amax),
  );
  type P = (typeof hits)[number];
  const by: Record<string, (a: P, b: P) => number> = {
    featured: (a, b) => b.boost - a.boost,
    newest: (a, b) => b.salesStartDate.localeCompare(a.salesStartDate),
    price_asc: (a, b) => a.priceFrom - b.priceFrom,
    price_desc: (a, b) => b.priceFrom - a.priceFrom,
    delivery_earliest: (a, b) => a.deliveryDate.localeCompare(b.deliveryDate),
    delivery_latest: (a, b) => b.deliveryDate.localeCompare(a.deliveryDate),
  };
  const sorted = hits.sort((a, b) => by[p.sort ?? 'featured']!(a, b) || a.id.localeCompare(b.id));
  return ok(page1(sorted, p, DIRECTORY_PAGE).map((x) => shape.project(ds, x)));
}

const PERIOD_MONTHS: Record<string, number> = { '1y': 12, '6m': 6, '3m': 3, '1m': 1 };

function searchTransactions(ds: Dataset, p: Params, txShape: TransactionShape): Answer {
  const areas = within(ds, p.location_id)!;
  const now = new Date(ds.now);
  const today = now.toISOString().slice(0, 10);
  const from = new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - PERIOD_MONTHS[p.period ?? '1y']!, now.getUTCDate()),
  )
    .toISOString()
    .slice(0, 10);
  const bedrooms = num(p.bedrooms);
  const hits = ds.transactions.filter(
    (t) =>
      t.kind === p.transaction_type &&
      areas.has(t.areaId) &&
      (!p.property_type || t.type === p.property_type) &&
      (bedrooms === undefined || t.bedrooms === bedrooms) &&
      t.date >= from &&
      t.date <= today &&
      t.at <= ds.now,
  );
  const by: Record<string, (a: Transaction, b: Transaction) => number> = {
    newest: (a, b) => b.at - a.at,
    oldest: (a, b) => a.at - b.at,
    high_price: (a, b) => b.price - a.price,
    low_price: (a, b) => a.price - b.price,
  };
  const sorted = hits.sort((a, b) => by[p.sort ?? 'newest']!(a, b) || a.id.localeCompare(b.id));
  const page = Number(p.page ?? '1');
  const rows = page1(sorted, p, TRANSACTION_PAGE).map((t) => shape.transaction(ds, t));
  if (txShape === 'flat') return ok(rows);
  const totalPrice = hits.reduce((s, t) => s + t.price, 0);
  const totalSize = hits.reduce((s, t) => s + t.size, 0);
  const summary = {
    total_transactions: hits.length,
    average_price: hits.length ? Math.round(totalPrice / hits.length) : 0,
    average_price_per_sqft: totalSize ? Math.round(totalPrice / totalSize) : 0,
  };
  return ok({
    data: {
      attributes: {
        transactions: rows,
        summary,
        page,
        total_items: hits.length,
        total_pages: Math.ceil(hits.length / TRANSACTION_PAGE),
      },
    },
  });
}

const fromDmy = (s: string) => {
  const [d, m, y] = s.split('/').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d);
};

function searchAdrec(ds: Dataset, p: Params): Answer {
  const size = Number(p.size ?? '20');
  if (size < 1 || size > MAX_ADREC_SIZE)
    return { status: 400, error: `size must be a whole number from 1 to ${MAX_ADREC_SIZE} (got "${p.size}")` };
  const districts = p.district ? new Set(p.district.split(',')) : undefined;
  const types = p.propertyType ? new Set(p.propertyType.split(',')) : undefined;
  const from = p.fromDate ? fromDmy(p.fromDate) : -Infinity;
  const to = p.toDate ? fromDmy(p.toDate) : Infinity;
  const hits = ds.adrec
    .filter(
      (e) =>
        (!districts || districts.has(String(e.record.district))) &&
        (!types || types.has(String(e.record.propertyType))) &&
        e.time >= from &&
        e.time <= to,
    )
    .sort((a, b) => b.time - a.time);
  const data = pageOf(hits, Number(p.page ?? '0'), size).map((e) => ({ ...e.record }));
  return { status: 200, body: { success: true, message: 'ADREC transactions fetched successfully', data } };
}

function developers(ds: Dataset, p: Params): Answer {
  const region = p.location ?? 'dubai';
  const projects = new Map<string, number>();
  for (const x of ds.projects) projects.set(x.developerId, (projects.get(x.developerId) ?? 0) + 1);
  const n = (id: string) => projects.get(id) ?? 0;
  const list = ds.developers
    .filter((d) => d.region === region)
    .sort((a, b) => n(b.id) - n(a.id) || a.name.localeCompare(b.name));
  return ok(page1(list, p, DIRECTORY_PAGE).map((d) => shape.developer(d, n(d.id))));
}

export function handle(ds: Dataset, op: OperationName, p: Params, txShape: TransactionShape): Answer {
  switch (op) {
    case 'search-buy':
      return searchListings(ds, 'residential_sale', p);
    case 'search-rent':
      return searchListings(ds, 'residential_rent', p, p.rent_frequency as RentFrequency | undefined);
    case 'search-commercial-buy':
      return searchListings(ds, 'commercial_sale', p);
    case 'search-commercial-rent':
      return searchListings(ds, 'commercial_rent', p, p.rent_frequency as RentFrequency | undefined);
    case 'search-new-projects':
      return searchProjects(ds, p);
    case 'agent-properties':
      return ownerListings(ds, p, (l) => l.agentId === Number(p.agent_id), shape.agentListing);
    case 'broker-properties':
      return ownerListings(ds, p, (l) => l.brokerId === Number(p.broker_id), shape.brokerListing);
    case 'get-get-transactions':
      return searchTransactions(ds, p, txShape);
    case 'get-adrec-transactions':
      return searchAdrec(ds, p);
    case 'property-details': {
      const l = ds.listingById.get(Number(p.property_id));
      if (!l || l.withdrawn || l.listedAt > ds.now)
        return { status: 404, error: `No property with property_id ${p.property_id}` };
      return ok(shape.propertyDetails(ds, l));
    }
    case 'search-agents':
      return searchAgents(ds, p, false);
    case 'search-agents-detailed':
      return searchAgents(ds, p, true);
    case 'search-brokers':
      return searchBrokers(ds, p, false);
    case 'search-brokers-detailed':
      return searchBrokers(ds, p, true);
    case 'autocomplete-location':
      return ok(autocomplete(ds.geo, p.query ?? ''));
    case 'real-estate-developer':
      return developers(ds, p);
    case 'price-trend-of-location': {
      const area = ds.geo.byId.get(Number(p.location_id));
      return ok(area ? priceTrend(ds.seed, ds.geo, area, p.property_type ?? 'apartment', ds.now, ds.start) : []);
    }
  }
}
