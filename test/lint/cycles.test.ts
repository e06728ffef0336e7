// Import cycles with type-only imports followed. The lint's import-x/no-cycle ignores type imports (they are erased at
// run time), but a cycle of types still ties two modules' contracts together, so that neither can be read or changed
// alone. madge follows them too. Types two sides share live in a module both import and that imports neither (the
// store's in src/store/contracts/, for instance).
import madge from 'madge';
import { describe, expect, it } from 'vitest';

describe('import cycles, type-only imports included', () => {
  it('are none', { timeout: 120_000 }, async () => {
    const graph = await madge(['src', 'adapters'], {
      fileExtensions: ['ts'],
      tsConfig: 'tsconfig.json',
      detectiveOptions: { ts: { skipTypeImports: false } },
    });
    expect(
      graph.circular().map((cycle) => cycle.join(' → ')),
      'import cycles',
    ).toEqual([]);
    // The graph is whole: a madge that found no files would find no cycles either.
    expect(Object.keys(graph.obj()).length).toBeGreaterThan(200);
  });
});
