// One poller run over 10,000 saved searches (1,000 distinct queries, 40 channels) against the sandbox with 50 ms
// of latency added to every request: upstream calls, run time, peak memory, and outbox rows written per second.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { paramsKey, pollOnce, type SavedQuery } from '../src/alerts/index.js';
import { encodeSavedQuery } from '../src/alerts/saved-query.js';
import { ApiClient } from '../src/api/client.js';
import { silentLogger } from '../src/log.js';
import type { Query } from '../src/query/index.js';
import { createAlertsRepo, openStore } from '../src/store/index.js';
import { startSandboxProcess } from './sandbox-process.js';

const SEARCHES = 10_000;
const DISTINCT = 1_000;
const CHANNELS = 40;
const LATENCY_MS = 50;

async function locationIds(url: string, key: string): Promise<number[]> {
  const ids = new Set<number>();
  for (const probe of ['a', 'e', 'i', 'o', 'u', 'dubai', 'al', 'jumeirah', 'palm', 'marina', 'city', 'park']) {
    const res = await fetch(`${url}/autocomplete-location?query=${probe}`, { headers: { 'x-gateway-key': key } });
    for (const l of ((await res.json()) as { data: { id: number }[] }).data) ids.add(l.id);
  }
  return [...ids];
}

function distinctQueries(locations: number[]): SavedQuery[] {
  const out: SavedQuery[] = [];
  for (const op of ['search-rent', 'search-buy'] as const) {
    for (const bedrooms of [undefined, '0', '1', '2', '3', '4']) {
      for (const priceMax of [undefined, op === 'search-rent' ? '150000' : '3000000', op === 'search-rent' ? '90000' : '1500000']) {
        for (const id of locations) {
          const params: Record<string, string> = {};
          if (bedrooms) params.bedrooms = bedrooms;
          if (priceMax) params.price_max = priceMax;
          const query: Query = { operation: op, params, location: `place ${id}`, unknownWords: [] };
          out.push({ query, location: { id, name: `Place ${id}` } });
          if (out.length === DISTINCT) return out;
        }
      }
    }
  }
  return out;
}

export async function run(): Promise<Record<string, string | number>> {
  const KEY = 'bench-key';
  const sandbox = await startSandboxProcess(KEY);
  const url = sandbox.url;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manzil-bench-alerts-'));
  const store = openStore(path.join(dir, 'alerts.db'));
  const repo = createAlertsRepo(store);
  const api = new ApiClient({ baseUrl: url, key: KEY, connections: 16, logger: silentLogger });
  try {
    const queries = distinctQueries(await locationIds(url, KEY));
    const limits = { perPlace: SEARCHES, perOwner: SEARCHES };
    for (let i = 0; i < SEARCHES; i++) {
      const saved = queries[i % queries.length]!;
      repo.create(
        { service: url, place: `bench:C${i % CHANNELS}`, owner: `U${i % 500}`, text: 'bench', query: encodeSavedQuery(saved), operation: saved.query.operation, paramsKey: paramsKey(saved), summary: 'bench' },
        limits,
      );
    }
    const deps = { api, repo, service: url, logger: silentLogger };
    // The first look primes every search (one page each), untimed.
    await pollOnce({ ...deps, options: { maxPages: 1, priceDropPct: 1, deadlineMs: 30_000, concurrency: 8 } });
    await sandbox.control('POST', 'faults', { latencyMs: LATENCY_MS, count: 1_000_000 });

    let peak = 0;
    const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    await sandbox.control('DELETE', 'requests');
    const quiet = await pollOnce({ ...deps, options: { maxPages: 3, priceDropPct: 1, deadlineMs: 30_000, concurrency: 16 } });
    const quietCalls = ((await sandbox.control('GET', 'requests')) as unknown[]).length;

    // A busy market: a day of new listings and price changes, then a run that writes many outbox rows.
    await sandbox.control('POST', 'advance?minutes=1440');
    const busy = await pollOnce({ ...deps, options: { maxPages: 3, priceDropPct: 1, deadlineMs: 30_000, concurrency: 16 } });
    clearInterval(sample);
    peak = Math.max(peak, process.memoryUsage().rss);
    return {
      'saved searches / distinct queries': `${SEARCHES} / ${queries.length} in ${CHANNELS} channels`,
      'quiet run: upstream calls': `${quietCalls} (goal: ${queries.length})`,
      'quiet run: time': `${(quiet.ms / 1000).toFixed(1)} s (goal: under 30 s)`,
      'busy run: time, calls': `${(busy.ms / 1000).toFixed(1)} s, ${busy.calls} calls`,
      'busy run: new / drops / rows queued': `${busy.newListings} / ${busy.priceDrops} / ${busy.queued}`,
      'busy run: outbox rows written/s': Math.round(busy.queued / (busy.ms / 1000)),
      'peak RSS': `${Math.round(peak / 1024 / 1024)} MB (goal: under 300 MB)`,
    };
  } finally {
    await api.close();
    store.close();
    await sandbox.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
