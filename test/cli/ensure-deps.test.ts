// `npm start` and `npm test` on a fresh clone: their pre-scripts run bin/ensure-deps.js, which runs `npm ci` when
// node_modules does not match package-lock.json and does nothing when it does. Run here in scratch folders, with a
// stand-in npm (npm_execpath, as npm sets it for its scripts) that records what it was asked.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../bin/ensure-deps.js', import.meta.url));
const folders: string[] = [];
afterEach(() => folders.splice(0).forEach((f) => rmSync(f, { recursive: true, force: true })));

type Entry = { version?: string; dev?: boolean; optional?: boolean };

/** A project whose lock names `locked` and whose node_modules holds `installed` (name → version). */
function project(locked: Record<string, Entry>, installed: Record<string, string>, npmExit = 0) {
  const dir = mkdtempSync(path.join(tmpdir(), 'manzil-ensure-deps-'));
  folders.push(dir);
  const packages = Object.fromEntries([
    ['', { name: 'p' }],
    ...Object.entries(locked).map(([name, e]) => [`node_modules/${name}`, e]),
  ]);
  writeFileSync(path.join(dir, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages }));
  for (const [name, version] of Object.entries(installed)) {
    mkdirSync(path.join(dir, 'node_modules', name), { recursive: true });
    writeFileSync(path.join(dir, 'node_modules', name, 'package.json'), JSON.stringify({ name, version }));
  }
  const npm = path.join(dir, 'fake-npm.cjs');
  writeFileSync(
    npm,
    `require('fs').appendFileSync(${JSON.stringify(path.join(dir, 'npm-calls'))}, process.argv.slice(2).join(' ') + '\\n'); process.exit(${npmExit});`,
  );
  return {
    run: (...args: string[]) =>
      spawnSync(process.execPath, [SCRIPT, ...args], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, npm_execpath: npm },
      }),
    npmCalls: () =>
      existsSync(path.join(dir, 'npm-calls'))
        ? readFileSync(path.join(dir, 'npm-calls'), 'utf8').trim().split('\n')
        : [],
  };
}

describe('installing what a fresh clone lacks (bin/ensure-deps.js)', () => {
  it('runs `npm ci` when node_modules is missing, and says why', () => {
    const p = project({ a: { version: '1.0.0' } }, {});
    const run = p.run();
    expect(run.status).toBe(0);
    expect(p.npmCalls()).toEqual(['ci']);
    expect(run.stderr).toMatch(/installing the dependencies with `npm ci`.*node_modules\/a is missing/);
  });

  it('runs `npm ci` when a package is at another version than the lock file says', () => {
    const p = project({ a: { version: '1.0.0' }, b: { version: '2.0.0' } }, { a: '1.0.0', b: '1.9.0' });
    expect(p.run().stderr).toMatch(/node_modules\/b is 1\.9\.0, the lock file says 2\.0\.0/);
    expect(p.npmCalls()).toEqual(['ci']);
  });

  it('does nothing when node_modules matches, other platforms’ optional packages aside', () => {
    const p = project(
      { a: { version: '1.0.0' }, 'other-platform': { version: '1.0.0', optional: true } },
      { a: '1.0.0' },
    );
    const run = p.run();
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    expect(p.npmCalls()).toEqual([]);
  });

  it('before `npm start`, a production tree without the dev dependencies is used as it is', () => {
    const p = project({ a: { version: '1.0.0' }, tool: { version: '3.0.0', dev: true } }, { a: '1.0.0' });
    expect(p.run('--prod').status).toBe(0);
    expect(p.npmCalls()).toEqual([]);
    // `npm test` needs the dev dependencies too.
    expect(p.run().status).toBe(0);
    expect(p.npmCalls()).toEqual(['ci']);
  });

  it('fails, saying so, when `npm ci` fails', () => {
    const p = project({ a: { version: '1.0.0' } }, {}, 3);
    const run = p.run();
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/`npm ci` failed \(exit 3\)/);
  });
});
