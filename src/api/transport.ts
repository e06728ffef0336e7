// HTTP transport on an undici keep-alive pool: one GET, its status, headers and body text.
import { Pool, errors as undiciErrors } from 'undici';

export interface TransportOptions {
  baseUrl: string;
  connections?: number;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A failure before a complete answer arrived: the client decides whether to retry. */
export class TransportError extends Error {
  override readonly name = 'TransportError';
  constructor(
    message: string,
    readonly timeout: boolean,
  ) {
    super(message);
  }
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

export class Transport {
  private readonly pool: Pool;
  private readonly prefix: string;

  constructor(options: TransportOptions) {
    const url = new URL(options.baseUrl);
    // A base URL may carry a path prefix (a proxy's mount point); operations are appended to it.
    this.prefix = url.pathname.replace(/\/+$/, '');
    this.pool = new Pool(url.origin, {
      connections: options.connections ?? 16,
      pipelining: 1,
      connect: { timeout: options.connectTimeoutMs },
      headersTimeout: options.headersTimeoutMs,
      bodyTimeout: options.bodyTimeoutMs,
      keepAliveTimeout: 30_000,
    });
  }

  async get(path: string, query: Record<string, string>, headers: Record<string, string>): Promise<RawResponse> {
    const qs = new URLSearchParams(query).toString();
    try {
      const res = await this.pool.request({
        method: 'GET',
        path: `${this.prefix}${path}${qs ? `?${qs}` : ''}`,
        headers: { accept: 'application/json', ...headers },
      });
      const body = await res.body.text();
      const flat: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
      return { status: res.statusCode, headers: flat, body };
    } catch (e) {
      const code = (e as { code?: string }).code ?? '';
      if (e instanceof undiciErrors.UndiciError && TIMEOUT_CODES.has(code)) {
        throw new TransportError(`timed out (${code})`, true);
      }
      throw new TransportError(code || (e as Error).message || 'network error', false);
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
