#!/usr/bin/env node
// `npm test`: the checks (bin/check.js: type check, lint, formatting, dead code) and the vitest suite side by side,
// failing when either fails. Side by side because the suite spends much of its time waiting on child processes,
// loopback servers and leases, where the checks' CPU fits: on a loaded 2-core machine that is over a minute less than
// one after the other. Arguments go to vitest (`npm test -- test/alerts`). The checks' output is printed as each ends;
// the last line says what failed.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));

function run(name, args, stdio) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio });
    child.on('error', (error) => {
      process.stderr.write(`${name} could not start: ${error.message}\n`);
      resolve({ name, code: 1 });
    });
    child.on('close', (code, signal) => resolve({ name, code: code ?? 1, signal }));
  });
}

// MANZIL_TEST_CHECKS: another checks script, for the gate's own test (test/gate/), which cannot afford the real ones.
const checks = process.env.MANZIL_TEST_CHECKS ?? here('./check.js');
const results = await Promise.all([
  run('checks', [checks], 'inherit'),
  run('vitest', [here('../node_modules/vitest/vitest.mjs'), 'run', ...process.argv.slice(2)], 'inherit'),
]);
const failed = results.filter((r) => r.code !== 0);
for (const r of failed) process.stderr.write(`npm test: ${r.name} failed (${r.signal ?? `exit ${r.code}`})\n`);
process.exit(failed.length === 0 ? 0 : 1);
