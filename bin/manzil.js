#!/usr/bin/env node
// The `manzil` command. Production runs the compiled JavaScript in dist/ (`npm run build`); development and
// the tests run the TypeScript source through tsx, a dev dependency, with no build step.
// The rule: dist/src/cli.js when it exists, unless MANZIL_FROM_SOURCE=1 (the tests, `npm run dev` and
// `npm run bench` set it, so a stale dist/ never stands in for the source they mean to run).
import { existsSync } from 'node:fs';

const compiled = new URL('../dist/src/cli.js', import.meta.url);
const fromSource = process.env.MANZIL_FROM_SOURCE === '1' || !existsSync(compiled);
let runCli;
if (fromSource) {
  const { register } = await import('tsx/esm/api').catch(() => {
    process.stderr.write(
      'manzil: dist/ is missing and tsx (a dev dependency) is not installed: run `npm run build` first.\n',
    );
    process.exit(1);
  });
  register();
  ({ runCli } = await import('../src/cli.ts'));
} else {
  ({ runCli } = await import(compiled.href));
}
process.exitCode = await runCli(process.argv.slice(2));
