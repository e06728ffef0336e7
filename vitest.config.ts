import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'adapters/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Test files in one worker share its loaded modules (Bolt, discord.js, the sources) instead of loading them again
    // per file: the suite needs about half the CPU. Tests keep no state in modules, so nothing leaks between files.
    isolate: false,
    // Many tests wait on child processes and loopback servers rather than the CPU: more workers than cores pay off.
    maxWorkers: 4,
  },
});
