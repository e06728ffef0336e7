// Market figures per area (medians, trends, yields, listing context) from cached, shared service answers:
// used by digests and listing cards. No chat knowledge here.
export { MarketData } from './data.js';
export { periodTransactions } from './period.js';
export {
  CallMeter,
  DEFAULT_CACHE_HOURS,
  DEFAULT_MAX_PAGES,
  type Coverage,
  type MarketApi,
  type MarketOptions,
  type NewListings,
  type NewListingsKind,
  type Paged,
  type SharedEntry,
  type SharedMarketCache,
  type TransactionFilters,
  type TransactionPeriod,
  type TransactionType,
  type TransactionsResult,
  type Use,
} from './types.js';
export {
  cheapestAgainstTrend,
  composeAreaDigest,
  type CheapListing,
  type ComposeOptions,
  type DigestPart,
  type DigestPeriod,
  type DigestSource,
  type NewListingsFigures,
  type PartState,
  type AreaDigest,
  type ProjectCard,
  type ProjectsFigures,
} from './digest.js';
export * from './definitions.js';
export * from './figures.js';
export * from './value.js';
export { readValue } from './value-read.js';
export {
  compareAreas,
  type AreaComparison,
  type CompareCell,
  type CompareOptions,
  type Comparison,
  type ListingsCount,
} from './compare.js';
