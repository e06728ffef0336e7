// The README's examples are promises to users: each one must parse.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/query/index.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const section = readme.slice(readme.indexOf('## Talking to Manzil'), readme.indexOf('## Configuration'));
const examples = [
  ...[...section.matchAll(/^(\/\S.*)$/gm)].map((m) => m[1]!),
  ...[...section.matchAll(/\| `(\/[^`]+)` \|$/gm)].map((m) => m[1]!),
];

describe('README command examples', () => {
  it('has examples to check', () => {
    expect(examples.length).toBeGreaterThan(15);
  });
  it.each(examples)('%s parses', (text) => {
    const result = parseCommand(text);
    expect(result.ok ? 'ok' : result.error).toBe('ok');
  });
});
