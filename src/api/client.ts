// The UAE Property Data Service client: checks parameters against the operation table, sends one GET with the
// gateway headers, retries what is transient, keeps to the call budget and the circuit breaker, never runs past
// the call's deadline, and returns validated records.
import { CircuitOpen, DEFAULT_BREAKER, ServiceBreaker, scopeOf } from './breaker.js';
import { CallBudget, type ServiceQuota } from './budget.js';
import { CallScope, CallStopped } from './deadline.js';
import { readEnvelope } from './envelope.js';
import { ApiError, shareError, stoppedError, unavailableError } from './errors.js';
import { currentPayer, type Payer, type ShareRefusal } from './payer.js';
import {
  OPERATIONS,
  checkParams,
  type OperationName,
  type OperationSpec,
  type ParamsOf,
  type RecordOf,
} from './operations.js';
import { DEFAULT_RETRY, backoffMs, isRetryableStatus, parseRetryAfterMs, type RetryPolicy } from './retry.js';
import { Transport, TransportError, type RawResponse } from './transport.js';
import { maskSecrets, silentLogger, type Logger } from '../log.js';
import type { ApiClientOptions, ApiResult, ApiStats, BudgetLeft, CallEvent, CallOptions } from './client-types.js';

/** The most a caller held by Retry-After waits past it, at random, so the held callers do not all send at once. */
const MAX_RETRY_AFTER_SPREAD_MS = 1_000;

export type { ApiClientOptions, ApiResult, ApiStats, BudgetLeft, CallEvent, CallOptions } from './client-types.js';

export const DEFAULT_DEADLINE_MS = 25_000;
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

export class ApiClient {
  private readonly transport: Transport;
  private readonly budget: CallBudget;
  private readonly breaker: ServiceBreaker;
  private readonly retry: RetryPolicy;
  private readonly headers: Record<string, string>;
  private readonly log: Logger;
  private readonly random: () => number;
  private readonly onCall: ((event: CallEvent) => void) | undefined;
  private readonly share: ((payer: Payer | undefined) => Promise<ShareRefusal | undefined>) | undefined;
  private readonly key: string;
  private readonly deadlineMs: number;
  private readonly maxBodyBytes: number;
  /** Calls under way, stopped by close(). */
  private readonly active = new Set<CallScope>();
  private closing: Promise<void> | undefined;
  private retries = 0;
  private failures = 0;
  private dropped = 0;

  constructor(options: ApiClientOptions) {
    this.key = options.key;
    this.deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.log = (options.logger ?? silentLogger).child({ part: 'api' });
    this.transport = new Transport({
      baseUrl: options.baseUrl,
      connections: options.connections ?? 16,
      connectTimeoutMs: (options.connectTimeoutSeconds ?? 5) * 1000,
      headersTimeoutMs: (options.headersTimeoutSeconds ?? 10) * 1000,
      bodyTimeoutMs: (options.bodyTimeoutSeconds ?? 10) * 1000,
      maxBodyBytes: this.maxBodyBytes,
    });
    this.budget = new CallBudget({ maxWaitMs: 20_000, ...options.budget }, Date.now, {
      ...(options.ledger ? { ledger: options.ledger } : {}),
      onLedgerError: (error) => this.log.error('the api usage ledger failed; counting calls in memory', { error }),
    });
    this.breaker = new ServiceBreaker({ ...DEFAULT_BREAKER, ...options.breaker });
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.headers = { 'x-gateway-host': options.host ?? new URL(options.baseUrl).host, 'x-gateway-key': options.key };
    this.random = options.random ?? Math.random;
    this.onCall = options.onCall;
    this.share = options.share;
  }

  /** Calls one operation. Unset (undefined or empty) parameters are omitted, never sent empty. */
  async call<Op extends OperationName>(
    operation: Op,
    params: ParamsOf<Op> = {} as ParamsOf<Op>,
    options: CallOptions = {},
  ): Promise<ApiResult<RecordOf<Op>>> {
    const spec: OperationSpec = OPERATIONS[operation];
    const query = omitUnset(params as Record<string, string | undefined>);
    const problems = checkParams(operation, query);
    if (problems.length > 0) {
      throw new ApiError(`${operation}: ${problems.map((p) => p.message).join('; ')}`, {
        operation,
        kind: 'invalid-params',
        retryable: false,
        problems,
      });
    }
    if (this.closing) throw stoppedError(operation, new CallStopped('closed'), 0, 0);
    const scope = new CallScope(options.deadlineMs ?? this.deadlineMs, options.signal);
    this.active.add(scope);
    try {
      return (await this.attempts(operation, spec, query, scope)) as ApiResult<RecordOf<Op>>;
    } finally {
      scope.dispose();
      this.active.delete(scope);
    }
  }

