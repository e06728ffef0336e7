// Typed errors of the API client. Messages name the operation and what went wrong, never the key.
import type { ParamProblem } from './operations.js';

export type ApiErrorKind =
  | 'invalid-params' // refused before sending
  | 'http' // the service answered with an error status
  | 'network' // connection refused, reset...
  | 'timeout' // no complete answer within the call's deadline or an attempt's time limits
  | 'malformed' // a body that is not the JSON envelope
  | 'too-large' // a body over the configured size cap: not read to the end, not retried
  | 'budget' // our own call budget or the gateway's quota is spent
  | 'unavailable' // the circuit breaker is open after repeated failures: not sent, try later
  | 'cancelled' // the caller's signal stopped the call
  | 'closed'; // the client was closed: nothing more is sent

export interface ApiErrorDetails {
  operation: string;
  kind: ApiErrorKind;
  retryable: boolean;
  status?: number;
  /** The service's own `code` and `error` fields, when it sent them. */
  code?: number;
  serviceError?: string;
  problems?: readonly ParamProblem[];
  /** Seconds the service or the budget asks us to wait before trying again. */
  retryAfterSeconds?: number;
  attempts?: number;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly operation: string;
  readonly kind: ApiErrorKind;
  readonly retryable: boolean;
  readonly status: number | undefined;
  readonly code: number | undefined;
  readonly serviceError: string | undefined;
  readonly problems: readonly ParamProblem[];
  readonly retryAfterSeconds: number | undefined;
  readonly attempts: number;

  constructor(message: string, details: ApiErrorDetails) {
    super(message);
    this.operation = details.operation;
    this.kind = details.kind;
    this.retryable = details.retryable;
    this.status = details.status;
    this.code = details.code;
    this.serviceError = details.serviceError;
    this.problems = details.problems ?? [];
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.attempts = details.attempts ?? 0;
  }

  /** True when the service itself said the thing asked for does not exist (404). */
  get notFound(): boolean {
    return this.kind === 'http' && this.status === 404;
  }
}
