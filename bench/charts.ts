// Chart rendering alone (no upstream, no upload): a digest's per-area chart (5 bedroom lines over 12 months) and its
// comparison chart (3 areas), each rendered one after another ~30 times after a warm-up; p50/p95 per chart and the
// PNG's bytes. Also the first chart of a process, which loads Vega and Vega-Lite.
import type { Chart, NoChart } from '../src/charts/index.js';
import { COMPARISON, MARINA } from '../test/charts/fixtures.js';
import type { BenchResult } from './doc.js';
import { ms, percentile } from './stats.js';

const ROUNDS = 30;

function drawn(result: Chart | NoChart): Chart {
  if (result.empty) throw new Error(`bench chart drew nothing: ${result.altText}`);
  return result;
}

async function time(render: () => Promise<Chart | NoChart>) {
  await render(); // warm-up
  const latencies: number[] = [];
  let bytes = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    bytes = drawn(await render()).png.length;
    latencies.push(performance.now() - t);
  }
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p95: percentile(latencies, 95), bytes };
}

export async function run(): Promise<BenchResult> {
  const coldStart = performance.now();
  const { renderComparisonChart, renderTrendChart } = await import('../src/charts/index.js');
  const first = drawn(await renderTrendChart(MARINA));
  const cold = performance.now() - coldStart;

  const trend = await time(() => renderTrendChart(MARINA));
  const comparison = await time(() => renderComparisonChart(COMPARISON));
  // Five areas' charts at once, as a digest of five areas might ask for them.
  const five = performance.now();
  await Promise.all(Array.from({ length: 5 }, () => renderTrendChart(MARINA)));
  const fiveMs = performance.now() - five;

  const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;
  const row = {
    name: `One chart (${first.width} × ${first.height}): a place's 5 bedroom lines over 12 months, and a comparison of 3 places`,
    figure: `place chart p50 ${ms(trend.p50)}, p95 ${ms(trend.p95)}, ${kb(trend.bytes)}; comparison p50 ${ms(comparison.p50)}, ${kb(comparison.bytes)}; 5 at once ${ms(fiveMs)}; the first of a process (loading Vega) ${ms(cold)}`,
    goal: '',
  };
  const figures = {
    'first chart (loads Vega)': ms(cold),
    'area chart p50 / p95': `${ms(trend.p50)} / ${ms(trend.p95)} (${ROUNDS} renders, ${first.width}x${first.height})`,
    'area chart PNG': `${trend.bytes} bytes`,
    'comparison chart p50 / p95': `${ms(comparison.p50)} / ${ms(comparison.p95)}`,
    'comparison chart PNG': `${comparison.bytes} bytes`,
    '5 area charts at once': ms(fiveMs),
  };
  return { figures, rows: [row] };
}
