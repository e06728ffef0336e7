import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'adapters/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Many tests wait on child processes and loopback servers rather than the CPU: more workers than cores pay off.
    maxWorkers: 4,
  },
});
