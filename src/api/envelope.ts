// Reading the service's JSON envelope into validated records, tolerantly:
// a record that cannot be understood is dropped and counted, never fatal to the page.
import type { OperationSpec } from './operations.js';

export interface Envelope {
  records: unknown[];
  dropped: number;
  /** ADREC's `message`, and the nested transactions' summary and paging when present. */
  message?: string;
  summary?: Record<string, unknown>;
  totalItems?: number;
  totalPages?: number;
  /** True when the service sent `data: null` (read as no records): an answer not worth caching. */
  dataNull?: true;
}

export type EnvelopeProblem = { problem: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Transactions arrive flat (`data: [...]`) or nested (`data.data.attributes.transactions`). */
function unwrapNested(data: unknown): { rows: unknown[]; extra: Partial<Envelope> } | undefined {
  if (!isObject(data) || !isObject(data.data) || !isObject(data.data.attributes)) return undefined;
  const attrs = data.data.attributes;
  if (!Array.isArray(attrs.transactions)) return undefined;
  const extra: Partial<Envelope> = {};
  if (isObject(attrs.summary)) extra.summary = attrs.summary;
  if (typeof attrs.total_items === 'number') extra.totalItems = attrs.total_items;
  if (typeof attrs.total_pages === 'number') extra.totalPages = attrs.total_pages;
  return { rows: attrs.transactions, extra };
}

export function readEnvelope(spec: OperationSpec, json: unknown): Envelope | EnvelopeProblem {
  if (!isObject(json)) return { problem: 'the answer is not a JSON object' };
  if (!('data' in json)) return { problem: 'the answer has no "data"' };
  const message = typeof json.message === 'string' ? json.message : undefined;
  let rows: unknown[];
  let extra: Partial<Envelope> = {};
  if (spec.shape === 'one') {
    if (!isObject(json.data)) return { problem: 'expected one record in "data"' };
    rows = [json.data];
  } else if (Array.isArray(json.data)) {
    rows = json.data;
  } else if (json.data === null) {
    rows = [];
    extra = { dataNull: true };
  } else {
    const nested = unwrapNested(json.data);
    if (!nested) return { problem: 'expected a list in "data"' };
    rows = nested.rows;
    extra = nested.extra;
  }
  const records: unknown[] = [];
  let dropped = 0;
  for (const row of rows) {
    const parsed = spec.record.safeParse(row);
    if (parsed.success) records.push(parsed.data);
    else dropped++;
  }
  return { records, dropped, ...(message !== undefined ? { message } : {}), ...extra };
}
