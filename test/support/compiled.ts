// A part of vitest's global setup (./global-setup.ts): the TypeScript of src/, adapters/ and test/ turned into
// JavaScript once for the run, for the processes the tests start (`manzil start`, the restart children). Each of them
// ran through tsx before, whose loader thread cost about 2 s of CPU per process (and as much again for a delivery
// thread it started); on a 2-core machine that was a fifth of the suite. The transform is the one tsx does (esbuild,
// the
// project's tsconfig, a file at a time, no bundling), so a child runs the same code.
//
// The files go under .test-build/ in the repository (not under node_modules/, where Node would take .js for CommonJS),
// so the package.json that says ESM, the packages and the repository's own files (migrations/, assets/, found upwards
// from a module) are found from there as they are from the source.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { REPO } from './child.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the run's compiled copy of the repository's TypeScript is (./child.ts maps a source file into it). */
    compiledRoot: string;
  }
}

const PARTS = ['src', 'adapters', 'test'];

function typescriptFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return typescriptFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

export async function setUpCompiled(project: TestProject): Promise<() => Promise<void>> {
  const builds = path.join(REPO, '.test-build');
  fs.mkdirSync(builds, { recursive: true });
  const root = fs.mkdtempSync(path.join(builds, 'run-'));
  const remove = () => fs.promises.rm(root, { recursive: true, force: true });
  try {
    await build({
      entryPoints: PARTS.flatMap((part) => typescriptFiles(path.join(REPO, part))),
      outdir: root,
      outbase: REPO,
      bundle: false,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      tsconfig: path.join(REPO, 'tsconfig.json'),
      sourcemap: 'inline',
      logLevel: 'silent',
    });
  } catch (error) {
    await remove();
    throw error;
  }
  project.provide('compiledRoot', root);
  return remove;
}
