#!/usr/bin/env node
// The `manzil` command. The source is TypeScript; tsx loads it without a build step.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli.ts');
process.exitCode = await runCli(process.argv.slice(2));
