// A bench measured in a fresh process of its own: its peak RSS (the OS's maxRSS of that process) and its event loop are
// its alone, not shared with what the benches before it left behind. The child prints its figures and rows as one JSON
// line.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BenchResult } from './doc.js';

export type { Figures } from './doc.js';

/** Runs `moduleUrl` (a bench file calling `childMain(flag, ...)`) in a child process and returns its result. */
export async function runInChild(moduleUrl: URL, flag: string): Promise<BenchResult> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(moduleUrl), flag], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: process.env,
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const last = out.trim().split('\n').at(-1) ?? '';
  if (code !== 0 || !last.startsWith('{'))
    throw new Error(`bench child ${flag} failed (exit ${code}): ${out.slice(-2_000)}`);
  return JSON.parse(last) as BenchResult;
}

/** In the child: measures, prints the figures and rows, exits. Does nothing in any other process. */
export function childMain(flag: string, measure: () => Promise<BenchResult>): void {
  if (!process.argv.includes(flag)) return;
  measure().then(
    (result) => {
      process.stdout.write(`${JSON.stringify(result)}\n`);
      process.exit(0);
    },
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    },
  );
}

/**
 * Wraps `names` methods of `target` in place, adding up the synchronous time each takes (SQLite calls block the loop):
 * wall time, and this process's CPU time (which time the host gave to other processes does not inflate). Keeps the
 * calls that took `longMs` or more of wall time, with when they ended (Date.now()).
 */
export function timeMethods<T extends object>(target: T, names: readonly (keyof T & string)[], longMs = 20) {
  const spent = new Map<string, { calls: number; totalMs: number; maxMs: number; cpuMs: number }>();
  const long: { name: string; at: number; ms: number }[] = [];
  for (const name of names) {
    const original = target[name] as unknown as (...args: unknown[]) => unknown;
    const s = { calls: 0, totalMs: 0, maxMs: 0, cpuMs: 0 };
    spent.set(name, s);
    (target as Record<string, unknown>)[name] = (...args: unknown[]) => {
      const t = performance.now();
      const cpu = process.cpuUsage();
      try {
        return original.apply(target, args);
      } finally {
        const d = performance.now() - t;
        const used = process.cpuUsage(cpu);
        s.cpuMs += (used.user + used.system) / 1000;
        s.calls++;
        s.totalMs += d;
        s.maxMs = Math.max(s.maxMs, d);
        if (d >= longMs && long.length < 10_000) long.push({ name, at: Date.now(), ms: d });
      }
    };
  }
  return {
    /** `name calls× mean CPU per call, total CPU (wall: total, longest)` for each method called, the most CPU first. */
    describe: () =>
      [...spent]
        .filter(([, s]) => s.calls > 0)
        .sort((a, b) => b[1].cpuMs - a[1].cpuMs)
        .map(
          ([n, s]) =>
            `${n} ${s.calls}× ${(s.cpuMs / s.calls).toFixed(2)} ms CPU = ${(s.cpuMs / 1000).toFixed(1)} s (wall ${(s.totalMs / 1000).toFixed(1)} s, longest ${s.maxMs.toFixed(0)} ms)`,
        ),
    cpuMs: () => [...spent.values()].reduce((sum, s) => sum + s.cpuMs, 0),
    /** The calls of `longMs` or more that ended between `from` and `to` (Date.now()), by method: count and longest. */
    long: (from = 0, to = Infinity) => {
      const by = new Map<string, { n: number; max: number }>();
      for (const c of long.filter((c) => c.at >= from && c.at <= to)) {
        const b = by.get(c.name) ?? { n: 0, max: 0 };
        by.set(c.name, { n: b.n + 1, max: Math.max(b.max, c.ms) });
      }
      return [...by].map(([n, b]) => `${n} ${b.n}× (longest ${b.max.toFixed(0)} ms)`);
    },
    reset: () => {
      spent.forEach((s) => Object.assign(s, { calls: 0, totalMs: 0, maxMs: 0, cpuMs: 0 }));
      long.length = 0;
    },
  };
}
