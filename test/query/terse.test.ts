// The second edition must not change what the first understood: every terse command of the first edition's grammar
// that parsed then parses to the same Query now (digests recorded from the first edition's parser), and any Query
// written back as text parses to exactly itself, with nothing corrected.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatQuery, parseCommand } from '../../src/query/index.js';
import { digest, terseCommand, terseCorpus } from './terse-corpus.js';

const fixture = JSON.parse(readFileSync(new URL('./fixtures/terse-first-edition.json', import.meta.url), 'utf8')) as { digests: Record<string, string> };

describe('terse commands of the first edition', () => {
  it('parse to the same Query as the first edition did, for every command it understood', () => {
    const changed: string[] = [];
    let compared = 0;
    for (const command of new Set(terseCorpus())) {
      const before = fixture.digests[command];
      if (before === undefined) continue;
      compared++;
      const now = parseCommand(command);
      if (!now.ok || digest(now.query) !== before) changed.push(command);
    }
    expect(compared).toBeGreaterThan(1000);
    expect(changed).toEqual([]);
  });

  it('never gain corrections: a terse command is read as typed', () => {
    fc.assert(
      fc.property(terseCommand, (command) => {
        const result = parseCommand(command);
        if (result.ok) expect(result.query.corrections).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });

  it('canonical text of any query parses back to exactly that query', () => {
    // Every operation, with its own typical filters: what "Run again" buttons and saved searches write.
    const samples = ['/rent marina 2br under 120k furnished pool newest page 2', '/buy "Dubai Hills Estate" 3+ br villa between 3m and 5m',
      '/projects dubai hills 2br under 2m earliest handover', '/sold downtown villa last 6 months highest price', '/adrec yas island villa',
      '/trend marina villa', '/agents detailed marina commercial rent', '/brokers marina most agents', '/agent 12 rent', '/broker 4 sale',
      '/property 16266089', '/developers rak page 2', '/location jumeirah'];
    for (const text of samples) {
      const first = parseCommand(text);
      if (!first.ok) expect.fail(first.error);
      expect(parseCommand(formatQuery(first.query))).toEqual({ ok: true, query: first.query });
    }
  });
});
