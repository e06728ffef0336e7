// `npm run bench` writes its rows into docs/benchmarks.md: a run of one benchmark replaces that benchmark's section and
// nothing else, so the figures of the others (and the prose around them) survive it.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderSection, writeSections, type BenchSection } from '../../bench/doc.js';

const RUN = '2026-01-02, 2 cores, Node v20.18.0';
const parse = (figure: string): BenchSection => ({
  name: 'parse',
  title: 'parse: command language throughput',
  rows: [{ name: 'Parsing', figure, goal: 'well over 50,000/s', pass: true }],
  run: RUN,
});
const charts: BenchSection = {
  name: 'charts',
  title: 'charts: rendering alone',
  rows: [{ name: 'One chart', figure: 'p50 95 ms', goal: '' }],
  run: 'earlier',
};

const DOC = [
  '# Benchmarks',
  '',
  'Prose before.',
  '',
  '## Parsing',
  '',
  renderSection(parse('80,000 commands/s')),
  '',
  'How parsing is measured.',
  '',
  '## Charts',
  '',
  renderSection(charts),
  '',
  'Prose after.',
  '',
].join('\n');

describe('writing benchmark rows into the document', () => {
  it('replaces the section of the benchmark that ran and keeps the others and the prose', () => {
    const out = writeSections(DOC, [parse('95,000 commands/s')]);
    expect(out).toContain(
      '| Parsing | 95,000 commands/s | well over 50,000/s | yes | 2026-01-02, 2 cores, Node v20.18.0 |',
    );
    expect(out).not.toContain('80,000');
    expect(out).toContain(renderSection(charts));
    for (const prose of ['Prose before.', 'How parsing is measured.', 'Prose after.']) expect(out).toContain(prose);
    expect(out.replace(renderSection(parse('95,000 commands/s')), '')).toBe(
      DOC.replace(renderSection(parse('80,000 commands/s')), ''),
    );
  });

  it('writing the same run twice changes nothing more', () => {
    const once = writeSections(DOC, [parse('95,000 commands/s')]);
    expect(writeSections(once, [parse('95,000 commands/s')])).toBe(once);
  });

  it('adds a benchmark the document has no section for at its end, under its title', () => {
    const digest: BenchSection = { ...charts, name: 'digest', title: 'digest: five places' };
    const out = writeSections(DOC, [digest]);
    expect(out.startsWith(DOC.trimEnd())).toBe(true);
    expect(out).toMatch(/## digest: five places\n\n<!-- bench:digest:start -->[\s\S]*<!-- bench:digest:end -->\n$/);
  });

  it('marks a missed goal and leaves a figure without a goal unjudged', () => {
    const missed = { ...parse('40,000 commands/s'), rows: [{ ...parse('').rows[0]!, pass: false }] };
    expect(renderSection(missed)).toContain('| **no** |');
    expect(renderSection(charts)).toContain('| One chart | p50 95 ms |  |  | earlier |');
  });

  it('keeps every row one table row, whatever its text holds', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (name, figure) => {
        const section: BenchSection = { ...charts, rows: [{ name, figure, goal: 'g', pass: true }] };
        const lines = renderSection(section).split('\n');
        expect(lines).toHaveLength(5);
        // Four unescaped separators inside the row: five cells.
        expect(lines[3]!.slice(1, -1).split(/(?<!\\)\|/)).toHaveLength(5);
      }),
    );
  });

  it('refuses a document whose markers do not pair up, rather than overwrite what lies between', () => {
    const broken = DOC.replace('<!-- bench:charts:end -->', '');
    expect(() => writeSections(broken, [charts])).toThrow(/markers of charts/);
  });

  it('docs/benchmarks.md has a section for every benchmark, each with its rows', () => {
    const doc = readFileSync(new URL('../../docs/benchmarks.md', import.meta.url), 'utf8');
    const names = [...doc.matchAll(/<!-- bench:([\w-]+):start -->/g)].map((m) => m[1]);
    expect(names).toEqual(
      expect.arrayContaining([
        'parse',
        'sandbox',
        'client',
        'limits',
        'slack',
        'alerts',
        'alerts-postgres',
        'shared',
        'delivery',
        'ack-under-load',
        'charts',
        'digest',
      ]),
    );
  });
});
