// The well-known UAE communities live with the command language (src/query/known-areas.ts): the parser reads them
// as areas before filter words, and the query module is pure, so it cannot import from here. Re-exported for
// "did you mean".
export { KNOWN_AREAS, type KnownArea, type KnownEmirate } from '../query/known-areas.js';
