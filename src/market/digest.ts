// One place's market digest as data, for any renderer (chat cards, a chart, the terminal): what sold and rented in the
// last 30 days, the price trend, gross yields, new listings and off-plan projects. Every part names its period and
// its source and says whether it could be fetched and whether there was enough data; an area whose data could not be
// fetched at all is marked failed with the reason, never thrown.
import { ApiError } from '../api/errors.js';
import { OPERATIONS, type OperationName } from '../api/operations.js';
import type { ListingSummary, NewProject } from '../api/records.js';
import { foldSameFlats } from '../views/same-flat.js';
import type { MarketData } from './data.js';
import { CallMeter, type NewListingsKind } from './types.js';
import {
  listingFacts,
  saleContext,
  transactionFigures,
  trendFigures,
  yieldFigures,
  type Bucket,
  type TransactionFigures,
  type TrendFigures,
  type YieldFigure,
} from './figures.js';

const DAY = 86_400_000;

export interface DigestSource {
  operation: OperationName;
  path: string;
  params: Record<string, string>;
  /** When the answer was fetched (ISO); absent when it could not be. */
  fetchedAt?: string;
}

export interface DigestPeriod {
  /** In words: "last 30 days", "Dec 2025 to Nov 2026". */
  label: string;
  /** ISO dates or times where they are known. */
  from?: string;
  to?: string;
}

/** ok: shown; thin: too little data (counts may be there, no median); unavailable: could not be fetched. */
export type PartState = 'ok' | 'thin' | 'unavailable';

export interface DigestPart<T> {
  state: PartState;
  period: DigestPeriod;
  sources: DigestSource[];
  /** Present when ok or thin. */
  data?: T;
  /** Why a part is thin or unavailable, in words. */
  reason?: string;
  /** An unavailable part's failure, as the API client classed it ('unavailable': refused by the open circuit). */
  failure?: string;
}

export interface CheapListing {
  listing: ListingSummary;
  /** The same flat from other agents (views/same-flat.ts): one pick, not one per agent. Absent in older payloads. */
  copies?: ListingSummary[];
  bucket: Bucket;
  /** The listing's AED per sqft, the area's trend price for its bucket (and month), and the difference in percent. */
  ppsf: number;
  benchmark: number;
  month: string;
  diffPct: number;
}

export interface NewListingsFigures {
  sale: Omit<NewListingsKind, 'listings'>;
  rent: Omit<NewListingsKind, 'listings'>;
  /** The (up to) three sale listings cheapest per sqft against the trend price of their bedroom count. */
  cheapest: CheapListing[];
  /** Why there are no cheapest ones though there are new sales (no trend, no sizes...). */
  cheapestNote?: string;
}

export interface ProjectCard {
  id: string;
  name?: string;
  developer?: string;
  /** Handover (the service's delivery_date), ISO. */
  handover?: string;
  salesStart?: string;
  priceFrom?: number;
  bedrooms?: number[];
  project: NewProject;
}

export interface ProjectsFigures {
  /** Projects listed for the area (in the pages read). */
  count: number;
  atLeast: boolean;
  /** Of them, those whose sales started since the digest's `since`. */
  launchedSince: number;
  /** The first three, newest sales launch first. */
  first: ProjectCard[];
}

export interface AreaDigest {
  area: { id: string; name: string };
  state: 'ok' | 'failed';
  /**
   * Why nothing of the area could be shown. kind 'budget': the budget could not cover it (postpone, not an outage).
   */
  failure?: { reason: string; kind: string; retryInMs?: number };
  since: string;
  now: string;
  sold: DigestPart<TransactionFigures>;
  rented: DigestPart<TransactionFigures>;
  trend: DigestPart<TrendFigures>;
  yields: DigestPart<YieldFigure[]>;
  newListings: DigestPart<NewListingsFigures>;
  projects: DigestPart<ProjectsFigures>;
  /** Calls this digest made (0 when all came from the cache), and per operation. */
  calls: number;
  callsByOperation: Record<string, number>;
}

