// Teams (a Slack workspace, a Discord server) and their fair share of the operator's quota.
export { TeamShares, type ShareOptions } from './shares.js';
export { payingChat } from './paying-chat.js';
export {
  limitingPeople,
  PERSON_WINDOW_MS,
  PersonLimiter,
  storedHourlyUses,
  type CostKind,
  type PersonLimits,
} from './person-limits.js';
export { limitingSuggestions, type SuggestionLimits, type TakeUse } from './suggestion-limits.js';
