// The views: pure functions from service records to the platform-neutral message model.
export type * from './model.js';
export * from './format.js';
export {
  listingCard,
  listingGroupCard,
  type AnyListing,
  type ListingCardOptions,
  type ListingGroupOptions,
} from './listing.js';
export { fingerprint, foldSameFlats, priceOf, sameFlat, type FlatGroup, type Fingerprint } from './same-flat.js';
export { propertyDetailsCard } from './details.js';
export { projectCard, bedroomRange } from './project.js';
export { agentCard, brokerCard, type PersonCardOptions } from './agent.js';
export {
  PERSON_BUTTON_LABEL,
  PERSON_LISTINGS,
  agentRefs,
  brokerRef,
  listingAgent,
  listingBroker,
  personCommand,
  personRef,
  sameRef,
  type PersonButtons,
  type PersonKind,
  type PersonRef,
} from './people.js';
export { developerCard, DEVELOPER_BODY_MAX } from './developer.js';
export { transactionsView, type PeriodRecords, type TransactionsScope } from './transactions.js';
export { adrecView, displayValue, ADREC_MAX_FIELDS } from './adrec.js';
export { trendView, percentChange } from './trend.js';
export { sparkline, SPARK_GAP } from './sparkline.js';
export { locationList } from './locations.js';
export {
  formatPerSqft,
  isCommercialType,
  pricePerSqft,
  sizeInSqft,
  withinPerSqft,
  type SizedListing,
} from './per-sqft.js';
