// A transactions search's whole period, for the figures a chat reply presents as the period's: the search's place,
// kind, period and filters read through MarketData (every page, newest first, within its page cap, cached and shared
// with digests and cards), whatever page or sort the reply's table shows.
import type { MarketData } from './data.js';
import type { KnownPage, TransactionPeriod, TransactionsResult, TransactionType } from './types.js';

const PERIODS: readonly string[] = ['1m', '3m', '6m', '1y'] satisfies TransactionPeriod[];
const TYPES: readonly string[] = ['sold', 'rented'] satisfies TransactionType[];

/**
 * Every transaction of the period a search's parameters name (`period` absent: the service's default, 12 months).
 * Throws a RangeError for parameters that name no period of an area; the service's failures are thrown as they are.
 */
export function periodTransactions(
  market: MarketData,
  params: Readonly<Record<string, string>>,
  use: { maxAgeMs?: number; maxPages?: number; known?: KnownPage } = {},
): Promise<TransactionsResult> {
  const { location_id: area, transaction_type: type, period = '1y', property_type, bedrooms } = params;
  if (!area || !type || !TYPES.includes(type) || !PERIODS.includes(period)) {
    return Promise.reject(new RangeError(`not a period of transactions: ${JSON.stringify(params)}`));
  }
  return market.transactions(area, type as TransactionType, period as TransactionPeriod, {
    ...use,
    filters: { property_type, bedrooms },
  });
}
