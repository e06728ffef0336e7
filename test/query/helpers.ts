import { expect } from 'vitest';
import { parseCommand, type Query } from '../../src/query/index.js';

/** Parses and fails the test with the parser's own message when the text is refused. */
export function parsed(text: string): Query {
  const result = parseCommand(text);
  if (!result.ok) expect.fail(`"${text}" was refused: ${result.error}`);
  return result.query;
}

/** A row of a table: the text, and what must be understood. */
export type Row = [text: string, operation: string, params: Record<string, string>, location?: string | null];

export function expectRow([text, operation, params, location]: Row): void {
  const q = parsed(text);
  expect({ operation: q.operation, params: q.params }).toEqual({ operation, params });
  if (location !== undefined) expect(q.location).toBe(location);
}
