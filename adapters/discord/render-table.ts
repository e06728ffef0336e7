// A table as a monospaced code block for an embed's description: padded columns, as many rows as fit.
import { clampPlain, codeSafe, width } from './render-text.js';

/** Long cells would push every row off a phone's screen. */
const CELL_MAX = 40;

const more = (n: number) => `\n…and ${n} more row${n === 1 ? '' : 's'}`;

/** The description text for a table within `max` characters, or undefined when there is nothing to show. */
export function tableText(columns: readonly string[], rows: readonly (readonly string[])[], max: number): string | undefined {
  if (columns.length === 0 && rows.length === 0) return undefined;
  const cell = (s: string | undefined) => codeSafe(clampPlain((s ?? '').replace(/\s+/g, ' '), CELL_MAX));
  const head = columns.map(cell);
  const body = rows.map((r) => r.map(cell));
  // Loops, not Math.max(...rows): a table may have more rows than a call may have arguments.
  const widths = head.map(width);
  for (const r of body) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, width(c))));
  const line = (cells: readonly string[]) =>
    widths.map((w, i) => {
      const c = cells[i] ?? '';
      return c + ' '.repeat(Math.max(0, w - width(c)));
    }).join('  ').trimEnd();

  const lines = [line(head), widths.map((w) => '-'.repeat(w)).join('  ')];
  const fenced = (ls: readonly string[]) => '```\n' + ls.join('\n') + '\n```';
  let shown = 0;
  for (const row of body) {
    const left = body.length - shown - 1;
    if (fenced([...lines, line(row)]).length + (left > 0 ? more(left).length : 0) > max) break;
    lines.push(line(row));
    shown++;
  }
  const text = fenced(lines) + (shown < body.length ? more(body.length - shown) : '');
  // A header wider than the room left: better a cut table than none.
  return text.length <= max ? text : clampPlain(text, max);
}
