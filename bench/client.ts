// The client's own cost: the same request through ApiClient and through a bare undici pool, on loopback.
// The sandbox runs in its own process, as the real service would, so the server's work does not queue
// behind the client's on one event loop.
import { Pool } from 'undici';
import { ApiClient } from '../src/api/client.js';
import type { BenchResult } from './doc.js';
import { startSandboxProcess } from './sandbox-process.js';
import { measure, ms } from './stats.js';

const KEY = 'bench-key';

export async function run(): Promise<BenchResult> {
  const sandbox = await startSandboxProcess(KEY);
  const url = sandbox.url;
  const params = { location_id: '50', bedrooms: '1,2' };
  const headers = { 'x-gateway-host': new URL(url).host, 'x-gateway-key': KEY };
  const pool = new Pool(url, { connections: 16 });
  const client = new ApiClient({ baseUrl: url, key: KEY });
  const path = `/search-rent?${new URLSearchParams(params).toString()}`;
  const bare = async () => JSON.parse(await (await pool.request({ method: 'GET', path, headers })).body.text());
  const viaClient = () => client.call('search-rent', params);

  for (let i = 0; i < 200; i++) await Promise.all([bare(), viaClient()]); // warm up both paths and the JIT
  const figures: Record<string, string | number> = {};
  const overhead: Record<number, number> = {};
  for (const concurrency of [1, 16]) {
    const b = await measure(2000, concurrency, bare);
    const c = await measure(2000, concurrency, viaClient);
    figures[`c=${concurrency} bare undici req/s`] = b.rps;
    figures[`c=${concurrency} client req/s`] = c.rps;
    figures[`c=${concurrency} bare p50 / p99`] = `${ms(b.p50)} / ${ms(b.p99)}`;
    figures[`c=${concurrency} client p50 / p99`] = `${ms(c.p50)} / ${ms(c.p99)}`;
    figures[`c=${concurrency} client overhead at p50`] = ms(c.p50 - b.p50);
    overhead[concurrency] = c.p50 - b.p50;
  }
  const records = (await viaClient()).records.length;
  figures['records per answer'] = records;
  const row = {
    name: `Client cost over a bare undici request to the same sandbox (sandbox in its own process, ${records} listings validated per answer)`,
    figure: `+${ms(overhead[1]!)} at p50 with one request in flight; +${ms(overhead[16]!)} with 16`,
    goal: 'under 1 ms at p50 with one in flight',
    pass: overhead[1]! < 1,
  };
  await client.close();
  await pool.close();
  await sandbox.stop();
  return { figures, rows: [row] };
}
