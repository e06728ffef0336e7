// The command language: text -> Query -> parameters, summaries, canonical text and help. Pure: no I/O.
export type { Query, ParseResult } from './types.js';
export { parseCommand } from './parse.js';
export { parseToJson, toParams, withPage } from './params.js';
export { summarize } from './summarize.js';
export { formatQuery } from './format.js';
export { helpText, VERBS } from './help.js';
