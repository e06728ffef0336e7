// A market rig: the sandbox on loopback, the real API client, and MarketData over it; plus raw HTTP reads of the
// sandbox for computing the expected figures independently of src/market.
import { afterEach } from 'vitest';
import { ApiClient, type ApiClientOptions } from '../../src/api/index.js';
import { MarketData, type MarketOptions } from '../../src/market/index.js';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

export interface MarketRig {
  sandbox: Sandbox;
  api: ApiClient;
  market: MarketData;
  /** Upstream requests seen by the sandbox (optionally to one path) since the last clearRequests. */
  upstream(path?: string): number;
  /** A MarketData with other options on the same client. */
  newMarket(options?: MarketOptions): MarketData;
  /** Every page of an operation until an empty one, read over raw HTTP (not through the client or the cache). */
  // Parsed JSON of the sandbox's answers.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  raw(path: string, params: Record<string, string>): Promise<any[]>;
}

export async function marketRig(
  o: { sandbox?: SandboxOptions; client?: Partial<ApiClientOptions>; market?: MarketOptions } = {},
): Promise<MarketRig> {
  const sandbox = createSandbox({ key: 'market-key', ...o.sandbox });
  await sandbox.listen();
  const api = new ApiClient({
    baseUrl: sandbox.url!,
    key: sandbox.key,
    retry: { attempts: 2, baseDelayMs: 5, maxDelayMs: 10 },
    breaker: { cooldownMs: 50 },
    ...o.client,
  });
  cleanups.push(async () => {
    await api.close();
    await sandbox.close();
  });
  const headers = { 'x-gateway-key': sandbox.key };
  return {
    sandbox,
    api,
    market: new MarketData(api, o.market),
    upstream: (path?: string) => sandbox.requests().filter((r) => !path || r.path === path).length,
    newMarket: (options?: MarketOptions) => new MarketData(api, options),
    async raw(path, params) {
      const out = [];
      for (let page = 1; page < 500; page++) {
        const paged = path !== '/price-trend-of-location';
        const qs = new URLSearchParams(paged ? { ...params, page: String(page) } : params);
        const body = (await (await fetch(`${sandbox.url}${path}?${qs.toString()}`, { headers })).json()) as {
          data: unknown;
        };
        const rows = Array.isArray(body.data)
          ? body.data
          : (body.data as { data: { attributes: { transactions: unknown[] } } }).data.attributes.transactions;
        if (rows.length === 0) return out;
        out.push(...rows);
        if (!paged) return out;
      }
      throw new Error('no empty page');
    },
  };
}

/** The test's own median (even count: the mean of the middle two). */
export function med(xs: readonly number[]): number | undefined {
  if (xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1]! + s[m]!) / 2;
}

export const BUCKET_OF = (beds: number) => (beds === 0 ? 'studio' : beds >= 4 ? '4+' : String(beds));
