// The circuit breaker: after N consecutive outages (5xx, timeouts, network errors) the client stops sending for a
// cooldown, so a service that is down is not hammered by every chat message and every alert. After the cooldown
// one call goes through as a probe (cockatiel's half-open state); its success closes the circuit again.
import {
  ConsecutiveBreaker,
  CircuitState,
  circuitBreaker,
  handleWhen,
  isBrokenCircuitError,
  type CircuitBreakerPolicy,
} from 'cockatiel';
import { ApiError } from './errors.js';

export interface BreakerOptions {
  /** Consecutive outages that open the circuit. */
  failures: number;
  /** How long the circuit stays open before a probe is let through. */
  cooldownMs: number;
}

export const DEFAULT_BREAKER: BreakerOptions = { failures: 5, cooldownMs: 30_000 };

/** Failures that say the service is down or unreachable; 4xx, 429 and malformed bodies are answers, not outages. */
export function isOutage(e: ApiError): boolean {
  return (
    e.kind === 'timeout' || e.kind === 'network' || (e.kind === 'http' && e.status !== undefined && e.status >= 500)
  );
}

/** Thrown by `run` when the circuit is open: nothing was sent. */
export class CircuitOpen extends Error {
  override readonly name = 'CircuitOpen';
  constructor(readonly retryAfterMs: number) {
    super('the circuit is open');
  }
}

export class ServiceBreaker {
  private readonly policy: CircuitBreakerPolicy;
  private openedAt = 0;

  constructor(private readonly options: BreakerOptions) {
    this.policy = circuitBreaker(
      handleWhen((e) => e instanceof ApiError && isOutage(e)),
      {
        halfOpenAfter: options.cooldownMs,
        breaker: new ConsecutiveBreaker(options.failures),
      },
    );
    this.policy.onBreak(() => (this.openedAt = Date.now()));
  }

  /** How long the circuit stays open; 0 when calls may go (closed, or due for a probe). */
  openForMs(): number {
    if (this.policy.state !== CircuitState.Open) return 0;
    return Math.max(0, this.openedAt + this.options.cooldownMs - Date.now());
  }

  /**
   * Runs one attempt. Its outcome is a result or an ApiError (returned, not thrown); outages count towards
   * opening the circuit, any other answer resets the count. Errors thrown by `attempt` (a stopped call) pass
   * through and count for nothing (a stopped probe closes the circuit: cockatiel's rule, harmless as the next
   * outages open it again). Throws CircuitOpen when the circuit is open.
   */
  async run<T>(attempt: () => Promise<T | ApiError>): Promise<T | ApiError> {
    try {
      return await this.policy.execute(async () => {
        const outcome = await attempt();
        if (outcome instanceof ApiError && isOutage(outcome)) throw outcome;
        return outcome;
      });
    } catch (e) {
      if (e instanceof ApiError) return e;
      if (isBrokenCircuitError(e)) throw new CircuitOpen(Math.max(this.openForMs(), 1));
      throw e;
    }
  }
}
