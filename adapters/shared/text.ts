// Text helpers every adapter shares: clamping by characters that never splits one, with an ellipsis when cut, the
// fallback for blank text, and a width for padding columns. Lengths are UTF-16 code units (string.length), never fewer
// than the characters Slack or Discord count; each adapter passes its own limit from its limits table.

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
export const ELLIPSIS = '…';

/** The longest prefix within `max` code units that ends on a grapheme boundary (no half emoji, no lone surrogate). */
export function prefixWithin(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  // The cluster that holds the first code unit past the limit starts at the boundary we want. A little context past
  // the limit is enough to know where that cluster starts; `containing` avoids walking the whole text.
  const cluster = graphemes.segment(text.slice(0, max + 64)).containing(max);
  return text.slice(0, cluster?.index ?? max);
}

export interface ClampOptions {
  /**
   * How the kept part may end, before the ellipsis is added: markup passes a function that also drops what would be
   * left broken (half an entity, a lone escape). Default: trailing white space trimmed.
   */
  end?: (kept: string) => string;
}

const trimEnd = (kept: string) => kept.trimEnd();

/** Cuts text to `max` code units, ending in … when cut. */
export function clamp(text: string, max: number, options: ClampOptions = {}): string {
  if (text.length <= max) return text;
  return (options.end ?? trimEnd)(prefixWithin(text, max - ELLIPSIS.length)) + ELLIPSIS;
}

/** Cuts plain text (no markup to keep whole) to `max` code units, ending in … when cut. */
export function clampPlain(text: string, max: number): string {
  return clamp(text, max);
}

/** Opaque values (tokens, ids) are cut without an ellipsis, still never inside a character. */
export function cutValue(text: string, max: number): string {
  return prefixWithin(text, max);
}

/** Platforms refuse blank text in titles, labels and fields: the text, or `fallback` when it is missing or blank. */
export function orElse(text: string | undefined, fallback: string): string {
  return text !== undefined && text.trim() !== '' ? text : fallback;
}

/** Visual width for padding table columns: one per grapheme. */
export function width(text: string): number {
  let n = 0;
  for (const _ of graphemes.segment(text)) n++;
  return n;
}
