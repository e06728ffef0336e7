import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'adapters/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Test files in one worker share its modules: a third less CPU than loading them afresh for each file, which a
    // loaded 2-core machine needs to finish within 10 minutes. A test must leave no global changed behind it.
    isolate: false,
    // Many tests wait on child processes and loopback servers rather than the CPU: more workers than cores pay off.
    maxWorkers: 4,
    // One embedded Postgres for the whole run (about 2 s to start); tests take a database each
    // (test/support/postgres.ts).
    globalSetup: ['test/support/global-setup.ts'],
    // Stopping Postgres can take a while on a loaded machine; past this vitest exits without waiting.
    teardownTimeout: 30_000,
    // A stray `.only` would quietly shrink the run to one test.
    allowOnly: false,
  },
});
