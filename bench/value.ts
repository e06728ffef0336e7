// `/value` composed and rendered: the estimate read through MarketData from the sandbox (its own process on loopback,
// no latency added: the time is ours, not the network's) and made into a chat message. Cold: a market cache with
// nothing in it (every call made); warm: the same asks again from the shared cache. Upstream calls are counted with a
// CallMeter per ask, with a size (trend and listings) and without one (trend and transactions).
import { ApiClient } from '../src/api/client.js';
import { CallMeter, MarketData, readValue, type ValueAsk } from '../src/market/index.js';
import { valueView } from '../src/views/value.js';
import { startSandboxProcess } from './sandbox-process.js';
import { median, ms } from './stats.js';
import type { BenchResult } from './doc.js';

const KEY = 'bench-value-key';
const ASKS: { area: { id: number; name: string }; ask: ValueAsk }[] = [
  { area: { id: 43, name: 'Jumeirah Village Circle' }, ask: { bedrooms: 2, propertyType: 'apartment' } },
  { area: { id: 50, name: 'Dubai Marina' }, ask: { bedrooms: 1, propertyType: 'apartment', sizeSqft: 800 } },
  { area: { id: 86, name: 'Business Bay' }, ask: { bedrooms: 0, propertyType: 'apartment' } },
  { area: { id: 51, name: 'Downtown Dubai' }, ask: { bedrooms: 2, propertyType: 'apartment', sizeSqft: 1200 } },
];
const WARM_ROUNDS = 50;

interface Round {
  readMs: number;
  renderMs: number;
  calls: number;
  sized: boolean;
}

async function once(market: MarketData, a: (typeof ASKS)[number]): Promise<Round> {
  const meter = new CallMeter();
  const t0 = performance.now();
  const estimate = await readValue(market, a.area, a.ask, { meter });
  const t1 = performance.now();
  const reply = valueView(estimate, a.area.name);
  const t2 = performance.now();
  if (!reply.blocks.length) throw new Error('an empty value reply');
  return { readMs: t1 - t0, renderMs: t2 - t1, calls: meter.calls, sized: a.ask.sizeSqft !== undefined };
}

export async function run(): Promise<BenchResult> {
  const sandbox = await startSandboxProcess(KEY);
  const api = new ApiClient({ baseUrl: sandbox.url, key: KEY });
  try {
    await once(new MarketData(api), ASKS[0]!); // warms the JIT: not part of any figure
    const market = new MarketData(api);
    const cold: Round[] = [];
    for (const a of ASKS) cold.push(await once(market, a));
    const warm: Round[] = [];
    for (let i = 0; i < WARM_ROUNDS; i++) for (const a of ASKS) warm.push(await once(market, a));
    const calls = (rounds: Round[], sized: boolean) =>
      Math.max(...rounds.filter((r) => r.sized === sized).map((r) => r.calls));
    const warmCalls = Math.max(...warm.map((r) => r.calls));
    const figures = {
      'cold: read p50': `${ms(median(cold.map((r) => r.readMs)))} (${ASKS.length} asks)`,
      'cold: upstream calls, no size': `${calls(cold, false)} (trend 1, sold and rented up to 2 pages each)`,
      'cold: upstream calls, with a size': `${calls(cold, true)} (trend 1, sale and rent listings up to 2 pages each)`,
      'warm: read p50': `${ms(median(warm.map((r) => r.readMs)))} (${warm.length} asks)`,
      'warm: upstream calls': warmCalls,
      'warm: compose and render p50': ms(median(warm.map((r) => r.readMs + r.renderMs))),
    };
    const row = {
      name: `\`/value\` on the sandbox (no added latency), ${ASKS.length} asks with and without a size (\`BENCH=value\`)`,
      figure: `cold: ${figures['cold: read p50']}, at most ${Math.max(calls(cold, false), calls(cold, true))} upstream calls an ask; warm cache: ${figures['warm: compose and render p50']} composed and rendered, ${warmCalls} calls`,
      goal: 'a repeat costs no call',
      pass: warmCalls === 0,
    };
    return { figures, rows: [row] };
  } finally {
    await api.close();
    await sandbox.stop();
  }
}
