export {
  ApiClient,
  DEFAULT_DEADLINE_MS,
  DEFAULT_MAX_BODY_BYTES,
  type ApiClientOptions,
  type ApiResult,
  type ApiStats,
  type BudgetLeft,
  type CallEvent,
  type CallOptions,
} from './client.js';
export { usageWindows, type BudgetLimits, type ServiceQuota, type UsageLedger } from './budget.js';
export { type BreakerOptions } from './breaker.js';
export { ApiError, type ApiErrorKind } from './errors.js';
export * from './operations.js';
export type * from './records.js';
