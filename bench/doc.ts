// What a benchmark reports, and how its rows are written into docs/benchmarks.md: each benchmark owns one section of
// the document between `<!-- bench:<name>:start -->` and `<!-- bench:<name>:end -->`, so a run replaces the sections
// of the benchmarks that ran and leaves the others, and the prose around them, as they were.
import os from 'node:os';

/** Every figure a benchmark prints, by label. */
export type Figures = Record<string, string | number>;

/** One line of the document's table: what was measured, the figure, the goal and whether the run met it. */
export interface BenchRow {
  name: string;
  figure: string;
  /** Empty when the figure is recorded, not judged. */
  goal: string;
  /** Undefined when there is no goal. */
  pass?: boolean;
}

export interface BenchResult {
  figures: Figures;
  rows: BenchRow[];
  /** One object a script reads, printed as one JSON line beside the human lines (the shared bench's). */
  json?: Record<string, unknown>;
}

/** A benchmark's section of the document as one run wrote it. */
export interface BenchSection {
  /** The marker's name: `parse`, `alerts-postgres`. */
  name: string;
  /** The heading of a section the document does not have yet. */
  title: string;
  rows: BenchRow[];
  /** When and on what the rows were measured: `2026-06-01, 2 cores (load 0.4), Node v20.18.0`. */
  run: string;
}

/**
 * The run column's text for a run now, on this machine; the load average at the end of the run says how much of the
 * machine other work took (a figure measured at load 8 on 2 cores is not the code's alone).
 */
export function runLabel(now = new Date()): string {
  const load = os.loadavg()[0]!.toFixed(1);
  return `${now.toISOString().slice(0, 10)}, ${os.cpus().length} cores (load ${load}), Node ${process.version}`;
}

/** A cell's text in a Markdown table: one line, its pipes escaped. */
const cell = (text: string) => text.replace(/\s*[\r\n]+\s*/g, ' ').replace(/\|/g, '\\|');

const passText = (pass: boolean | undefined) => (pass === undefined ? '' : pass ? 'yes' : '**no**');

const markers = (name: string) => [`<!-- bench:${name}:start -->`, `<!-- bench:${name}:end -->`] as const;

/** The section's lines, markers included. */
export function renderSection(section: BenchSection): string {
  const [start, end] = markers(section.name);
  const rows = section.rows.map(
    (r) => `| ${cell(r.name)} | ${cell(r.figure)} | ${cell(r.goal)} | ${passText(r.pass)} | ${cell(section.run)} |`,
  );
  return [start, '| Measured | Figure | Goal | Met | Run |', '|---|---|---|---|---|', ...rows, end].join('\n');
}

/**
 * `doc` with each section's markers and what lies between them replaced by the section as run; a section the document
 * does not have yet is added at its end under a heading of its own. Everything else is left as it was.
 */
export function writeSections(doc: string, sections: readonly BenchSection[]): string {
  let out = doc;
  for (const section of sections) {
    const [start, end] = markers(section.name);
    const from = out.indexOf(start);
    const to = from >= 0 ? out.indexOf(end, from) : -1;
    // Half a section would have the next write replace whatever lies between it and the next end marker.
    if (from >= 0 !== to >= 0 || (from < 0 && out.includes(end))) {
      throw new Error(`docs/benchmarks.md: the markers of ${section.name} do not pair up (${start} ... ${end})`);
    }
    if (from >= 0) {
      out = out.slice(0, from) + renderSection(section) + out.slice(to + end.length);
    } else {
      out = `${out.trimEnd()}\n\n## ${section.title}\n\n${renderSection(section)}\n`;
    }
  }
  return out;
}
