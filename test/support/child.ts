// How a test starts a process of Manzil's: from the run's compiled copy of the TypeScript (./compiled.ts) when vitest's
// global setup made one, else from the source through tsx. Both run the same code; the copy spares each process tsx's
// loader (about 2 s of CPU).
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

/** The repository's root folder. */
export const REPO = fileURLToPath(new URL('../..', import.meta.url));

function compiledRoot(): string | undefined {
  try {
    return inject('compiledRoot');
  } catch {
    return undefined; // outside a vitest worker
  }
}

/** Node's arguments to run the TypeScript file `script` (a path, or a file: URL). */
export function nodeArgs(script: string | URL): string[] {
  const file = script instanceof URL ? fileURLToPath(script) : script;
  const root = compiledRoot();
  if (!root) return ['--import', 'tsx', file];
  return [path.join(root, path.relative(REPO, file)).replace(/\.ts$/, '.js')];
}

/** Node's arguments to run the `manzil` command with `args`, as bin/manzil.js runs it from the source. */
export function manzilArgs(...args: string[]): string[] {
  const root = compiledRoot();
  if (!root) return [path.join(REPO, 'bin', 'manzil.js'), ...args];
  return [path.join(root, 'src', 'cli.js'), ...args];
}

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `manzil <args>` as an operator runs it: a process of its own with only PATH, HOME (its folder) and `env` in its
 * environment, in `cwd` (a new temporary folder by default), `input` on its standard input; resolves when it exits.
 */
export function runManzil(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; input?: string } = {},
): Promise<CliRun> {
  const cwd = options.cwd ?? mkdtempSync(path.join(tmpdir(), 'manzil-cli-'));
  const child = spawn(process.execPath, manzilArgs(...args), {
    cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, MANZIL_FROM_SOURCE: '1', ...options.env },
    stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (options.input !== undefined) child.stdin?.end(options.input);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}
