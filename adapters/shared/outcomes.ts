// What every platform's outcome table shares: the rule type and its makers, and the failures that never reached an
// answer (a refused connection, a reset, a timeout), which mean the same on every platform: nothing was sent (retry),
// or the platform may have acted on it (maybe posted).
import type { FailureOutcome } from '../../src/ports/index.js';

export interface OutcomeRule {
  outcome: FailureOutcome;
  /** Why, in a few words (a reader of the table, and the tests, see it). */
  why: string;
  /** The platform refused the message's content: a plainer form of the same reply may pass. */
  plainerMayPass?: true;
}

export const channel = (why: string): OutcomeRule => ({ outcome: 'channel_unavailable', why });
export const credentials = (why: string): OutcomeRule => ({ outcome: 'credentials_refused', why });
export const rejected = (why: string): OutcomeRule => ({ outcome: 'rejected', why });
export const content = (why: string): OutcomeRule => ({ outcome: 'rejected', why, plainerMayPass: true });
export const maybe = (why: string): OutcomeRule => ({ outcome: 'maybe_posted', why });
export const retry = (why: string): OutcomeRule => ({ outcome: 'retry', why });
export const wait = (why: string): OutcomeRule => ({ outcome: 'wait', why });

/**
 * Failures with no answer, by the `code` (or `name`) Node and undici give them. `actedOn` ends the reason of the ones
 * the platform may have carried out ("Slack may have posted it").
 */
export function networkErrors(actedOn: string): Readonly<Record<string, OutcomeRule>> {
  const sent = (why: string) => maybe(`${why}: ${actedOn}`);
  return {
    ECONNREFUSED: retry('the connection was refused: nothing was sent'),
    ENOTFOUND: retry('the host name did not resolve: nothing was sent'),
    EAI_AGAIN: retry('the host name did not resolve: nothing was sent'),
    EHOSTUNREACH: retry('the host is unreachable: nothing was sent'),
    ENETUNREACH: retry('the network is unreachable: nothing was sent'),
    EADDRNOTAVAIL: retry('no local address: nothing was sent'),
    UND_ERR_CONNECT_TIMEOUT: retry('connecting timed out: nothing was sent'),
    CERT_HAS_EXPIRED: retry('the TLS handshake failed: nothing was sent'),
    UNABLE_TO_VERIFY_LEAF_SIGNATURE: retry('the TLS handshake failed: nothing was sent'),
    SELF_SIGNED_CERT_IN_CHAIN: retry('the TLS handshake failed: nothing was sent'),
    DEPTH_ZERO_SELF_SIGNED_CERT: retry('the TLS handshake failed: nothing was sent'),
    ERR_TLS_CERT_ALTNAME_INVALID: retry('the TLS handshake failed: nothing was sent'),
    TimeoutError: sent('no answer in time'),
    AbortError: sent('no answer in time (the client gave up)'),
    ETIMEDOUT: sent('the connection timed out'),
    UND_ERR_HEADERS_TIMEOUT: sent('no answer in time'),
    UND_ERR_BODY_TIMEOUT: sent('the answer stalled'),
    ECONNRESET: sent('the connection was reset'),
    EPIPE: sent('the connection broke'),
    UND_ERR_SOCKET: sent('the connection closed'),
    UND_ERR_CLOSED: sent('the connection closed'),
    ECONNABORTED: sent('the connection was aborted'),
  };
}

/**
 * An error and its causes, breadth first: `fetch failed` hides the socket's error in `cause`, a client in `original`.
 */
export function* causes(error: unknown): Generator<{ code?: unknown; name?: unknown; message?: unknown }> {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length) {
    const e = queue.shift();
    if (typeof e !== 'object' || e === null || seen.has(e)) continue;
    seen.add(e);
    const { cause, errors, original } = e as { cause?: unknown; errors?: unknown; original?: unknown };
    yield e;
    queue.push(original, cause, ...(Array.isArray(errors) ? errors : []));
  }
}

/** The first network code (or name) in `table` found along an error's causes. */
export function networkCode(error: unknown, table: Readonly<Record<string, OutcomeRule>>): string | undefined {
  for (const { code, name } of causes(error)) {
    if (typeof code === 'string' && Object.hasOwn(table, code)) return code;
    if (typeof name === 'string' && Object.hasOwn(table, name)) return name;
  }
  return undefined;
}
