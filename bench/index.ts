// `npm run bench`: runs each benchmark in turn, prints its figures, and writes its rows into docs/benchmarks.md (the
// sections of the benchmarks that ran; BENCH_DOC names another file). Timings live here, never in tests.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runLabel, writeSections, type BenchResult, type BenchSection } from './doc.js';

type Bench = {
  run(): Promise<BenchResult>;
  /** The document's section for this run, when it is not the benchmark's name (the alerts bench on Postgres). */
  section?(): string;
};

const BENCHES: [string, () => Promise<Bench>][] = [
  ['parse: command language throughput', () => import('./parse.js')],
  ['sandbox: dataset memory', () => import('./sandbox.js')],
  ['client: cost per request against the sandbox', () => import('./client.js')],
  [
    'limits: how closely the client keeps its deadlines, Retry-After, circuit and close',
    () => import('./api-limits.js'),
  ],
  ['slack: ack latency of signed slash commands', () => import('./slack-ack.js')],
  ['alerts: one poller run over 10,000 saved searches', () => import('./alerts.js')],
  [
    'shared: one poller run over BENCH_SHARED_SEARCHES saved searches (100,000 by default) on Postgres, three instances',
    () => import('./shared.js'),
  ],
  ['delivery: 10,000 outbox entries over 500 Slack channels at one a second each', () => import('./delivery.js')],
  [
    'ack under load: slack acks while a 10,000-search poller run and the delivery drain are in progress',
    () => import('./ack-under-load.js'),
  ],
  ['charts: rendering alone, an area chart and a comparison chart to PNG', () => import('./charts.js')],
  [
    'digest: composing and rendering one digest of 5 areas on the sandbox, cold and warm cache',
    () => import('./digest.js'),
  ],
  [
    'compare: one /compare of 5 areas on the sandbox, composed and rendered, cold and warm cache',
    () => import('./compare.js'),
  ],
  ['value: one /value estimate composed and rendered on the sandbox, cold and warm cache', () => import('./value.js')],
];

const DOC = process.env.BENCH_DOC ?? fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));

/** 0 when every goal was met, 1 when one was missed, 2 when BENCH names no benchmark. */
export async function runBenchmarks(out: (line: string) => void): Promise<number> {
  const only = process.env.BENCH;
  const chosen = BENCHES.filter(([name]) => !only || name.startsWith(only));
  if (chosen.length === 0) {
    out(
      `No benchmark's name starts with "${only}": choose one of ${BENCHES.map(([name]) => name.split(':')[0]).join(', ')}.`,
    );
    return 2;
  }
  let missed = 0;
  for (const [name, load] of chosen) {
    out(`\n# ${name}`);
    const bench = await load();
    const { figures, rows, json } = await bench.run();
    for (const [k, v] of Object.entries(figures)) out(`  ${k.padEnd(34)} ${v}`);
    if (json) out(JSON.stringify(json));
    for (const row of rows.filter((r) => r.pass === false)) {
      out(`  GOAL MISSED: ${row.name}: ${row.figure} (goal: ${row.goal})`);
      missed++;
    }
    // Written after each benchmark, so that the figures of those that ran survive a later one's failure.
    const [key] = name.split(':') as [string];
    const section: BenchSection = {
      name: bench.section?.() ?? key.replace(/ /g, '-'),
      title: name,
      rows,
      run: runLabel(),
    };
    writeFileSync(DOC, writeSections(readFileSync(DOC, 'utf8'), [section]));
    out(`  written to ${DOC} (section ${section.name})`);
  }
  return missed > 0 ? 1 : 0;
}
