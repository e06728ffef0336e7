// docs/architecture.md's boundary table is the lint's import rules written for people: a rule added, changed or dropped
// in eslint.config.js without the table (or a row of the table with no rule behind it) is a picture that lies.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

type Pattern = { regex: string; message: string };
type Block = { files?: string[]; rules?: Record<string, unknown> };

// The configuration as eslint loads it (a path in a variable: the JavaScript file has no types to check against).
const CONFIG = new URL('../../eslint.config.js', import.meta.url).href;
const config = ((await import(CONFIG)) as { default: Block[] }).default;

/** One rule for one file set, as a comparable line: `files | regex | message`. */
const ruleKey = (files: string, regex: string, message: string) => `${files} | ${regex} | ${message}`;

function rulesOfConfig(): string[] {
  const keys: string[] = [];
  for (const block of config) {
    const rule = block.rules?.['no-restricted-imports'] as [string, { patterns: Pattern[] }] | undefined;
    if (!rule) continue;
    for (const files of block.files ?? ['**']) {
      for (const { regex, message } of rule[1].patterns) keys.push(ruleKey(files, regex, message));
    }
  }
  return keys;
}

/** The cells of a table row; `\|` is a pipe inside a cell (GFM keeps it in code spans too). */
const cellsOf = (row: string) =>
  row
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\\|/g, '|'));
const codeSpans = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

function rulesOfTable(doc: string): string[] {
  const section = doc.split(/^## Boundaries$/m)[1]?.split(/^## /m)[0] ?? '';
  const rows = section.split('\n').filter((line) => line.startsWith('|'));
  const keys: string[] = [];
  for (const row of rows.slice(2)) {
    const [files, imports, why] = cellsOf(row) as [string, string, string];
    // The import cell glosses the pattern in words; the pattern is its last code span.
    const regex = codeSpans(imports).at(-1) ?? '';
    for (const file of codeSpans(files)) keys.push(ruleKey(file, regex, why));
  }
  return keys;
}

describe('docs/architecture.md and eslint.config.js', () => {
  const doc = readFileSync(new URL('../../docs/architecture.md', import.meta.url), 'utf8');
  const table = rulesOfTable(doc);
  const lint = rulesOfConfig();

  it('the configuration has import rules and the document a table of them', () => {
    expect(lint.length).toBeGreaterThan(10);
    expect(table.length).toBeGreaterThan(10);
  });

  it('every import rule of the lint is a row of the boundary table', () => {
    expect(lint.filter((key) => !table.includes(key))).toEqual([]);
  });

  it('every row of the boundary table is a rule of the lint', () => {
    expect(table.filter((key) => !lint.includes(key))).toEqual([]);
  });
});
