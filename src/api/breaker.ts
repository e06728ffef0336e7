// The circuit breakers: after N consecutive outages (5xx, timeouts, network errors) the client stops sending for a
// cooldown, so a service that is down is not hammered by every chat message and every alert. After the cooldown
// one call goes through as a probe (cockatiel's half-open state); its success closes the circuit again.
//
// Two levels, so that a failure stays where it is (issue 38): one circuit per operation and area (a scope: the
// operation and what it asks about, its location_id or its subject's id or text), which one area's failing
// transactions open for that area alone; and one circuit for the whole service, which opens only when the consecutive
// outages span at least two operations and two areas (the service as a whole is failing, not one query's parameters).
import {
  ConsecutiveBreaker,
  CircuitState,
  circuitBreaker,
  handleWhen,
  isBrokenCircuitError,
  type CircuitBreakerPolicy,
  type IBreaker,
} from 'cockatiel';
import { ApiError } from './errors.js';

export interface BreakerOptions {
  /** Consecutive outages that open a circuit. */
  failures: number;
  /** How long a circuit stays open before a probe is let through. */
  cooldownMs: number;
}

export const DEFAULT_BREAKER: BreakerOptions = { failures: 5, cooldownMs: 30_000 };

/** Failures that say the service is down or unreachable; 4xx, 429 and malformed bodies are answers, not outages. */
export function isOutage(e: ApiError): boolean {
  return (
    e.kind === 'timeout' || e.kind === 'network' || (e.kind === 'http' && e.status !== undefined && e.status >= 500)
  );
}

/** Thrown by `run` when a circuit is open: nothing was sent. */
export class CircuitOpen extends Error {
  override readonly name = 'CircuitOpen';
  constructor(readonly retryAfterMs: number) {
    super('the circuit is open');
  }
}

/** What a call is about, for its circuit: the operation and the area (or agent, property, text) it asks of. */
export interface CallScopeKey {
  operation: string;
  area: string;
}

/** The parameters that name what a call asks about, first match wins (the operation table's names). */
const SUBJECT_PARAMS = ['location_id', 'query', 'district', 'location', 'property_id', 'agent_id', 'broker_id'];

export function scopeOf(operation: string, query: Readonly<Record<string, string>>): CallScopeKey {
  const subject = SUBJECT_PARAMS.find((p) => query[p] !== undefined);
  return { operation, area: subject === undefined ? '' : `${subject}=${query[subject]}` };
}

/** An outage thrown through the policies, carrying its scope so the service's breaker can tell them apart. */
class Outage extends Error {
  constructor(
    readonly error: ApiError,
    readonly scope: CallScopeKey,
  ) {
    super(error.message);
  }
}

/**
 * The whole service's breaker: opens after `failures` consecutive outages (no answer in between) that span at least
 * two operations and two areas. One area failing on every operation, or one operation failing in every area, is left
 * to the scopes' own circuits.
 */
class SpreadBreaker implements IBreaker {
  private run: CallScopeKey[] = [];
  /** Reads the last failure of the policy this breaker serves (set by cockatiel just before `failure` is called). */
  lastScope: () => CallScopeKey | undefined = () => undefined;

  constructor(private readonly failures: number) {}

  get state(): unknown {
    return this.run.length;
  }
  set state(_: unknown) {
    this.run = [];
  }

  success(): void {
    this.run = [];
  }

  failure(): boolean {
    const scope = this.lastScope();
    if (scope) this.run.push(scope);
    if (this.run.length > this.failures) this.run.shift();
    const operations = new Set(this.run.map((s) => s.operation));
    const areas = new Set(this.run.map((s) => s.area));
    return this.run.length >= this.failures && operations.size >= 2 && areas.size >= 2;
  }
}

/** A cockatiel circuit that counts only outages, and remembers when it opened. */
class Circuit {
  readonly policy: CircuitBreakerPolicy;
  private openedAt = 0;

  constructor(
    private readonly cooldownMs: number,
    readonly breaker: IBreaker,
  ) {
    this.policy = circuitBreaker(
      handleWhen((e) => e instanceof Outage),
      { halfOpenAfter: cooldownMs, breaker },
    );
    this.policy.onBreak(() => (this.openedAt = Date.now()));
  }

  openForMs(): number {
    if (this.policy.state !== CircuitState.Open) return 0;
    return Math.max(0, this.openedAt + this.cooldownMs - Date.now());
  }
}

/** Scopes whose circuits are kept while closed and clean are dropped, so the map holds only troubled scopes. */
const keyOf = (scope: CallScopeKey) => `${scope.operation}\u0000${scope.area}`;

export class ServiceBreaker {
  private readonly service: Circuit;
  private readonly scopes = new Map<string, Circuit>();

  constructor(private readonly options: BreakerOptions) {
    const spread = new SpreadBreaker(options.failures);
    this.service = new Circuit(options.cooldownMs, spread);
    spread.lastScope = () => {
      const last = this.service.policy.lastFailure;
      return last && 'error' in last && last.error instanceof Outage ? last.error.scope : undefined;
    };
  }

  /** How long the whole service's circuit stays open; 0 when calls may go (closed, or due for a probe). */
  openForMs(): number {
    return this.service.openForMs();
  }

  /** How long a call of this scope is refused: the longer of its own circuit and the whole service's. */
  openForMsOf(scope: CallScopeKey): number {
    return Math.max(this.service.openForMs(), this.scopes.get(keyOf(scope))?.openForMs() ?? 0);
  }

  /**
   * Runs one attempt of a call in `scope`. Its outcome is a result or an ApiError (returned, not thrown); outages
   * count towards opening the scope's circuit and the service's, any other answer resets both counts. Errors thrown by
   * `attempt` (a stopped call) pass through and count for nothing (a stopped probe closes a circuit: cockatiel's rule,
   * harmless as the next outages open it again). Throws CircuitOpen when either circuit is open.
   */
  async run<T>(scope: CallScopeKey, attempt: () => Promise<T | ApiError>): Promise<T | ApiError> {
    const key = keyOf(scope);
    let circuit = this.scopes.get(key);
    if (!circuit) {
      circuit = new Circuit(this.options.cooldownMs, new ConsecutiveBreaker(this.options.failures));
      this.scopes.set(key, circuit);
    }
    const own = circuit;
    try {
      return await this.service.policy.execute(() =>
        own.policy.execute(async () => {
          const outcome = await attempt();
          if (outcome instanceof ApiError && isOutage(outcome)) throw new Outage(outcome, scope);
          return outcome;
        }),
      );
    } catch (e) {
      if (e instanceof Outage) return e.error;
      if (isBrokenCircuitError(e)) throw new CircuitOpen(Math.max(this.openForMsOf(scope), 1));
      throw e;
    } finally {
      if (own.policy.state === CircuitState.Closed && own.breaker.state === 0) this.scopes.delete(key);
    }
  }
}
