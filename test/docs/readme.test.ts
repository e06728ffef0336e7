// The README's examples are promises to users: each one must parse.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/query/index.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const start = readme.indexOf('## Talking to Manzil');
const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
const examples = [...[...section.matchAll(/^(\/\S.*)$/gm)].map((m) => m[1]!), ...[...section.matchAll(/\| `(\/[^`]+)` \|$/gm)].map((m) => m[1]!)];

describe('README command examples', () => {
  it('has examples to check', () => {
    expect(examples.length).toBeGreaterThan(15);
  });
  it.each(examples)('%s parses', (text) => {
    const result = parseCommand(text);
    expect(result.ok ? 'ok' : result.error).toBe('ok');
  });
});

describe('README alert examples', () => {
  const alerts = readme.slice(readme.indexOf('## Alerts'), readme.indexOf('\n## ', readme.indexOf('## Alerts') + 1));
  const searches = [...alerts.matchAll(/`\/alerts add ([^`]+)`/g)].map((m) => m[1]!);
  it('has examples to check', () => {
    expect(searches.length).toBeGreaterThan(0);
  });
  it.each(searches)('/alerts add %s is a search Manzil understands', (text) => {
    const result = parseCommand(text);
    expect(result.ok ? result.query.operation : result.error).toMatch(/^search-(rent|buy|commercial-rent|commercial-buy)$/);
  });
});