export interface ComposeOptions {
  /** New listings and launched projects are counted from here (the last digest; for `now`, 7 days back). */
  since: Date;
  now: Date;
  meter?: CallMeter;
  signal?: AbortSignal;
  /** Skip the budget check (the caller checked coverage for several areas at once). */
  skipBudgetCheck?: boolean;
}

const iso = (t: number) => new Date(t).toISOString();
const isoDay = (t: number) => iso(t).slice(0, 10);

function source(operation: OperationName, params: Record<string, string>, fetchedAt?: number): DigestSource {
  return {
    operation,
    path: OPERATIONS[operation].path,
    params,
    ...(fetchedAt !== undefined ? { fetchedAt: iso(fetchedAt) } : {}),
  };
}

/**
 * An error in plain words, for the digest's readers: the precise error (its operation, status, the service's message)
 * is on the API client's own log line, never in the message. `kind` stays the client's, for the composer's retries.
 */
export function reasonOf(error: unknown): { reason: string; kind: string; retryInMs?: number } {
  if (error instanceof ApiError) {
    return {
      reason: failureWords(error),
      kind: error.kind,
      ...(error.retryAfterSeconds !== undefined ? { retryInMs: error.retryAfterSeconds * 1000 } : {}),
    };
  }
  return { reason: 'something went wrong while reading it', kind: 'error' };
}

/** An unavailable part's reason (shown) and failure kind (for the composer). */
function unavailableBecause(error: unknown): { reason: string; failure: string } {
  const { reason, kind } = reasonOf(error);
  return { reason, failure: kind };
}

function failureWords(e: ApiError): string {
  if (e.kind === 'unavailable') return 'the property service was failing, so it was not asked this time';
  if (e.kind === 'budget' || e.kind === 'share' || (e.kind === 'http' && e.status === 429))
    return 'the call budget could not cover it';
  if (e.kind === 'timeout') return 'the property service did not answer in time';
  if (e.kind === 'network') return 'the property service could not be reached';
  if (e.kind === 'http' && (e.status === 401 || e.status === 403))
    return "the property service refused Manzil's key or plan";
  if (e.kind === 'malformed' || e.kind === 'too-large')
    return 'the property service sent an answer Manzil could not read';
  if (e.kind === 'invalid-params' || (e.kind === 'http' && e.status === 400))
    return 'the property service refused the request';
  return 'the property service failed to answer';
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };
const settle = <T>(p: Promise<T>): Promise<Settled<T>> =>
  p.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

