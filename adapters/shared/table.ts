// A table as monospaced text, for every adapter: padded columns, a rule under the header, as many rows as fit within
// the platform's limit and a last line counting the rest. Each adapter passes its markup (escaping, code fence,
// colour).
import { clampPlain, width } from './text.js';

/** Long cells would push every row past a message's limit, or off a phone's screen. */
export const CELL_MAX = 40;

/** A cell as it stands in a table of chat: on one line, at most `max` characters. */
export function tableCell(text: string | undefined, max = CELL_MAX): string {
  return clampPlain((text ?? '').replace(/\s+/g, ' '), max);
}

export interface TableOptions {
  /**
   * The most characters the whole text may take; the rows that do not fit are counted in a last line. Default: no
   * limit.
   */
  max?: number;
  /** Each cell as the platform shows it, header cells too. Default: tableCell (one line, 40 characters). */
  cell?: (text: string | undefined) => string;
  /** Each line (header, rule, row) as the platform needs it: escaped, clamped. Default: as is. */
  escape?: (line: string) => string;
  /** In a code block (``` fences), as chat platforms show monospaced text. */
  fence?: boolean;
  /** Decoration of the header line and the rule (a terminal's colours). */
  style?: { head?: (line: string) => string; rule?: (line: string) => string };
  /** Width of a cell when padding: default one per grapheme. */
  measure?: (text: string) => number;
}

const more = (n: number) => `\n…and ${n} more row${n === 1 ? '' : 's'}`;

/** The text of a table within `options.max`, or undefined when there is nothing to show. */
export function tableText(
  columns: readonly string[],
  rows: readonly (readonly string[])[],
  options: TableOptions = {},
): string | undefined {
  if (columns.length === 0 && rows.length === 0) return undefined;
  const {
    max = Infinity,
    cell = tableCell,
    escape = (l: string) => l,
    fence = false,
    style = {},
    measure = width,
  } = options;
  const head = columns.map((c) => cell(c));
  const body = rows.map((r) => r.map((c) => cell(c)));
  // Loops, not Math.max(...rows): a table may have more rows than a call may have arguments.
  const widths = head.map(measure);
  for (const r of body) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, measure(c))));
  const line = (cells: readonly string[]) =>
    escape(
      widths
        .map((w, i) => {
          const c = cells[i] ?? '';
          return c + ' '.repeat(Math.max(0, w - measure(c)));
        })
        .join('  ')
        .trimEnd(),
    );

  const lines = [
    (style.head ?? String)(line(head)),
    (style.rule ?? String)(escape(widths.map((w) => '-'.repeat(w)).join('  '))),
  ];
  const text = (ls: readonly string[]) => (fence ? '```\n' + ls.join('\n') + '\n```' : ls.join('\n'));
  let shown = 0;
  for (const row of body) {
    const left = body.length - shown - 1;
    const next = line(row);
    if (text([...lines, next]).length + (left > 0 ? more(left).length : 0) > max) break;
    lines.push(next);
    shown++;
  }
  const all = text(lines) + (shown < body.length ? more(body.length - shown) : '');
  // A header wider than the room: better a cut table than none.
  return all.length <= max ? all : clampPlain(all, max);
}
