// The sandbox's memory with the full dataset built, and its counts.
import { createSandbox } from '../src/sandbox/index.js';
import type { BenchResult } from './doc.js';

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const gc = (globalThis as { gc?: () => void }).gc;

export async function run(): Promise<BenchResult> {
  gc?.();
  const before = process.memoryUsage();
  const started = performance.now();
  const sandbox = createSandbox();
  const buildMs = performance.now() - started;
  const url = await sandbox.listen(0, '127.0.0.1');
  // One search so lazily built lookups exist too.
  await (await fetch(`${url}/search-rent?location_id=50`, { headers: { 'x-gateway-key': sandbox.key } })).text();
  gc?.();
  const after = process.memoryUsage();
  const figures: Record<string, string | number> = {
    'dataset build time': `${buildMs.toFixed(0)} ms`,
    'heap used by the dataset': mb(after.heapUsed - before.heapUsed),
    'RSS growth': mb(after.rss - before.rss),
    'process RSS': mb(after.rss),
    'measured with gc': gc ? 'yes' : 'no (run node --expose-gc for exact figures)',
    ...sandbox.stats(),
  };
  const stats = sandbox.stats();
  const row = {
    name: `Sandbox with the full dataset (${stats.listings.toLocaleString('en')} listings, ${stats.locations} locations, ${stats.transactions.toLocaleString('en')} transactions)`,
    figure: `${mb(after.heapUsed - before.heapUsed)} of heap${gc ? '' : ' (without --expose-gc: rough)'}; built in ${buildMs.toFixed(0)} ms (the first build of a process; later ones share each day's transactions)`,
    goal: '',
  };
  await sandbox.close();
  return { figures, rows: [row] };
}