/** Composes one area's digest. Never throws for the service's failures: parts, or the whole area, say so. */
export async function composeAreaDigest(
  market: MarketData,
  area: { id: string | number; name: string },
  options: ComposeOptions,
): Promise<AreaDigest> {
  const id = String(area.id);
  const meter = options.meter ?? new CallMeter();
  const use = { meter, ...(options.signal ? { signal: options.signal } : {}) };
  const now = options.now.getTime();
  const since = options.since.getTime();
  const head = { area: { id, name: area.name }, since: iso(since), now: iso(now) };

  const txPeriod: DigestPeriod = { label: 'last 30 days', from: isoDay(now - 30 * DAY), to: isoDay(now) };
  const txParams = (type: string) => ({ location_id: id, transaction_type: type, period: '1m' });
  const listingPeriod: DigestPeriod = { label: `new since ${isoDay(since)}`, from: iso(since), to: iso(now) };
  const projectPeriod: DigestPeriod = { label: 'on sale now, newest launch first' };

  if (!options.skipBudgetCheck) {
    const cover = market.coverage([id]);
    if (!cover.ok) {
      const failure = {
        reason: cover.reason ?? 'the call budget cannot cover it now',
        kind: 'budget',
        ...(cover.retryInMs !== undefined ? { retryInMs: cover.retryInMs } : {}),
      };
      return failedDigest(head, failure, txPeriod, listingPeriod, projectPeriod, id);
    }
  }

  const [sold, rented, trend, listings, projects] = await Promise.all([
    settle(market.transactions(id, 'sold', '1m', use)),
    settle(market.transactions(id, 'rented', '1m', use)),
    settle(market.trend(id, use)),
    settle(market.newListings(id, since, use)),
    settle(market.newProjects(id, use)),
  ]);

  const txPart = (type: 'sold' | 'rented', r: typeof sold): DigestPart<TransactionFigures> => {
    if (!r.ok)
      return {
        state: 'unavailable',
        period: txPeriod,
        sources: [source('get-get-transactions', txParams(type))],
        ...unavailableBecause(r.error),
      };
    const data = transactionFigures(r.value.records, { total: r.value.count, atLeast: r.value.atLeast });
    const sources = [source('get-get-transactions', txParams(type), r.value.fetchedAt)];
    return data.thin
      ? {
          state: 'thin',
          period: txPeriod,
          sources,
          data,
          reason: `too little data: ${data.priced} ${type === 'sold' ? 'sales' : 'lettings'} with a price`,
        }
      : { state: 'ok', period: txPeriod, sources, data };
  };
  const soldPart = txPart('sold', sold);
  const rentedPart = txPart('rented', rented);

  let trendFig: TrendFigures | undefined;
  let trendPart: DigestPart<TrendFigures>;
  if (!trend.ok) {
    trendPart = {
      state: 'unavailable',
      period: { label: '12 months' },
      sources: [source('price-trend-of-location', { location_id: id })],
      ...unavailableBecause(trend.error),
    };
  } else {
    trendFig = trendFigures(trend.value.points, trend.value.propertyType);
    const period: DigestPeriod = {
      label: trendFig.from && trendFig.to ? `${trendFig.from} to ${trendFig.to}` : '12 months',
      ...(trendFig.from ? { from: trendFig.from } : {}),
      ...(trendFig.to ? { to: trendFig.to } : {}),
    };
    const sources = [source('price-trend-of-location', { location_id: id }, trend.value.fetchedAt)];
    trendPart =
      trendFig.buckets.length === 0
        ? {
            state: 'thin',
            period,
            sources,
            data: trendFig,
            reason: 'too little data: the service has no price trend for this place',
          }
        : { state: 'ok', period, sources, data: trendFig };
  }

  const yieldsPart = ((): DigestPart<YieldFigure[]> => {
    const sources = [...soldPart.sources, ...rentedPart.sources];
    if (!soldPart.data || !rentedPart.data)
      return {
        state: 'unavailable',
        period: txPeriod,
        sources,
        reason: 'could not fetch the sales or the lettings it is made of',
      };
    const data = yieldFigures(soldPart.data, rentedPart.data);
    return data.length === 0
      ? {
          state: 'thin',
          period: txPeriod,
          sources,
          data,
          reason: 'too little data: no bedroom count has 3 sales and 3 lettings with a price',
        }
      : { state: 'ok', period: txPeriod, sources, data };
  })();

  const listingSources = (fetchedAt?: number) => [
    source('search-buy', { location_id: id, sort: 'newest' }, fetchedAt),
    source('search-rent', { location_id: id, sort: 'newest' }, fetchedAt),
  ];
  const listingsPart = ((): DigestPart<NewListingsFigures> => {
    if (!listings.ok)
      return {
        state: 'unavailable',
        period: listingPeriod,
        sources: listingSources(),
        ...unavailableBecause(listings.error),
      };
    const { sale, rent, fetchedAt } = listings.value;
    const strip = ({ listings: _, ...rest }: NewListingsKind) => rest;
    const cheapest = trendFig ? cheapestAgainstTrend(sale.listings, trendFig, area.name) : [];
    const cheapestNote =
      sale.count === 0 || cheapest.length > 0
        ? undefined
        : trendFig
          ? 'no new sale lists a size and a bedroom count the price trend covers'
          : 'the price trend could not be fetched';
    return {
      state: 'ok',
      period: listingPeriod,
      sources: listingSources(fetchedAt),
      data: { sale: strip(sale), rent: strip(rent), cheapest, ...(cheapestNote ? { cheapestNote } : {}) },
    };
  })();

  const projectsPart = ((): DigestPart<ProjectsFigures> => {
    const params = { location_id: id, sort: 'newest' };
    if (!projects.ok)
      return {
        state: 'unavailable',
        period: projectPeriod,
        sources: [source('search-new-projects', params)],
        ...unavailableBecause(projects.error),
      };
    const records = projects.value.records;
    const launchedSince = records.filter(
      (p) => typeof p.sales_start_date === 'string' && Date.parse(p.sales_start_date) >= since,
    ).length;
    const data: ProjectsFigures = {
      count: records.length,
      atLeast: projects.value.atLeast,
      launchedSince,
      first: records.slice(0, 3).map(projectCard),
    };
    return {
      state: 'ok',
      period: projectPeriod,
      sources: [source('search-new-projects', params, projects.value.fetchedAt)],
      data,
    };
  })();

  const parts = {
    sold: soldPart,
    rented: rentedPart,
    trend: trendPart,
    yields: yieldsPart,
    newListings: listingsPart,
    projects: projectsPart,
  };
  const errors = [sold, rented, trend, listings, projects].filter((r): r is { ok: false; error: unknown } => !r.ok);
  const failed = errors.length === 5;
  return {
    ...head,
    state: failed ? 'failed' : 'ok',
    ...(failed ? { failure: reasonOf(errors[0]!.error) } : {}),
    ...parts,
    calls: meter.calls,
    callsByOperation: { ...meter.byOperation },
  };
}