  stats(): ApiStats {
    return { calls: this.budget.counts(), retries: this.retries, failures: this.failures, dropped: this.dropped };
  }

  /** Reads the usage ledger now, at start (earlier runs' and other instances' calls); calls re-read it each second. */
  refreshBudget(): Promise<void> {
    return this.budget.refresh(true);
  }

  /** The operator's calls this month, as the budget counts them (every instance's, read at most a second ago). */
  callsThisMonth(): number {
    return this.budget.callsThisMonth();
  }

  /** Cheap: whether a call would be sent now, and what is left of the day's and the month's limits (as last read). */
  budgetLeft(): BudgetLeft {
    const breakerOpenForMs = this.breaker.openForMs();
    const blockedForMs = this.closing
      ? Number.POSITIVE_INFINITY
      : Math.max(this.budget.check().waitMs, breakerOpenForMs);
    return { blockedForMs, ...this.budget.remaining(), ...(breakerOpenForMs > 0 ? { breakerOpenForMs } : {}) };
  }

  /** Calls left on the service's own quota, as its last answer's headers said (unlike budgetLeft, not our limits). */
  serviceQuota(): ServiceQuota {
    return this.budget.serviceQuota();
  }

  /** Stops every call under way and refuses new ones (kind 'closed', not retryable). */
  close(): Promise<void> {
    if (!this.closing) {
      for (const scope of this.active) scope.stop('closed');
      // Calls already made are written to the ledger before the store closes behind the client.
      this.closing = Promise.all([this.transport.close(), this.budget.settled()]).then(() => undefined);
    }
    return this.closing;
  }

  /**
   * The retry loop, by hand rather than a policy library's: besides errors it must retry a 200 whose body is
   * malformed, reserve a slot in the call budget for every attempt (the gateway bills each one), share a
   * Retry-After with every caller through the budget, and log each retry. The breaker (cockatiel) wraps each attempt.
   */
  private async attempts(
    operation: string,
    spec: OperationSpec,
    query: Record<string, string>,
    scope: CallScope,
  ): Promise<ApiResult<unknown>> {
    let sent = 0;
    const circuit = scopeOf(operation, query);
    try {
      for (let attempt = 1; ; attempt++) {
        const openForMs = this.breaker.openForMsOf(circuit);
        if (openForMs > 0) throw this.fail(this.refused(unavailableError(operation, openForMs, sent)));
        await this.reserveBudget(operation, sent, scope);
        sent = attempt;
        const started = performance.now();
        let outcome: ApiResult<unknown> | ApiError;
        try {
          outcome = await scope.race(
            this.breaker.run(circuit, () => this.attemptOnce(operation, spec, query, attempt, scope)),
          );
        } catch (e) {
          if (e instanceof CircuitOpen)
            throw this.fail(this.refused(unavailableError(operation, e.retryAfterMs, attempt - 1)));
          throw e;
        }
        if (!(outcome instanceof ApiError)) {
          this.log.debug('call ok', {
            operation,
            attempt,
            ms: Math.round(performance.now() - started),
            records: outcome.records.length,
            dropped: outcome.dropped,
          });
          return outcome;
        }
        const failure = outcome;
        const retryAfterMs = failure.retryAfterSeconds === undefined ? undefined : failure.retryAfterSeconds * 1000;
        // The service asked to wait: every caller waits, not only this one (the budget holds them all).
        if (retryAfterMs !== undefined && failure.retryable)
          this.budget.holdOff(retryAfterMs, `the service asked to wait (${failure.status})`);
        if (!failure.retryable || attempt >= this.retry.attempts || scope.remainingMs() <= 0) throw this.fail(failure);
        if (retryAfterMs !== undefined && retryAfterMs > this.retry.maxRetryAfterMs) {
          throw this.fail(failure, 'Retry-After beyond what we wait');
        }
        const delay = retryAfterMs ?? backoffMs(attempt, this.retry, this.random);
        if (delay >= scope.remainingMs()) throw this.fail(failure, 'the wait would pass the deadline');
        this.retries++;
        this.log.info('retrying', { operation, attempt, delayMs: delay, kind: failure.kind, status: failure.status });
        // After a Retry-After the budget's hold does the waiting (in reserveBudget), shared with every caller.
        if (retryAfterMs === undefined) await scope.sleep(delay);
      }
    } catch (e) {
      if (e instanceof CallStopped) throw this.fail(stoppedError(operation, e, scope.deadlineMs, sent));
      throw e;
    }
  }

