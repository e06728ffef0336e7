// Vitest's one global setup (vitest.config.ts): runs each part's setup, and at the end each part's teardown.
// One file, not one per part, because vitest 4 runs the teardowns of several globalSetup files one after another,
// stops at the first that throws (the rest, Postgres's among them, never run), and only logs the error: the run still
// exits 0. Here every teardown runs, and any that fails makes the run exit non-zero (test/gate/ proves it).
import type { TestProject } from 'vitest/node';
import { setUpCompiled } from './compiled.js';
import { setUpPostgres } from './postgres-global.js';

/** A part of the global setup: sets up, returns its teardown. */
export type GlobalPart = (project: TestProject) => Promise<() => Promise<void>>;

export async function setUpParts(project: TestProject, parts: readonly GlobalPart[]): Promise<() => Promise<void>> {
  const teardowns: (() => Promise<void>)[] = [];
  const tearDown = async () => {
    const errors: unknown[] = [];
    for (const teardown of teardowns.splice(0).reverse())
      await teardown().catch((error: unknown) => errors.push(error));
    if (errors.length === 0) return;
    // Vitest exits with process.exitCode once closed; it sets none for a failed teardown.
    process.exitCode = 1;
    throw errors.length === 1 ? errors[0] : new AggregateError(errors, `${errors.length} global teardowns failed`);
  };
  try {
    for (const part of parts) teardowns.push(await part(project));
  } catch (error) {
    // What was set up before the failure is torn down, so nothing outlives the run (vitest fails it for the setup).
    await tearDown().catch(() => undefined);
    throw error;
  }
  return tearDown;
}

export default (project: TestProject) => setUpParts(project, [setUpPostgres, setUpCompiled]);
