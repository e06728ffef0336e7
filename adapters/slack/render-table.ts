// A table as monospaced mrkdwn: padded columns in a code block, as many rows as fit in one section.
import { SLACK_LIMITS } from './limits.js';
import { clampMrkdwn, clampPlain, escapeMrkdwn, width } from './render-text.js';

/** Long cells would push every row past the section limit. */
const CELL_MAX = 40;
/** Leaves room for the header, the rule and at least one row. */
const LINE_MAX = 900;

const more = (n: number) => `\n…and ${n} more row${n === 1 ? '' : 's'}`;

/** The section text for a table, or undefined when there is nothing to show. */
export function tableText(columns: readonly string[], rows: readonly (readonly string[])[]): string | undefined {
  if (columns.length === 0 && rows.length === 0) return undefined;
  const cell = (s: string | undefined) => clampPlain((s ?? '').replace(/\s+/g, ' '), CELL_MAX);
  const head = columns.map(cell);
  const body = rows.map((r) => r.map(cell));
  // Loops, not Math.max(...rows): a table may have more rows than a call may have arguments.
  const widths = head.map(width);
  for (const r of body) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, width(c))));
  const line = (cells: readonly string[]) => {
    const padded = widths.map((w, i) => {
      const c = cells[i] ?? '';
      return c + ' '.repeat(w - width(c));
    });
    return clampMrkdwn(escapeMrkdwn(padded.join('  ').trimEnd()), LINE_MAX);
  };

  const lines = [line(head), clampMrkdwn(widths.map((w) => '-'.repeat(w)).join('  '), LINE_MAX)];
  const fenced = (ls: readonly string[]) => '```\n' + ls.join('\n') + '\n```';
  let shown = 0;
  for (const row of body) {
    const next = [...lines, line(row)];
    const left = body.length - shown - 1;
    if (fenced(next).length + (left > 0 ? more(left).length : 0) > SLACK_LIMITS.sectionText) break;
    lines.push(line(row));
    shown++;
  }
  return fenced(lines) + (shown < body.length ? more(body.length - shown) : '');
}
