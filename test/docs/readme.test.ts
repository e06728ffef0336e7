// The examples of the user guide are promises to users: each one must parse.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/query/index.js';

const doc = (name: string) => readFileSync(new URL(`../../docs/${name}`, import.meta.url), 'utf8');
const usage = doc('usage.md');
const examples = [
  ...[...usage.matchAll(/^(\/\S.*)$/gm)].map((m) => m[1]!),
  ...[...usage.matchAll(/\| `(\/[^`]+)` \|$/gm)].map((m) => m[1]!),
];

describe('docs/usage.md command examples', () => {
  it('has examples to check', () => {
    expect(examples.length).toBeGreaterThan(15);
  });
  it.each(examples)('%s parses', (text) => {
    const result = parseCommand(text);
    expect(result.ok ? 'ok' : result.error).toBe('ok');
  });
});

describe('docs/alerts.md alert examples', () => {
  const searches = [...doc('alerts.md').matchAll(/`\/alerts add ([^`]+)`/g)].map((m) => m[1]!);
  it('has examples to check', () => {
    expect(searches.length).toBeGreaterThan(0);
  });
  it.each(searches)('/alerts add %s is a search Manzil understands', (text) => {
    const result = parseCommand(text);
    expect(result.ok ? result.query.operation : result.error).toMatch(
      /^search-(rent|buy|commercial-rent|commercial-buy)$/,
    );
  });
});

describe('the README', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  it('stays short', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
  });
  it.each(readdirSync(new URL('../../docs/', import.meta.url)).filter((f) => f.endsWith('.md')))(
    'links docs/%s',
    (file) => {
      expect(readme).toContain(`](docs/${file}`);
    },
  );
  // A folder of docs (docs/decisions/) is linked through its README, which links each of its files.
  const folders = readdirSync(new URL('../../docs/', import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  it.each(folders)('links docs/%s/README.md, which links every file of the folder', (folder) => {
    expect(readme).toContain(`](docs/${folder}/README.md`);
    const index = readFileSync(new URL(`../../docs/${folder}/README.md`, import.meta.url), 'utf8');
    const files = readdirSync(new URL(`../../docs/${folder}/`, import.meta.url)).filter(
      (f) => f.endsWith('.md') && f !== 'README.md',
    );
    expect(files.filter((f) => !index.includes(`](${f})`))).toEqual([]);
  });
});
