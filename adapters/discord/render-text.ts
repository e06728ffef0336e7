// Text helpers for Discord: markdown escaping, clamping that never splits a character or leaves a dangling escape,
// and the URLs Discord accepts (links http(s), images https only).
import { escapeMarkdown } from 'discord.js';
import { DISCORD_LIMITS } from './limits.js';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const ELLIPSIS = '…';

/**
 * Plain text as Discord markdown that shows that text: `*`, `_`, `~`, `|`, `>`, headings, lists and masked links
 * escaped. Inline `code` is kept, as Slack shows it: the core writes commands that way (`/alerts list`).
 */
export function escapeText(text: string): string {
  // escapeMarkdown leaves masked-link brackets and list/heading starts alone by default; escaped too, so nothing a
  // listing says can turn into a heading, a list or a link that hides where it leads.
  return escapeMarkdown(text, { heading: true, bulletedList: true, numberedList: true, maskedLink: true, inlineCode: false, inlineCodeContent: false });
}

/**
 * Plain text as escaped markdown within `max` characters. Cut before escaping too (escaping only adds characters), so
 * a long listing description costs no more than what can be shown.
 */
export function markdown(text: string, max: number): string {
  return clampMarkdown(escapeText(clampPlain(text, max)), max);
}

/** The longest prefix within `max` code units that ends on a grapheme boundary. */
function prefixWithin(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  const cluster = graphemes.segment(text.slice(0, max + 64)).containing(max);
  return text.slice(0, cluster?.index ?? max);
}

/** Cuts text to `max` code units, ending in … when cut. */
export function clampPlain(text: string, max: number): string {
  if (text.length <= max) return text;
  return prefixWithin(text, max - ELLIPSIS.length).trimEnd() + ELLIPSIS;
}

/** Cuts escaped markdown to `max`, never ending on a lone backslash (which would escape the ellipsis). */
export function clampMarkdown(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = prefixWithin(text, max - ELLIPSIS.length).trimEnd();
  // An odd run of trailing backslashes ends in an escape with nothing left to escape.
  const slashes = /\\+$/.exec(cut)?.[0].length ?? 0;
  if (slashes % 2 === 1) cut = cut.slice(0, -1);
  return cut + ELLIPSIS;
}

/** Blank text is refused by Discord in titles, field names and values, labels and footers. */
export function orElse(text: string | undefined, fallback: string): string {
  return text !== undefined && text.trim() !== '' ? text : fallback;
}

/** A zero-width space: the "empty" field name Discord accepts. */
export const BLANK = '\u200b';

function parse(url: string | undefined, protocols: readonly string[]): URL | undefined {
  if (url === undefined) return undefined;
  try {
    const parsed = new URL(url.trim());
    return protocols.includes(parsed.protocol) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** An embed's title link or a link button's URL: http(s) and not too long, else undefined. */
export function linkUrl(url: string | undefined, max: number = DISCORD_LIMITS.url): string | undefined {
  const href = parse(url, ['https:', 'http:'])?.href;
  return href !== undefined && href.length <= max ? href : undefined;
}

/** Discord shows embed images only from https; anything else is left out. */
export function imageUrl(url: string | undefined): string | undefined {
  const href = parse(url, ['https:'])?.href;
  return href !== undefined && href.length <= DISCORD_LIMITS.url ? href : undefined;
}

/** Text inside a code block: only a backtick could end the block early; a look-alike keeps the table readable. */
export function codeSafe(text: string): string {
  return text.replace(/`/g, 'ˋ');
}

/** Visual width for padding table columns: one per grapheme. */
export function width(text: string): number {
  let n = 0;
  for (const _ of graphemes.segment(text)) n++;
  return n;
}
