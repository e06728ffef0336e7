// The project's own vitest configuration, its real global setup included, run on one fixture of the gate's
// (GATE_FIXTURE, a file in ./fixtures): gate.test.ts runs it to prove that a failure makes vitest exit non-zero.
// The fixtures end in `.fixture.ts`, outside the normal run's include list.
import { defineConfig } from 'vitest/config';
import project from '../../vitest.config.js';

const fixture = process.env.GATE_FIXTURE;
if (!fixture) throw new Error('GATE_FIXTURE names the fixture to run (test/gate/fixtures/*.fixture.ts)');

export default defineConfig({
  ...project,
  test: {
    ...project.test,
    include: [`test/gate/fixtures/${fixture}`],
    // GATE_GLOBAL_THROWS=setup|teardown: the real global setup with one more part that throws there.
    ...(process.env.GATE_GLOBAL_THROWS ? { globalSetup: ['test/gate/fixtures/throwing-global.ts'] } : {}),
  },
});
