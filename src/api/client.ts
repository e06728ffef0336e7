// The UAE Property Data Service client: checks parameters against the operation table, sends one GET with the
// gateway headers, retries what is transient, keeps to the call budget and returns validated records.
import { CallBudget, type BudgetLimits } from './budget.js';
import { readEnvelope } from './envelope.js';
import { ApiError } from './errors.js';
import { OPERATIONS, checkParams, type OperationName, type OperationSpec, type ParamsOf, type RecordOf } from './operations.js';
import { DEFAULT_RETRY, backoffMs, isRetryableStatus, parseRetryAfterMs, sleep, type RetryPolicy } from './retry.js';
import { Transport, TransportError, type RawResponse } from './transport.js';
import { maskSecrets, silentLogger, type Logger } from '../log.js';

export interface ApiClientOptions {
  baseUrl: string;
  key: string;
  /** `x-gateway-host`; defaults to the base URL's host. */
  host?: string;
  connectTimeoutSeconds?: number;
  headersTimeoutSeconds?: number;
  bodyTimeoutSeconds?: number;
  connections?: number;
  retry?: Partial<RetryPolicy>;
  budget?: Partial<BudgetLimits>;
  logger?: Logger;
  /** For tests: the source of jitter. */
  random?: () => number;
}

export interface ApiResult<T> {
  records: T[];
  /** Records that could not be understood at all and were left out. */
  dropped: number;
  message?: string;
  summary?: Record<string, unknown>;
  totalItems?: number;
  totalPages?: number;
}

export interface ApiStats {
  calls: Record<string, number>;
  retries: number;
  failures: number;
  dropped: number;
}

export class ApiClient {
  private readonly transport: Transport;
  private readonly budget: CallBudget;
  private readonly retry: RetryPolicy;
  private readonly headers: Record<string, string>;
  private readonly log: Logger;
  private readonly random: () => number;
  private readonly key: string;
  private retries = 0;
  private failures = 0;
  private dropped = 0;

  constructor(options: ApiClientOptions) {
    this.key = options.key;
    this.transport = new Transport({
      baseUrl: options.baseUrl,
      connections: options.connections ?? 16,
      connectTimeoutMs: (options.connectTimeoutSeconds ?? 5) * 1000,
      headersTimeoutMs: (options.headersTimeoutSeconds ?? 10) * 1000,
      bodyTimeoutMs: (options.bodyTimeoutSeconds ?? 10) * 1000,
    });
    this.budget = new CallBudget({ maxWaitMs: 20_000, ...options.budget });
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.headers = { 'x-gateway-host': options.host ?? new URL(options.baseUrl).host, 'x-gateway-key': options.key };
    this.log = (options.logger ?? silentLogger).child({ part: 'api' });
    this.random = options.random ?? Math.random;
  }

  /** Calls one operation. Unset (undefined or empty) parameters are omitted, never sent empty. */
  async call<Op extends OperationName>(operation: Op, params: ParamsOf<Op> = {} as ParamsOf<Op>): Promise<ApiResult<RecordOf<Op>>> {
    const spec: OperationSpec = OPERATIONS[operation];
    const query = omitUnset(params as Record<string, string | undefined>);
    const problems = checkParams(operation, query);
    if (problems.length > 0) {
      throw new ApiError(`${operation}: ${problems.map((p) => p.message).join('; ')}`, {
        operation, kind: 'invalid-params', retryable: false, problems,
      });
    }
    for (let attempt = 1; ; attempt++) {
      await this.reserveBudget(operation, attempt);
      const started = performance.now();
      let failure: ApiError;
      let waitMs: number | undefined;
      try {
        const res = await this.transport.get(spec.path, query, this.headers);
        this.budget.observe(res.headers);
        const outcome = this.interpret(operation, spec, res, attempt);
        if (!(outcome instanceof ApiError)) {
          this.log.debug('call ok', { operation, attempt, ms: Math.round(performance.now() - started), records: outcome.records.length, dropped: outcome.dropped });
          return outcome as ApiResult<RecordOf<Op>>;
        }
        failure = outcome;
        waitMs = parseRetryAfterMs(res.headers['retry-after']);
      } catch (e) {
        if (!(e instanceof TransportError)) throw e;
        failure = new ApiError(`${operation}: ${e.timeout ? 'the service did not answer in time' : `network error (${e.message})`}`, {
          operation, kind: e.timeout ? 'timeout' : 'network', retryable: true, attempts: attempt,
        });
      }
      if (!failure.retryable || attempt >= this.retry.attempts) {
        this.failures++;
        this.log.warn('call failed', { operation, attempt, kind: failure.kind, status: failure.status, error: failure.message });
        throw failure;
      }
      if (waitMs !== undefined && waitMs > this.retry.maxRetryAfterMs) {
        this.failures++;
        this.log.warn('call failed: Retry-After beyond what we wait', { operation, attempt, retryAfterMs: waitMs });
        throw failure;
      }
      const delay = waitMs ?? backoffMs(attempt, this.retry, this.random);
      this.retries++;
      this.log.info('retrying', { operation, attempt, delayMs: delay, kind: failure.kind, status: failure.status });
      await sleep(delay);
    }
  }

