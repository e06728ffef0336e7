#!/usr/bin/env node
// `npm run build`: compiles src/ and adapters/ to dist/, from a clean dist/, with esbuild: each file transformed as tsx
// transforms it (the tests' children run the same, test/support/compiled.ts), in a second or two where tsc took 15 to
// 35 s, and over 2 minutes on a loaded machine. Types are checked by `npm test` (tsc --noEmit), not here. Without
// esbuild, tsc (tsconfig.build.json) compiles as before.
// `--if-stale` (npm's prestart): builds only when dist/ is missing or older than the sources, so that
// `npm ci && npm start` works in one step and a `git pull` never runs stale JavaScript. Where dist/ exists
// and TypeScript does not (`npm ci --omit=dev`, a production image), dist/ is used as it is.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const output = path.join(root, 'dist', 'src', 'cli.js');
const SOURCES = ['src', 'adapters', 'tsconfig.json', 'tsconfig.build.json'];

/** The newest modification time among the sources, 0 when there are none (dist/ shipped alone). */
function newestSource(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce(
    (newest, name) => Math.max(newest, newestSource(path.join(entry, name))),
    stat.mtimeMs,
  );
}

function isFresh() {
  if (!existsSync(output)) return false;
  const built = statSync(output).mtimeMs;
  return SOURCES.every((s) => newestSource(path.join(root, s)) <= built);
}

function resolved(name) {
  try {
    return createRequire(import.meta.url).resolve(name);
  } catch {
    return undefined;
  }
}

/**
 * The TypeScript files of a folder and its subfolders, tests and declarations left out (as tsconfig.build.json does).
 */
function typescriptFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return typescriptFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && !entry.name.endsWith('.test.ts')
      ? [full]
      : [];
  });
}

async function withEsbuild(esbuildPath) {
  const { build } = await import(pathToFileURL(esbuildPath).href);
  try {
    await build({
      entryPoints: ['src', 'adapters'].flatMap((part) =>
        existsSync(path.join(root, part)) ? typescriptFiles(path.join(root, part)) : [],
      ),
      outdir: path.join(root, 'dist'),
      outbase: root,
      bundle: false,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      ...(existsSync(path.join(root, 'tsconfig.json')) ? { tsconfig: path.join(root, 'tsconfig.json') } : {}),
      sourcemap: true,
      logLevel: 'error',
    });
    return 0;
  } catch (e) {
    // esbuild has printed the errors in the sources; anything else (esbuild itself failing) is said here.
    if (!(e && typeof e === 'object' && 'errors' in e))
      process.stderr.write(`manzil: the build failed: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}

const ifStale = process.argv.includes('--if-stale');
if (ifStale && isFresh()) process.exit(0);
const esbuild = resolved('esbuild');
const tsc = esbuild ? undefined : resolved('typescript/bin/tsc');
if (!esbuild && !tsc) {
  if (ifStale && existsSync(output)) {
    process.stderr.write(
      'manzil: dist/ may be older than the sources, and its compilers (esbuild, TypeScript) are not installed: running it as it is.\n',
    );
    process.exit(0);
  }
  process.stderr.write(
    'manzil: dist/ is missing and esbuild (a dev dependency) is not installed: run `npm ci` (with dev dependencies) and `npm run build`.\n',
  );
  process.exit(1);
}
if (ifStale) process.stderr.write('manzil: building dist/ (the sources changed since the last build)...\n');
rmSync(path.join(root, 'dist'), { recursive: true, force: true });
const status = esbuild
  ? await withEsbuild(esbuild)
  : (spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' }).status ??
    1);
// A failed build may leave part of its output: drop it, so that the next start builds again rather than run it.
if (status !== 0) rmSync(path.join(root, 'dist'), { recursive: true, force: true });
process.exit(status);
