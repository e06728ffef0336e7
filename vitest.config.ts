import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'adapters/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Test files share each worker's modules (isolate: false): a file no longer pays for loading discord.js, Bolt and
    // the app again, which cut the suite's CPU by a third, what a loaded 2-core machine needs to run it within 10 minutes.
    // Tests therefore keep no state in modules of their own: each makes its stores, servers and clients and closes them.
    // (A run with isolation off once failed a worker's discord.js import, "string \"Set()\" is not iterable"; if it
    // comes back, isolation goes back on and the suite needs another way to its time.)
    isolate: false,
    // Many tests wait on child processes and loopback servers rather than the CPU: more workers than cores pay off.
    maxWorkers: 4,
    // One embedded Postgres for the whole run (about 2 s to start); tests take a database each (test/support/postgres.ts).
    globalSetup: ['test/support/global-setup.ts'],
    // Stopping Postgres can take a while on a loaded machine; past this vitest exits without waiting.
    teardownTimeout: 30_000,
    // A stray `.only` would quietly shrink the run to one test.
    allowOnly: false,
  },
});
