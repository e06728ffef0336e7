// A question's path reads in order (docs/architecture.md, "Where a question becomes an answer"): each stage of
// src/bot/pipeline imports, of the pipeline, only the stages before it and stages.ts (what they all share), and none
// reaches back into the Bot. Type-only imports count: a stage typed by a later one is read out of order just the same.
import madge from 'madge';
import { describe, expect, it } from 'vitest';

/** The stages, in the order a command goes through them. */
const STAGES = ['understand', 'resolve', 'fetch', 'present', 'remember'].map((s) => `bot/pipeline/${s}.ts`);

describe('a question as a pipeline', () => {
  it('each stage imports only the stages before it, and no stage the Bot', { timeout: 120_000 }, async () => {
    const graph = (
      await madge('src', {
        fileExtensions: ['ts'],
        tsConfig: 'tsconfig.json',
        detectiveOptions: { ts: { skipTypeImports: false } },
      })
    ).obj();
    const backwards: string[] = [];
    STAGES.forEach((stage, i) => {
      expect(graph[stage], `${stage} exists`).toBeDefined();
      for (const dep of graph[stage]!) {
        const allowed = dep === 'bot/pipeline/stages.ts' || STAGES.slice(0, i).includes(dep);
        if (dep.startsWith('bot/pipeline/') && !allowed) backwards.push(`${stage} → ${dep}`);
        if (dep === 'bot/bot.ts' || dep === 'bot/index.ts') backwards.push(`${stage} → ${dep}`);
      }
    });
    expect(backwards).toEqual([]);
    // The shared part imports no stage: it is what they hand on, not a stage.
    expect(graph['bot/pipeline/stages.ts']!.filter((d) => d.startsWith('bot/pipeline/'))).toEqual([]);
  });
});
