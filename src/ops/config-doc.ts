// docs/configuration.md's table of variables, generated from the code: the names and defaults from config.ts's schema,
// the words from config-reference.ts. `manzil config-doc [file]` writes it between the markers and keeps the prose
// around them; test/docs/configuration.test.ts fails when the doc and the code disagree.
import { readFileSync, writeFileSync } from 'node:fs';
import { ENV_VARIABLES, envDefaults, isSecretVariable } from '../config.js';
import { OTHER_NOTES, SCHEMA_NOTES } from '../config-reference.js';

export const TABLE_START = '<!-- config:start -->';
export const TABLE_END = '<!-- config:end -->';
const DEFAULT_FILE = 'docs/configuration.md';

export interface VariableRow {
  name: string;
  /** As the doc shows it. */
  default: string;
  /** Masked by `manzil config` and never echoed: all of it, part of it (a URL's password), or none. */
  secret: 'yes' | 'its password' | 'no';
  part: string;
  meaning: string;
}

/** A default as the doc shows it: a number as it is, a word in code, a flag as on or off. */
export function shownDefault(value: unknown): string {
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (typeof value === 'number') return String(value);
  return `\`${String(value)}\``;
}

/**
 * Every variable Manzil reads: the schema's, in its order, then those read outside it. Throws when a variable of the
 * schema has no words in config-reference.ts, or words are kept for one it no longer has (a rename).
 */
export function variableRows(): VariableRow[] {
  const missing = ENV_VARIABLES.filter((name) => !Object.hasOwn(SCHEMA_NOTES, name));
  const gone = Object.keys(SCHEMA_NOTES).filter((name) => !ENV_VARIABLES.includes(name));
  if (missing.length > 0 || gone.length > 0) {
    throw new Error(
      [
        missing.length > 0 ? `${missing.join(', ')}: in config.ts's schema but not in src/config-reference.ts` : '',
        gone.length > 0 ? `${gone.join(', ')}: in src/config-reference.ts but not in config.ts's schema` : '',
      ]
        .filter(Boolean)
        .join('; '),
    );
  }
  const defaults = envDefaults();
  const fromSchema = ENV_VARIABLES.map((name): VariableRow => {
    const note = SCHEMA_NOTES[name]!;
    const value = defaults[name];
    return {
      name,
      default: value === undefined ? (note.unset ?? '(none)') : shownDefault(value),
      secret: isSecretVariable(name) ? 'yes' : name === 'DATABASE_URL' ? 'its password' : 'no',
      part: note.part,
      meaning: note.meaning,
    };
  });
  const others = Object.entries(OTHER_NOTES).map(([name, note]): VariableRow => ({
    name,
    default: note.unset,
    secret: 'no',
    part: note.part,
    meaning: note.meaning,
  }));
  return [...fromSchema, ...others];
}

const cell = (text: string) => text.replaceAll('|', '\\|');

/** The Markdown table, one row per variable. */
export function variableTable(rows: readonly VariableRow[] = variableRows()): string {
  return [
    '| Variable | Default | Secret | Read by | Meaning |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| \`${r.name}\` | ${cell(r.default)} | ${r.secret} | ${cell(r.part)} | ${cell(r.meaning)} |`),
  ].join('\n');
}

/** `doc` with `table` between its markers, the rest as it was; undefined when the markers are missing. */
export function withTable(doc: string, table: string): string | undefined {
  const start = doc.indexOf(TABLE_START);
  const end = doc.indexOf(TABLE_END);
  if (start < 0 || end < start) return undefined;
  return `${doc.slice(0, start + TABLE_START.length)}\n${table}\n${doc.slice(end)}`;
}

/** `manzil config-doc [file]`: rewrites the table in docs/configuration.md (or `file`); 0, or 1 with the reason. */
export function runConfigDocCli(args: string[], out: (line: string) => void, errLine: (line: string) => void): number {
  if (args.length > 1 || args.some((a) => a.startsWith('-'))) {
    errLine('Usage: manzil config-doc [file]  (default: docs/configuration.md)');
    return 2;
  }
  const file = args[0] ?? DEFAULT_FILE;
  let doc: string;
  try {
    doc = readFileSync(file, 'utf8');
  } catch (e) {
    errLine(`manzil config-doc: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
    return 1;
  }
  let rows: VariableRow[];
  try {
    rows = variableRows();
  } catch (e) {
    errLine(`manzil config-doc: ${(e as Error).message}`);
    return 1;
  }
  const next = withTable(doc, variableTable(rows));
  if (next === undefined) {
    errLine(`manzil config-doc: ${file} has no ${TABLE_START} … ${TABLE_END} markers: put them where the table goes`);
    return 1;
  }
  if (next === doc) {
    out(`${file}: the table of ${rows.length} variables is up to date`);
    return 0;
  }
  writeFileSync(file, next);
  out(`${file}: wrote the table of ${rows.length} variables`);
  return 0;
}
