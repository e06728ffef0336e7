export { ApiClient, type ApiClientOptions, type ApiResult, type ApiStats } from './client.js';
export { ApiError, type ApiErrorKind } from './errors.js';
export * from './operations.js';
export type * from './records.js';
