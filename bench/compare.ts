// One `/compare` of 5 areas composed and rendered as the bot answers it: the figures of each area read from the sandbox
// (its own process on loopback, no latency added: the time is ours, not the network's), the chart of their trends
// rendered to PNG, the reply made. Cold: a market cache with nothing in it; warm: the same compare again from the cache.
// Upstream calls are counted per compare, of one bedroom count and of every count (each count read over its whole
// period: the area's 3 months unnarrowed, split by bedrooms), beside a digest of the same 5 areas on a cold cache of
// its own.
import type { BenchResult } from './doc.js';
import { ApiClient } from '../src/api/client.js';
import { CompareCommands } from '../src/compare/index.js';
import { silentLogger } from '../src/log.js';
import { CallMeter, composeAreaDigest, MarketData } from '../src/market/index.js';
import { FIVE_AREAS, startSandboxProcess } from './sandbox-process.js';
import { median, ms } from './stats.js';

const KEY = 'bench-compare-key';
const AREAS = FIVE_AREAS;
const ROUNDS = 3;

export async function run(): Promise<BenchResult> {
  const sandbox = await startSandboxProcess(KEY);
  const api = new ApiClient({ baseUrl: sandbox.url, key: KEY });
  // The areas are given as resolved: the lookup of their names is the location cache's, not the compare's.
  const locations = {
    resolve: async (name: string) => ({
      kind: 'found' as const,
      location: AREAS.find((a) => a.name === name)!,
      alternatives: [],
    }),
  };
  const ask = (bedrooms?: number) => ({
    areas: AREAS.map((a) => a.name),
    ...(bedrooms !== undefined ? { bedrooms } : {}),
  });
  try {
    const round = async (market: MarketData, bedrooms?: number) => {
      const commands = new CompareCommands({ market, locations, logger: silentLogger });
      const before = market.stats().calls;
      const t0 = performance.now();
      const reply = await commands.handle(ask(bedrooms));
      const took = performance.now() - t0;
      if (!reply.blocks.some((b) => b.kind === 'table')) throw new Error('a compare without its table');
      return { ms: took, calls: market.stats().calls - before };
    };
    // Loads Vega, Vega-Lite and the fonts, and warms the JIT: not part of any figure.
    await round(new MarketData(api), 2);

    const cold: { ms: number; calls: number }[] = [];
    const warm: { ms: number; calls: number }[] = [];
    let market = new MarketData(api);
    for (let i = 0; i < ROUNDS; i++) {
      market = new MarketData(api);
      cold.push(await round(market, 2));
      warm.push(await round(market, 2));
    }
    const everyMarket = new MarketData(api);
    const every = await round(everyMarket);
    const everyWarm = await round(everyMarket);
    const meter = new CallMeter();
    const digest = new MarketData(api);
    const now = new Date();
    for (const a of AREAS)
      await composeAreaDigest(digest, a, { since: new Date(now.getTime() - 7 * 86_400_000), now, meter });
    const coldCalls = cold.at(-1)!.calls;
    const warmCalls = Math.max(...warm.map((r) => r.calls));
    const figures = {
      'cold: compose and render p50 (2br)': `${ms(median(cold.map((r) => r.ms)))} (${ROUNDS} rounds)`,
      'cold: upstream calls (2br)': coldCalls,
      'warm: compose and render p50 (2br)': ms(median(warm.map((r) => r.ms))),
      'warm: upstream calls (2br)': warmCalls,
      'cold: compose and render (every count)': ms(every.ms),
      'cold: upstream calls (every count)': every.calls,
      'warm: compose and render (every count)': ms(everyWarm.ms),
      'warm: upstream calls (every count)': everyWarm.calls,
      'a digest of the 5 areas, cold': `${meter.calls} calls`,
    };
    const name = (bedrooms: string) =>
      `A \`/compare\` of ${AREAS.length} areas on the sandbox (no added latency), ${bedrooms}, composed and rendered with its chart (\`BENCH=compare\`)`;
    const row = (bedrooms: string, calls: number, warmText: string) => ({
      name: name(bedrooms),
      figure: `cold: ${calls} upstream calls, against ${meter.calls} for a digest of the same areas${warmText}`,
      goal: "at most a digest's calls cold, a couple warm",
      pass: calls <= meter.calls && warmCalls <= 2,
    });
    // Every count reads each area's 3 months whole (a digest reads one month): more calls than a digest, by design, so
    // its goal is the whole periods' pages and nothing past them, and a couple warm.
    const everyRow = {
      name: name('every bedroom count'),
      figure: `cold: ${every.calls} upstream calls (${figures['cold: compose and render (every count)']}), against ${meter.calls} for a digest of the same areas; warm cache: ${everyWarm.calls} calls (${figures['warm: compose and render (every count)']})`,
      goal: "each count over its whole period (never truncated to a digest's calls), a couple warm",
      pass: everyWarm.calls <= 2,
    };
    return {
      figures,
      rows: [
        row(
          '2 bedrooms',
          coldCalls,
          `, ${figures['cold: compose and render p50 (2br)']}; warm cache: ${figures['warm: compose and render p50 (2br)']}, ${warmCalls} calls`,
        ),
        everyRow,
      ],
    };
  } finally {
    await api.close();
    await sandbox.stop();
  }
}
