#!/usr/bin/env node
// `npm test`'s first step: the type check, the lint, the formatting check and the dead-code check at once (each mostly
// waits on one core), failing when any fails. Each one's output is printed whole, after it ends, so they never
// interleave.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = (name) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));
// The type check and the formatting check remember what they found last time (under node_modules/.cache, so a clean
// clone, and CI, checks everything): a second run checks only what changed, a minute less CPU. Both caches are exact by
// design (tsc's build info tracks every file a result depends on; prettier's is keyed on each file's content). The lint
// keeps no cache: its type-aware rules can change in a file that did not.
const CACHE = fileURLToPath(new URL('../node_modules/.cache/manzil/', import.meta.url));
const checks = [
  ['typecheck', bin('tsc'), ['--noEmit', '--incremental', '--tsBuildInfoFile', `${CACHE}tsconfig.tsbuildinfo`]],
  ['lint', bin('eslint'), ['.']],
  // The formatting, as `npm run format` writes it (.prettierrc.json, .prettierignore).
  [
    'format',
    bin('prettier'),
    [
      '--check',
      '--cache',
      '--cache-strategy',
      'content',
      '--cache-location',
      `${CACHE}prettier`,
      '--log-level',
      'warn',
      '.',
    ],
  ],
  // Dead code (knip.jsonc): files, exports and dependencies nothing uses; then, with only what ships as the entry
  // points, exports only the tests use. Its cache holds each file's imports and exports, keyed on its size and mtime.
  ['dead code', bin('knip'), ['--no-progress', '--cache', '--cache-location', `${CACHE}knip`]],
  [
    'dead code (shipped)',
    bin('knip'),
    ['--production', '--no-progress', '--cache', '--cache-location', `${CACHE}knip-production`],
  ],
];

const results = await Promise.all(
  checks.map(
    ([name, command, args]) =>
      new Promise((resolve) => {
        const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (out += d));
        child.on('error', (e) => (out += `${e.message}\n`));
        child.on('close', (code) => {
          process.stdout.write(`> ${name}: ${code === 0 ? 'ok' : `failed (exit ${code})`}\n${out}`);
          resolve(code === 0);
        });
      }),
  ),
);
process.exit(results.every(Boolean) ? 0 : 1);
