#!/usr/bin/env node
// npm's prestart and pretest: installs the dependencies (`npm ci`) when node_modules does not match package-lock.json,
// so that a fresh clone needs only `npm start` or `npm test`. When it matches, this costs a few milliseconds and does
// nothing. `--prod` (prestart): only the runtime dependencies must match, so a production tree (`npm ci --omit=dev`)
// with its dist/ is used as it is.
// Hand-written rather than a package: it must run before any package is installed.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

// npm runs its scripts in the package's folder.
const root = process.cwd();
const prodOnly = process.argv.includes('--prod');

/** The first package of the lock file that node_modules lacks or holds at another version, or undefined. */
function firstMismatch() {
  const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
  for (const [where, entry] of Object.entries(lock.packages ?? {})) {
    if (where === '' || !where.includes('node_modules/')) continue;
    // Optional packages are for other platforms, or may fail to install without failing the install.
    if (entry.optional || entry.devOptional) continue;
    if (prodOnly && entry.dev) continue;
    const manifest = path.join(root, where, 'package.json');
    if (!existsSync(manifest)) return `${where} is missing`;
    if (entry.link || !entry.version) continue;
    const installed = JSON.parse(readFileSync(manifest, 'utf8')).version;
    if (installed !== entry.version) return `${where} is ${installed}, the lock file says ${entry.version}`;
  }
  return undefined;
}

const mismatch = firstMismatch();
if (mismatch) {
  process.stderr.write(
    `manzil: installing the dependencies with \`npm ci\` (node_modules does not match package-lock.json: ${mismatch})...\n`,
  );
  // npm sets npm_execpath for the scripts it runs: the same npm installs.
  const npm = process.env.npm_execpath;
  const result = npm
    ? spawnSync(process.execPath, [npm, 'ci'], { cwd: root, stdio: 'inherit' })
    : spawnSync('npm', ['ci'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(
      `manzil: \`npm ci\` failed (${result.error?.message ?? `exit ${result.status}`}); run it yourself to see why.\n`,
    );
    process.exit(1);
  }
}
