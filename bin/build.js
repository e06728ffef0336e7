#!/usr/bin/env node
// `npm run build`: compiles src/ and adapters/ to dist/ (tsconfig.build.json), from a clean dist/.
// `--if-stale` (npm's prestart): builds only when dist/ is missing or older than the sources, so that
// `npm ci && npm start` works in one step and a `git pull` never runs stale JavaScript. Where dist/ exists
// and TypeScript does not (`npm ci --omit=dev`, a production image), dist/ is used as it is.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const output = path.join(root, 'dist', 'src', 'cli.js');
const SOURCES = ['src', 'adapters', 'tsconfig.json', 'tsconfig.build.json'];

/** The newest modification time among the sources, 0 when there are none (dist/ shipped alone). */
function newestSource(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce((newest, name) => Math.max(newest, newestSource(path.join(entry, name))), stat.mtimeMs);
}

function isFresh() {
  if (!existsSync(output)) return false;
  const built = statSync(output).mtimeMs;
  return SOURCES.every((s) => newestSource(path.join(root, s)) <= built);
}

function typescript() {
  try {
    return createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    return undefined;
  }
}

const ifStale = process.argv.includes('--if-stale');
if (ifStale && isFresh()) process.exit(0);
const tsc = typescript();
if (!tsc) {
  if (ifStale && existsSync(output)) {
    process.stderr.write('manzil: dist/ may be older than the sources, and TypeScript is not installed: running it as it is.\n');
    process.exit(0);
  }
  process.stderr.write('manzil: dist/ is missing and TypeScript (a dev dependency) is not installed: run `npm ci` (with dev dependencies) and `npm run build`.\n');
  process.exit(1);
}
if (ifStale) process.stderr.write('manzil: building dist/ (the sources changed since the last build)...\n');
rmSync(path.join(root, 'dist'), { recursive: true, force: true });
const result = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
// tsc writes its output even with type errors: drop it, so that the next start builds again rather than run it.
if (result.status !== 0) rmSync(path.join(root, 'dist'), { recursive: true, force: true });
process.exit(result.status ?? 1);
