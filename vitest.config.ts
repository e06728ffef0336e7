import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'adapters/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Each test file loads its modules afresh. Sharing them (isolate: false) cut vitest's CPU by a third and passed four
    // full runs, but the fifth failed 17 files in one worker at discord.js's import ("string \"Set()\" is not iterable",
    // in @vladfrangu/async_event_emitter's node-inspect-extracted), as it once did before: some test leaves a global
    // changed that breaks that module's first load. Until that test is found, isolation stays on.
    isolate: true,
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
