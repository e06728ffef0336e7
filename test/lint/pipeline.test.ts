// A question's path reads in order (docs/architecture.md, "Where a question becomes an answer"): each stage of
// src/bot/pipeline imports, of the pipeline, only the stages before it and stages.ts (what they all share), and none
// reaches back into the Bot. Type-only imports count: a stage typed by a later one is read out of order just the same.
// TypeScript's own pre-processor lists each file's imports (milliseconds, where a whole madge graph takes seconds).
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** The stages, in the order a command goes through them. */
const STAGES = ['understand', 'resolve', 'fetch', 'present', 'remember'];

const PIPELINE = new URL('../../src/bot/pipeline/', import.meta.url);

/** The modules a file of the pipeline imports, as written (`./fetch.js`, `../bot.js`), type-only ones included. */
const importsOf = (file: string): string[] =>
  ts.preProcessFile(readFileSync(new URL(file, PIPELINE), 'utf8'), true, true).importedFiles.map((f) => f.fileName);

describe('a question as a pipeline', () => {
  it('each stage imports only the stages before it, and no stage the Bot', () => {
    const backwards: string[] = [];
    STAGES.forEach((stage, i) => {
      for (const imported of importsOf(`${stage}.ts`)) {
        const sibling = /^\.\/([\w-]+)\.js$/.exec(imported)?.[1];
        const allowed = sibling === undefined || sibling === 'stages' || STAGES.slice(0, i).includes(sibling);
        if (!allowed || /^\.\.\/(bot|index)\.js$/.test(imported)) backwards.push(`${stage} → ${imported}`);
      }
    });
    expect(backwards).toEqual([]);
    // The shared part imports no stage: it is what they hand on, not a stage.
    expect(importsOf('stages.ts').filter((m) => m.startsWith('./'))).toEqual([]);
  });
});