/**
 * The (up to) n sale listings cheapest per sqft against the trend price of their bedroom count: flats, not listings
 * (the same flat from several agents is one pick, with its copies).
 */
export function cheapestAgainstTrend(
  sales: readonly ListingSummary[],
  trend: TrendFigures,
  areaName: string,
  n = 3,
): CheapListing[] {
  const out: CheapListing[] = [];
  for (const { listing, copies } of foldSameFlats(sales)) {
    const facts = listingFacts(listing, 'sale');
    const c = facts && saleContext(facts, trend, areaName);
    if (c?.kind === 'sale')
      out.push({
        listing,
        ...(copies.length ? { copies } : {}),
        bucket: c.bucket,
        ppsf: c.ppsf,
        benchmark: c.benchmark,
        month: c.month,
        diffPct: c.diffPct,
      });
  }
  return out.sort((a, b) => a.diffPct - b.diffPct || a.ppsf - b.ppsf).slice(0, n);
}

function projectCard(p: NewProject): ProjectCard {
  const opt = <K extends string, V>(k: K, v: V | null | undefined) =>
    v === undefined || v === null ? {} : ({ [k]: v } as Record<K, V>);
  return {
    id: p.listing_id,
    project: p,
    ...opt('name', p.name),
    ...opt('developer', p.developer_name),
    ...opt('handover', p.delivery_date),
    ...opt('salesStart', p.sales_start_date),
    ...opt('priceFrom', p.price_from),
    ...opt('bedrooms', p.bedrooms),
  };
}

function failedDigest(
  head: { area: { id: string; name: string }; since: string; now: string },
  failure: { reason: string; kind: string; retryInMs?: number },
  txPeriod: DigestPeriod,
  listingPeriod: DigestPeriod,
  projectPeriod: DigestPeriod,
  id: string,
): AreaDigest {
  const reason = `not fetched: ${failure.reason}`;
  const part = <T>(period: DigestPeriod, sources: DigestSource[]): DigestPart<T> => ({
    state: 'unavailable',
    period,
    sources,
    reason,
  });
  const tx = (type: string) => [
    source('get-get-transactions', { location_id: id, transaction_type: type, period: '1m' }),
  ];
  return {
    ...head,
    state: 'failed',
    failure,
    sold: part(txPeriod, tx('sold')),
    rented: part(txPeriod, tx('rented')),
    trend: part({ label: '12 months' }, [source('price-trend-of-location', { location_id: id })]),
    yields: part(txPeriod, [...tx('sold'), ...tx('rented')]),
    newListings: part(listingPeriod, [
      source('search-buy', { location_id: id, sort: 'newest' }),
      source('search-rent', { location_id: id, sort: 'newest' }),
    ]),
    projects: part(projectPeriod, [source('search-new-projects', { location_id: id, sort: 'newest' })]),
    calls: 0,
    callsByOperation: {},
  };
}
