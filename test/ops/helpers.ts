// Starting a whole Manzil for the operations tests: the embedded sandbox, a real SQLite file in a temp dir, the
// operator's HTTP server on a free loopback port, and the log lines kept for assertions.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { startManzil, type Manzil, type StartOptions } from '../../src/app/index.js';

const running: Manzil[] = [];
afterEach(async () => {
  for (const m of running.splice(0)) await m.stop();
});

export const tempDir = (prefix = 'manzil-ops-') => mkdtempSync(join(tmpdir(), prefix));

export interface Booted {
  manzil: Manzil;
  logs: string[];
  dbPath: string;
  url(path: string): string;
}

export async function boot(
  env: Record<string, string> = {},
  options: Omit<StartOptions, 'env' | 'writeLog' | 'host'> = {},
): Promise<Booted> {
  const dbPath = join(tempDir(), 'manzil.db');
  const logs: string[] = [];
  const manzil = await startManzil({
    // OPS_PORT=0: the operator's server on a free port; no demo clock, so the tests drive the market.
    env: { MANZIL_DB_PATH: dbPath, OPS_PORT: '0', MANZIL_DEMO_TICK_S: '0', LOG_LEVEL: 'debug', ...env },
    host: '127.0.0.1',
    writeLog: (l) => logs.push(l),
    ...options,
  });
  running.push(manzil);
  return { manzil, logs, dbPath, url: (path) => `http://127.0.0.1:${manzil.opsPort}${path}` };
}

export const ask = (manzil: Manzil, text: string, channel = 'console:local') =>
  manzil.bot.handleCommand({ user: 'U1', channel, text, isAdmin: async () => true });

/** One sample value of a metric in the Prometheus text, 0 when absent. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    if (want.every((w) => (m[2] ?? '').includes(w))) total += Number(m[3]);
  }
  return total;
}
