// The well-known UAE communities live with the command language (src/query/known-places.ts): the parser reads them
// as places before filter words, and the query module is pure, so it cannot import from here. Re-exported for
// "did you mean".
export { KNOWN_PLACES, type KnownPlace, type KnownEmirate } from '../query/known-places.js';