  stats(): ApiStats {
    return { calls: this.budget.counts(), retries: this.retries, failures: this.failures, dropped: this.dropped };
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  /** Takes a place in the call budget, waiting for the next window when it is soon, else refusing. */
  private async reserveBudget(operation: string, attempt: number): Promise<void> {
    for (;;) {
      const { waitMs, reason } = this.budget.reserve(operation);
      if (waitMs <= 0) return;
      if (waitMs > this.budget.maxWaitMs) {
        throw new ApiError(`${operation}: not sent, ${reason}; try again in ${Math.ceil(waitMs / 1000)} s`, {
          operation, kind: 'budget', retryable: true, retryAfterSeconds: Math.ceil(waitMs / 1000), attempts: attempt - 1,
        });
      }
      this.log.info('waiting for the call budget', { operation, waitMs, reason });
      await sleep(waitMs);
    }
  }

  private interpret(operation: string, spec: OperationSpec, res: RawResponse, attempt: number): ApiResult<unknown> | ApiError {
    let json: unknown;
    try {
      json = JSON.parse(res.body);
    } catch {
      if (res.status >= 400) return this.httpError(operation, res.status, undefined, attempt);
      return new ApiError(`${operation}: the service sent an answer that is not valid JSON`, {
        operation, kind: 'malformed', retryable: true, status: res.status, attempts: attempt,
      });
    }
    const body = (typeof json === 'object' && json !== null ? json : {}) as { success?: unknown; error?: unknown; code?: unknown };
    if (res.status >= 400 || body.success === false) {
      return this.httpError(operation, res.status, body, attempt);
    }
    const envelope = readEnvelope(spec, json);
    if ('problem' in envelope) {
      return new ApiError(`${operation}: ${envelope.problem}`, { operation, kind: 'malformed', retryable: true, status: res.status, attempts: attempt });
    }
    if (envelope.dropped > 0) {
      this.dropped += envelope.dropped;
      this.log.warn('records dropped', { operation, dropped: envelope.dropped, kept: envelope.records.length });
    }
    return envelope;
  }

  private httpError(operation: string, status: number, body: { error?: unknown; code?: unknown } | undefined, attempt: number): ApiError {
    // The service's own words, with the key masked in case a gateway ever echoes it.
    const serviceError = typeof body?.error === 'string' ? maskSecrets(body.error, [this.key]).slice(0, 300) : undefined;
    const code = typeof body?.code === 'number' ? body.code : undefined;
    const effective = status >= 400 ? status : (code ?? 500);
    return new ApiError(`${operation}: the service answered ${effective}${serviceError ? ` (${serviceError})` : ''}`, {
      operation, kind: 'http', status: effective, retryable: isRetryableStatus(effective), attempts: attempt,
      ...(code !== undefined ? { code } : {}), ...(serviceError !== undefined ? { serviceError } : {}),
    });
  }
}

function omitUnset(params: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') out[k] = v;
  return out;
}
