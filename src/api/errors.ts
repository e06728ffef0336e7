// Typed errors of the API client. Messages name the operation and what went wrong, never the key.
import type { CallStopped } from './deadline.js';
import type { ParamProblem } from './operations.js';
import type { ShareRefusal } from './payer.js';

export type ApiErrorKind =
  | 'invalid-params' // refused before sending
  | 'http' // the service answered with an error status
  | 'network' // connection refused, reset...
  | 'timeout' // no complete answer within the call's deadline or an attempt's time limits
  | 'malformed' // a body that is not the JSON envelope
  | 'too-large' // a body over the configured size cap: not read to the end, not retried
  | 'budget' // our own call budget or the gateway's quota is spent
  | 'share' // this team's share of the month's calls is spent (or the rest is kept for chat)
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
  /** 'share': whose share is spent (ShareRefusal.of). */
  shareOf?: 'team' | 'person';
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
  readonly shareOf: 'team' | 'person' | undefined;

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
    this.shareOf = details.shareOf;
  }

  /** True when the service itself said the thing asked for does not exist (404). */
  get notFound(): boolean {
    return this.kind === 'http' && this.status === 404;
  }
}

/** The error for a call stopped by its deadline, its caller or the client's close. */
export function stoppedError(operation: string, stop: CallStopped, deadlineMs: number, attempts: number): ApiError {
  if (stop.kind === 'timeout') {
    return new ApiError(`${operation}: no answer within the ${deadlineMs / 1000} s deadline`, {
      operation,
      kind: 'timeout',
      retryable: true,
      attempts,
    });
  }
  if (stop.kind === 'cancelled')
    return new ApiError(`${operation}: cancelled by the caller`, {
      operation,
      kind: 'cancelled',
      retryable: true,
      attempts,
    });
  return new ApiError(`${operation}: not sent, the client is closed`, {
    operation,
    kind: 'closed',
    retryable: false,
    attempts,
  });
}

export function unavailableError(operation: string, openForMs: number, attempts: number): ApiError {
  const seconds = Math.ceil(openForMs / 1000);
  return new ApiError(`${operation}: not sent, the service failed repeatedly; trying again in ${seconds} s`, {
    operation,
    kind: 'unavailable',
    retryable: true,
    retryAfterSeconds: seconds,
    attempts,
  });
}

/** The error for a call whose team has used its share of the month (payer.ts): not sent. */
export function shareError(operation: string, refusal: ShareRefusal, attempts: number): ApiError {
  return new ApiError(`${operation}: not sent, ${refusal.reason}`, {
    operation,
    kind: 'share',
    retryable: false,
    retryAfterSeconds: refusal.retryAfterSeconds,
    attempts,
    shareOf: refusal.of ?? 'team',
  });
}
