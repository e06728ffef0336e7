// docs/configuration.md and the code agree (issue 28): its table names every variable the code reads (config.ts's
// schema, and any other read from the environment in src/, adapters/ or bin/) with the code's default, names none the
// code does not read, and is exactly what `manzil config-doc` writes from the code.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENV_VARIABLES, envDefaults } from '../../src/config.js';
import { shownDefault, TABLE_END, TABLE_START, variableTable, withTable } from '../../src/ops/config-doc.js';
import { REPO, runManzil } from '../support/child.js';

const DOC = path.join(REPO, 'docs', 'configuration.md');
const doc = readFileSync(DOC, 'utf8');

/** Read from the environment, but not configuration: the gate's stand-in checks (bin/test.js), and npm's own. */
const NOT_CONFIGURATION = new Set(['MANZIL_TEST_CHECKS', 'npm_execpath']);

/** The table's rows, between the markers: each variable's name and its default as shown. */
function documented(text: string): Map<string, string> {
  const table = text.slice(text.indexOf(TABLE_START), text.indexOf(TABLE_END));
  const rows = new Map<string, string>();
  for (const m of table.matchAll(/^\| `([^`]+)` \| (.*?) \|/gm)) rows.set(m[1]!, m[2]!);
  return rows;
}

/** Every name the code reads from the environment by name: `process.env.X`, `env.X`, `env['X']`, `'X' in process.env`. */
function readInCode(): Set<string> {
  const names = new Set<string>();
  const patterns = [
    /(?<![\w.])(?:process\.env|env)\??\.([A-Za-z_]\w*)/g,
    /(?<![\w.])(?:process\.env|env)\[\s*(?:'|")([A-Za-z_]\w*)(?:'|")\s*\]/g,
    /(?:'|")([A-Za-z_]\w*)(?:'|")\s+in\s+process\.env/g,
  ];
  for (const top of ['src', 'adapters', 'bin']) {
    for (const file of readdirSync(path.join(REPO, top), { recursive: true, encoding: 'utf8' })) {
      if (!/\.(ts|js)$/.test(file)) continue;
      const code = readFileSync(path.join(REPO, top, file), 'utf8');
      for (const pattern of patterns) for (const m of code.matchAll(pattern)) names.add(m[1]!);
    }
  }
  for (const name of NOT_CONFIGURATION) names.delete(name);
  return names;
}

describe('docs/configuration.md', () => {
  const rows = documented(doc);
  const inCode = new Set([...ENV_VARIABLES, ...readInCode()]);

  it('names every variable the code reads', () => {
    expect(rows.size).toBeGreaterThan(60);
    const missing = [...inCode].filter((name) => !rows.has(name));
    expect(missing, 'read by the code, missing from the doc (npx manzil config-doc)').toEqual([]);
  });

  it("gives each the code's default", () => {
    const defaults = envDefaults();
    const differ = ENV_VARIABLES.filter((name) => defaults[name] !== undefined)
      .filter((name) => rows.get(name) !== shownDefault(defaults[name]))
      .map((name) => `${name}: the doc says ${rows.get(name)}, the code ${shownDefault(defaults[name])}`);
    expect(differ).toEqual([]);
  });

  it('names none the code does not read', () => {
    expect([...rows.keys()].filter((name) => !inCode.has(name))).toEqual([]);
  });

  it('holds the table `manzil config-doc` writes from the code (run `npx manzil config-doc` after a change)', () => {
    expect(withTable(doc, variableTable())).toBe(doc);
  });
});

describe('manzil config-doc', () => {
  it('writes the table between the markers and keeps the prose around it', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'manzil-config-doc-'));
    const file = path.join(dir, 'configuration.md');
    const stale = withTable(doc, '| Variable | Default |\n|---|---|\n| `GONE_VARIABLE` | 1 |')!;
    writeFileSync(file, stale);

    const r = await runManzil(['config-doc', file]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/wrote the table of \d+ variables/);
    expect(readFileSync(file, 'utf8')).toBe(doc);

    writeFileSync(file, '# Configuration\n\nNo table here.\n');
    const refused = await runManzil(['config-doc', file]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`has no ${TABLE_START} … ${TABLE_END} markers`);
    expect(readFileSync(file, 'utf8')).toBe('# Configuration\n\nNo table here.\n');
  });
});
