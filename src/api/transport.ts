// HTTP transport on an undici keep-alive pool: one GET, its status, headers and body text.
//
// Each attempt has its own time limits, measured by an AbortSignal given to undici and kept active while the body
// is read: the headers must arrive within `headersTimeoutMs` of the attempt's start (waiting in the pool's queue
// for a free connection counts), and the WHOLE body within `bodyTimeoutMs` after them (not merely the gap between
// two chunks, which an upstream dripping one byte at a time would keep short forever). The body is capped at
// `maxBodyBytes`. The caller's signal (the call's deadline, cancel or close) stops an attempt at any point.
import { Pool, errors as undiciErrors } from 'undici';

export interface TransportOptions {
  baseUrl: string;
  connections?: number;
  connectTimeoutMs: number;
  /** From the attempt's start (queueing included) to the answer's headers. */
  headersTimeoutMs: number;
  /** From the headers to the end of the body. */
  bodyTimeoutMs: number;
  maxBodyBytes: number;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A failure before a complete answer arrived: the client decides whether to retry.
 * `timeout`: an attempt's time limit; `network`: refused, reset...; `too-large`: the body passed the cap;
 * `closed`: the pool is closed; `stopped`: the caller's signal fired (its reason says why).
 */
export type TransportFailure = 'timeout' | 'network' | 'too-large' | 'closed' | 'stopped';

export class TransportError extends Error {
  override readonly name = 'TransportError';
  constructor(
    message: string,
    readonly kind: TransportFailure,
  ) {
    super(message);
  }

  get timeout(): boolean {
    return this.kind === 'timeout';
  }
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
const CLOSED_CODES = new Set(['UND_ERR_CLOSED', 'UND_ERR_DESTROYED']);

export class Transport {
  private readonly pool: Pool;
  private readonly prefix: string;
  private closed = false;

  constructor(private readonly options: TransportOptions) {
    const url = new URL(options.baseUrl);
    // A base URL may carry a path prefix (a proxy's mount point); operations are appended to it.
    this.prefix = url.pathname.replace(/\/+$/, '');
    this.pool = new Pool(url.origin, {
      connections: options.connections ?? 16,
      pipelining: 1,
      connect: { timeout: options.connectTimeoutMs },
      // undici's own limits stay as a backstop; the attempt's signal below is the one that bounds the total.
      headersTimeout: options.headersTimeoutMs,
      bodyTimeout: options.bodyTimeoutMs,
      keepAliveTimeout: 30_000,
    });
  }

  async get(
    path: string,
    query: Record<string, string>,
    headers: Record<string, string>,
    stop?: AbortSignal,
  ): Promise<RawResponse> {
    if (this.closed) throw new TransportError('the client is closed', 'closed');
    const qs = new URLSearchParams(query).toString();
    const attempt = new AbortController();
    const expire = (phase: string, ms: number) => () =>
      attempt.abort(new TransportError(`timed out: no complete ${phase} within ${ms} ms`, 'timeout'));
    let timer = setTimeout(expire('headers', this.options.headersTimeoutMs), this.options.headersTimeoutMs);
    const onStop = () => attempt.abort(new TransportError('stopped', 'stopped'));
    if (stop?.aborted) onStop();
    else stop?.addEventListener('abort', onStop, { once: true });
    try {
      const pending = this.pool.request({
        method: 'GET',
        path: `${this.prefix}${path}${qs ? `?${qs}` : ''}`,
        headers: { accept: 'application/json', ...headers },
        signal: attempt.signal,
      });
      // undici rejects a request aborted while queued only when it reaches the front of the queue; do not wait.
      const res = await raceAbort(pending, attempt.signal);
      clearTimeout(timer);
      timer = setTimeout(expire('body', this.options.bodyTimeoutMs), this.options.bodyTimeoutMs);
      const body = await readCapped(res.body, res.headers['content-length'], this.options.maxBodyBytes, attempt.signal);
      const flat: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers))
        if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
      return { status: res.statusCode, headers: flat, body };
    } catch (e) {
      if (attempt.signal.aborted && attempt.signal.reason instanceof TransportError) throw attempt.signal.reason;
      if (e instanceof TransportError) throw e;
      const code = (e as { code?: string }).code ?? '';
      if (CLOSED_CODES.has(code) || this.closed) throw new TransportError('the client is closed', 'closed');
      if (e instanceof undiciErrors.UndiciError && TIMEOUT_CODES.has(code)) {
        throw new TransportError(`timed out (${code})`, 'timeout');
      }
      throw new TransportError(code || (e as Error).message || 'network error', 'network');
    } finally {
      clearTimeout(timer);
      stop?.removeEventListener('abort', onStop);
    }
  }

  /** Refuses new requests at once; requests in flight have been stopped by their callers' signals. */
  close(): Promise<void> {
    this.closed = true;
    return this.pool.close();
  }
}

type Answer = Awaited<ReturnType<Pool['request']>>;

/** The answer, or the abort reason as soon as the signal fires (a late answer's body is then thrown away). */
function raceAbort(pending: Promise<Answer>, signal: AbortSignal): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (res) => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) discard(res.body);
        else resolve(res);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}

/** Reads the whole body as text, stopping (and dropping the connection) past `max` bytes or when the signal fires. */
async function readCapped(
  body: Answer['body'],
  declared: string | string[] | undefined,
  max: number,
  signal: AbortSignal,
): Promise<string> {
  const tooLarge = () => new TransportError(`the answer is larger than the ${max}-byte limit`, 'too-large');
  const length = typeof declared === 'string' ? Number(declared) : NaN;
  if (Number.isFinite(length) && length > max) {
    discard(body);
    throw tooLarge();
  }
  const onAbort = () => body.destroy(signal.reason as Error);
  if (signal.aborted) {
    onAbort();
    throw signal.reason as Error;
  }
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > max) throw tooLarge(); // leaving the loop destroys the stream
      chunks.push(chunk);
    }
    return Buffer.concat(chunks, size).toString('utf8');
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** Drops a body unread (and its connection); the stream's own abort error has nobody to tell. */
function discard(body: Answer['body']): void {
  body.on('error', () => {});
  body.destroy();
}
