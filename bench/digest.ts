// One digest of 5 areas composed and rendered as the digests job does it: the market figures of each area read from
// the sandbox (its own process on loopback, no latency added: the time is ours, not the network's), its charts
// rendered to PNG, the payload the outbox keeps, and the chat message made from it. Cold: a market cache with nothing
// in it (every call made); warm: the same areas again from the shared cache. Upstream calls are counted per digest;
// PNG bytes are the charts' total. The first chart of the process (loading Vega) is left out by a warm-up.
import { ApiClient } from '../src/api/client.js';
import { MarketDigestComposer, digestTitle, renderDigest, type DigestPayload } from '../src/digests/index.js';
import { MarketData } from '../src/market/index.js';
import { FIVE_AREAS, startSandboxProcess } from './sandbox-process.js';
import { median, ms } from './stats.js';
import type { BenchResult } from './doc.js';

const KEY = 'bench-digest-key';
const AREAS = FIVE_AREAS;
const COLD_ROUNDS = 3;
const WARM_ROUNDS = 5;

interface Round {
  composeMs: number;
  renderMs: number;
  calls: number;
  pngBytes: number;
  charts: number;
  payloadBytes: number;
  failed: number;
}

async function once(composer: MarketDigestComposer, areas = AREAS): Promise<Round> {
  const now = Date.now();
  const t0 = performance.now();
  const { payload, calls } = await composer.compose({
    areas,
    since: now - 7 * 86_400_000,
    now,
    title: digestTitle(areas),
  });
  const t1 = performance.now();
  const parsed = JSON.parse(payload) as DigestPayload;
  const reply = renderDigest(parsed);
  const t2 = performance.now();
  if (reply.blocks.length === 0) throw new Error('an empty digest');
  return {
    composeMs: t1 - t0,
    renderMs: t2 - t1,
    calls,
    pngBytes: parsed.charts.reduce((n, c) => n + Buffer.from(c.pngBase64, 'base64').length, 0),
    charts: parsed.charts.length,
    payloadBytes: Buffer.byteLength(payload),
    failed: parsed.areas.filter((p) => p.state === 'failed').length,
  };
}

export async function run(): Promise<BenchResult> {
  const sandbox = await startSandboxProcess(KEY);
  const api = new ApiClient({ baseUrl: sandbox.url, key: KEY });
  try {
    // Loads Vega, Vega-Lite and the fonts, and warms the JIT: not part of any figure.
    await once(new MarketDigestComposer(new MarketData(api), 'Asia/Dubai'), AREAS.slice(0, 1));

    const cold: Round[] = [];
    let composer: MarketDigestComposer | undefined;
    for (let i = 0; i < COLD_ROUNDS; i++) {
      composer = new MarketDigestComposer(new MarketData(api), 'Asia/Dubai');
      cold.push(await once(composer));
    }
    const warm: Round[] = [];
    for (let i = 0; i < WARM_ROUNDS; i++) warm.push(await once(composer!));
    if ([...cold, ...warm].some((r) => r.failed > 0)) throw new Error('an area failed on the sandbox');

    const c = cold.at(-1)!;
    const warmCalls = Math.max(...warm.map((r) => r.calls));
    const perArea = c.calls / AREAS.length;
    const row = {
      name: `A digest of ${AREAS.length} areas on the sandbox (no added latency)`,
      figure: `cold: ${ms(median(cold.map((r) => r.composeMs)))}, ${c.calls} upstream calls (${perArea.toFixed(1)} an area); warm cache: ${ms(median(warm.map((r) => r.composeMs)))}, ${warmCalls} calls; ${c.charts} charts, ${Math.round(c.pngBytes / 1024)} KB of PNG`,
      goal: 'at most 10 calls an area; none warm',
      pass: perArea <= 10 && warmCalls === 0,
    };
    const figures = {
      'cold: compose p50 (5 areas)': `${ms(median(cold.map((r) => r.composeMs)))} (${COLD_ROUNDS} rounds)`,
      'cold: upstream calls': `${c.calls} (${(c.calls / AREAS.length).toFixed(1)} per area)`,
      'warm: compose p50 (5 areas)': `${ms(median(warm.map((r) => r.composeMs)))} (${WARM_ROUNDS} rounds)`,
      'warm: upstream calls': warmCalls,
      'render to a chat message p50': ms(median([...cold, ...warm].map((r) => r.renderMs))),
      'charts per digest': `${c.charts} (a chart per area and the comparison)`,
      'PNG bytes per digest': `${c.pngBytes} (${Math.round(c.pngBytes / c.charts)} per chart)`,
      'outbox payload bytes': c.payloadBytes,
    };
    return { figures, rows: [row] };
  } finally {
    await api.close();
    await sandbox.stop();
  }
}
