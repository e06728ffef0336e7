// How `manzil` and `npm start` find their code: the compiled dist/ in production, the TypeScript source
// (through tsx) in development and tests, and a build only when dist/ is missing or stale. Each case runs the
// real bin scripts in a scratch copy of the project's layout, with stand-in entry points (no real build: too slow).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A scratch project: bin/ copied, a stand-in src/cli.ts and (optionally) dist/src/cli.js, node_modules linked or not.
 */
function scratch({ dist, nodeModules }: { dist: boolean; nodeModules: boolean }): string {
  const dir = mkdtempSync(join(tmpdir(), 'manzil-bin-'));
  for (const sub of ['bin', 'src', 'dist/src']) mkdirSync(join(dir, sub), { recursive: true });
  for (const file of ['manzil.js', 'build.js']) copyFileSync(join(repo, 'bin', file), join(dir, 'bin', file));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
  writeFileSync(
    join(dir, 'src/cli.ts'),
    "export async function runCli(args: string[]): Promise<number> { console.log('source', ...args); return 0; }\n",
  );
  if (dist)
    writeFileSync(
      join(dir, 'dist/src/cli.js'),
      "export async function runCli(args) { console.log('compiled', ...args); return 0; }\n",
    );
  if (nodeModules) symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

const run = (dir: string, script: string, args: string[], env: Record<string, string> = {}) => {
  const { MANZIL_FROM_SOURCE: _ignored, ...inherited } = process.env;
  const r = spawnSync(process.execPath, [join(dir, 'bin', script), ...args], {
    encoding: 'utf8',
    env: { ...inherited, ...env },
    timeout: 30_000,
  });
  return { status: r.status, out: r.stdout.trim(), err: r.stderr };
};

describe('bin/manzil.js', () => {
  it('runs the compiled CLI when dist/ exists, and the source when MANZIL_FROM_SOURCE=1', () => {
    const dir = scratch({ dist: true, nodeModules: true });
    expect(run(dir, 'manzil.js', ['help']).out).toBe('compiled help');
    expect(run(dir, 'manzil.js', ['help'], { MANZIL_FROM_SOURCE: '1' }).out).toBe('source help');
  });

  it('runs the source through tsx when there is no build', () => {
    const dir = scratch({ dist: false, nodeModules: true });
    expect(run(dir, 'manzil.js', ['start']).out).toBe('source start');
  });

  it('says what to do when there is neither a build nor tsx', () => {
    const dir = scratch({ dist: false, nodeModules: false });
    const r = run(dir, 'manzil.js', ['start']);
    expect(r.status).toBe(1);
    expect(r.err).toMatch(/npm run build/);
  });
});

describe('bin/build.js --if-stale (npm prestart)', () => {
  it('does nothing when dist/ is newer than the sources, even without TypeScript', () => {
    const dir = scratch({ dist: true, nodeModules: false });
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(dir, 'src/cli.ts'), past, past);
    utimesSync(join(dir, 'src'), past, past);
    const r = run(dir, 'build.js', ['--if-stale']);
    expect(r.status).toBe(0);
    expect(r.err).toBe('');
    expect(existsSync(join(dir, 'dist/src/cli.js'))).toBe(true);
  });

  it('with a stale dist/ and no TypeScript (npm ci --omit=dev), runs dist/ as it is and says so', () => {
    const dir = scratch({ dist: true, nodeModules: false });
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(dir, 'dist/src/cli.js'), past, past);
    const r = run(dir, 'build.js', ['--if-stale']);
    expect(r.status).toBe(0);
    expect(r.err).toMatch(/are not installed: running it as it is/);
  });

  it('builds a stale dist/ with esbuild, in seconds, into JavaScript that runs (issue 26: the README promised under 10 s)', () => {
    const dir = scratch({ dist: true, nodeModules: true });
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(dir, 'dist/src/cli.js'), past, past);
    const r = run(dir, 'build.js', ['--if-stale']);
    expect(r.status).toBe(0);
    expect(r.err).toMatch(/building dist\//);
    expect(run(dir, 'manzil.js', ['start']).out).toBe('source start'); // the stand-in source, compiled
  });

  it('refuses clearly when dist/ is missing and TypeScript is not installed', () => {
    const dir = scratch({ dist: false, nodeModules: false });
    const r = run(dir, 'build.js', ['--if-stale']);
    expect(r.status).toBe(1);
    expect(r.err).toMatch(/dist\/ is missing/);
  });
});
