// A table as Slack's data_table block (sortable, in pages): the header row and as many rows as the block's limits and
// the message's share of table characters allow. A number cell goes as raw_number (sorted as a number, shown as
// written); the rest as raw_text. A table that cannot fit even one row is drawn as text by the caller.
import type { DataTableBlock, RawNumberElement, RawTextElement } from '@slack/types';
import { clampPlain, orElse } from '../shared/text.js';
import { tableCell } from '../shared/table.js';
import { SLACK_LIMITS as L } from './limits.js';

/** Rows shown on one page of the table; Slack pages the rest. */
const PAGE_SIZE = 10;
/** The caption is read by screen readers, not shown: a line is plenty. */
const CAPTION_MAX = 150;

type Cell = RawTextElement | RawNumberElement;

/** `AED 1,250,000`, `+3.5%`, `1,100 sqft`, `2`: the number it shows, or undefined for words and dates. */
function cellNumber(text: string): number | undefined {
  const m = /^(?:AED\s*)?([+\-−]?)(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*(%|sqft|sqm|\/yr|\/sqft)?$/i.exec(text.trim());
  if (!m) return undefined;
  const n = Number(`${m[1] === '−' ? '-' : m[1]}${m[2]!.replace(/,/g, '')}${m[3] ?? ''}`);
  return Number.isFinite(n) ? n : undefined;
}

function cell(text: string | undefined, header: boolean): Cell {
  const shown = orElse(tableCell(text), '—');
  const value = header ? undefined : cellNumber(shown);
  return value === undefined ? { type: 'raw_text', text: shown } : { type: 'raw_number', value, text: shown };
}

const length = (row: readonly Cell[]) => row.reduce((n, c) => n + c.text.length, 0);

export interface DataTable {
  block: DataTableBlock;
  /** Rows left out (over 100, or over the characters left); the caller says how many. */
  left: number;
  /** Characters the block's cells take, counted against the message's share. */
  characters: number;
}

/**
 * The table as a data_table within `budget` characters of cells, or undefined when not one row fits (or it has
 * none).
 */
export function dataTable(
  caption: string,
  columns: readonly string[],
  rows: readonly (readonly string[])[],
  budget: number,
): DataTable | undefined {
  // Every row as wide as the widest (a loop: a table may have more rows than a call may have arguments).
  let widest = Math.max(columns.length, 1);
  for (const r of rows) widest = Math.max(widest, r.length);
  const width = Math.min(L.tableColumns, widest);
  const header = Array.from({ length: width }, (_, i) => cell(columns[i], true));
  let used = length(header);
  const body: Cell[][] = [];
  for (const row of rows.slice(0, L.tableRows)) {
    const cells = Array.from({ length: width }, (_, i) => cell(row[i], false));
    if (used + length(cells) > Math.min(budget, L.tableCharacters)) break;
    used += length(cells);
    body.push(cells);
  }
  if (body.length === 0) return undefined;
  return {
    block: {
      type: 'data_table',
      caption: clampPlain(orElse(caption, orElse(columns.join(', '), 'Table')), CAPTION_MAX),
      rows: [header, ...body],
      page_size: Math.min(PAGE_SIZE, body.length, L.tablePageSize),
    },
    left: rows.length - body.length,
    characters: used,
  };
}