  /**
   * One request and its answer: a result, or the failure as an ApiError. Throws CallStopped when cancelled or closed.
   */
  private async attemptOnce(
    operation: string,
    spec: OperationSpec,
    query: Record<string, string>,
    attempt: number,
    scope: CallScope,
  ): Promise<ApiResult<unknown> | ApiError> {
    const started = performance.now();
    try {
      const res = await this.transport.get(spec.path, query, this.headers, scope.signal);
      this.budget.observe(res.headers);
      const outcome = this.interpret(operation, spec, res, attempt);
      this.observe(operation, String(res.status), started, outcome instanceof ApiError ? 'error' : 'ok');
      return outcome;
    } catch (e) {
      if (this.onCall) this.observe(operation, e instanceof TransportError ? e.kind : 'error', started, 'error');
      if (!(e instanceof TransportError)) throw e;
      if (e.kind === 'stopped') {
        const why = scope.stopped ?? new CallStopped('cancelled');
        // A deadline that cuts an attempt short is a slow service: returned, so the breaker counts it.
        if (why.kind === 'timeout') return stoppedError(operation, why, scope.deadlineMs, attempt);
        throw why;
      }
      if (e.kind === 'closed') throw new CallStopped('closed');
      if (e.kind === 'too-large') {
        return new ApiError(
          `${operation}: the service sent an answer larger than the ${formatBytes(this.maxBodyBytes)} limit; it was not read`,
          {
            operation,
            kind: 'too-large',
            retryable: false,
            attempts: attempt,
          },
        );
      }
      return new ApiError(
        `${operation}: ${e.timeout ? `the service did not answer in time (${e.message})` : `network error (${e.message})`}`,
        {
          operation,
          kind: e.timeout ? 'timeout' : 'network',
          retryable: true,
          attempts: attempt,
        },
      );
    }
  }

  /**
   * Takes a slot in the call budget, waiting for the next window when it is soon (and within the deadline), else
   * refusing.
   */
  private async reserveBudget(operation: string, sent: number, scope: CallScope): Promise<void> {
    const refused = await this.share?.(currentPayer());
    if (refused) throw this.fail(this.refused(shareError(operation, refused, sent)));
    // Other instances' calls (and earlier runs') count too: read at most once a second, never holding the decision.
    await this.budget.refresh();
    for (;;) {
      const { waitMs, reason, cause } = this.budget.reserve(operation);
      if (waitMs <= 0) return;
      const longest = cause === 'retry-after' ? this.retry.maxRetryAfterMs : this.budget.maxWaitMs;
      if (waitMs > longest || waitMs >= scope.remainingMs()) {
        const seconds = Math.ceil(waitMs / 1000);
        const common = { operation, retryable: true, retryAfterSeconds: seconds, attempts: sent };
        throw this.fail(
          this.refused(
            cause === 'retry-after'
              ? new ApiError(`${operation}: not sent, ${reason}; try again in ${seconds} s`, {
                  ...common,
                  kind: 'http',
                  status: 429,
                })
              : new ApiError(`${operation}: not sent, ${reason}; try again in ${seconds} s`, {
                  ...common,
                  kind: 'budget',
                }),
          ),
        );
      }
      // Callers held by one Retry-After would all send in the same millisecond it ends: each waits a little longer, at
      // random (up to half the wait, a second at most, and at most half the time its deadline leaves after the wait, so
      // the attempt keeps time to run), so they arrive spread out.
      const spread =
        cause === 'retry-after'
          ? this.random() * Math.min(waitMs / 2, MAX_RETRY_AFTER_SPREAD_MS, (scope.remainingMs() - waitMs) / 2)
          : 0;
      this.log.info('waiting for the call budget', { operation, waitMs, reason });
      await scope.sleep(waitMs + spread);
    }
  }

