// How a test starts a process of Manzil's: from the run's compiled copy of the TypeScript (./compiled.ts) when vitest's
// global setup made one, else from the source through tsx. Both run the same code; the copy spares each process tsx's
// loader (about 2 s of CPU).
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
