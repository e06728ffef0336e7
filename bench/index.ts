// `npm run bench`: runs each benchmark in turn and prints its figures. Timings live here, never in tests.
type Bench = { run(): Promise<Record<string, string | number>> };

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
    'shared: one poller run over 100,000 saved searches (10,000 distinct) on Postgres, three instances',
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
];

export async function runBenchmarks(out: (line: string) => void): Promise<number> {
  const only = process.env.BENCH;
  const chosen = BENCHES.filter(([name]) => !only || name.startsWith(only));
  if (chosen.length === 0) {
    out(
      `No benchmark's name starts with "${only}": choose one of ${BENCHES.map(([name]) => name.split(':')[0]).join(', ')}.`,
    );
    return 2;
  }
  for (const [name, load] of chosen) {
    out(`\n# ${name}`);
    const figures = await (await load()).run();
    for (const [k, v] of Object.entries(figures)) out(`  ${k.padEnd(34)} ${v}`);
  }
  return 0;
}