  /** Tells the observer of one attempt; an observer's failure never fails the call. */
  private observe(operation: string, status: string, started: number, outcome: CallEvent['outcome']): void {
    if (!this.onCall) return;
    try {
      const payer = currentPayer();
      this.onCall({
        operation,
        status,
        ms: performance.now() - started,
        outcome,
        ...(payer ? { teams: payer.teams } : {}),
        ...(payer?.person ? { person: payer.person } : {}),
      });
    } catch (e) {
      this.log.warn('call observer failed', { error: e });
    }
  }

  /** A call refused before anything was sent (budget, breaker): told to the observer; returned to throw. */
  private refused(failure: ApiError): ApiError {
    this.observe(
      failure.operation,
      failure.kind === 'http' ? 'retry-after' : failure.kind,
      performance.now(),
      'refused',
    );
    return failure;
  }

  /** Counts and logs a failure that ends a call; returns it to throw. */
  private fail(failure: ApiError, why?: string): ApiError {
    if (failure.kind !== 'closed') this.failures++;
    this.log.warn(why ? `call failed: ${why}` : 'call failed', {
      operation: failure.operation,
      attempts: failure.attempts,
      kind: failure.kind,
      status: failure.status,
      error: failure.message,
    });
    return failure;
  }

  private interpret(
    operation: string,
    spec: OperationSpec,
    res: RawResponse,
    attempt: number,
  ): ApiResult<unknown> | ApiError {
    let json: unknown;
    try {
      json = JSON.parse(res.body);
    } catch {
      if (res.status >= 400) return this.httpError(operation, res, undefined, attempt);
      return new ApiError(`${operation}: the service sent an answer that is not valid JSON`, {
        operation,
        kind: 'malformed',
        retryable: true,
        status: res.status,
        attempts: attempt,
      });
    }
    const body = (typeof json === 'object' && json !== null ? json : {}) as {
      success?: unknown;
      error?: unknown;
      code?: unknown;
    };
    if (res.status >= 400 || body.success === false) {
      return this.httpError(operation, res, body, attempt);
    }
    const envelope = readEnvelope(spec, json);
    if ('problem' in envelope) {
      return new ApiError(`${operation}: ${envelope.problem}`, {
        operation,
        kind: 'malformed',
        retryable: true,
        status: res.status,
        attempts: attempt,
      });
    }
    if (envelope.dropped > 0) {
      this.dropped += envelope.dropped;
      this.log.warn('records dropped', { operation, dropped: envelope.dropped, kept: envelope.records.length });
    }
    return envelope;
  }

  private httpError(
    operation: string,
    res: RawResponse,
    body: { error?: unknown; code?: unknown } | undefined,
    attempt: number,
  ): ApiError {
    // The service's own words, with the key masked in case a gateway ever echoes it.
    const serviceError =
      typeof body?.error === 'string' ? maskSecrets(body.error, [this.key]).slice(0, 300) : undefined;
    const code = typeof body?.code === 'number' ? body.code : undefined;
    const effective = res.status >= 400 ? res.status : (code ?? 500);
    const retryAfterMs = parseRetryAfterMs(res.headers['retry-after']);
    return new ApiError(`${operation}: the service answered ${effective}${serviceError ? ` (${serviceError})` : ''}`, {
      operation,
      kind: 'http',
      status: effective,
      retryable: isRetryableStatus(effective),
      attempts: attempt,
      ...(code !== undefined ? { code } : {}),
      ...(serviceError !== undefined ? { serviceError } : {}),
      ...(retryAfterMs !== undefined ? { retryAfterSeconds: retryAfterMs / 1000 } : {}),
    });
  }
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024
    ? `${+(n / (1024 * 1024)).toFixed(1)} MiB`
    : n >= 1024
      ? `${+(n / 1024).toFixed(1)} KiB`
      : `${n}-byte`;
}

function omitUnset(params: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') out[k] = v;
  return out;
}
