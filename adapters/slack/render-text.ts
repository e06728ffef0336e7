// Text helpers for Block Kit: Slack's mrkdwn escaping, clamping that never splits a character, and safe URLs.
import { SLACK_LIMITS } from './limits.js';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const ELLIPSIS = '…';

/** Slack's rule for mrkdwn: only these three are control characters. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The longest prefix within `max` code units that ends on a grapheme boundary (no half emoji, no lone surrogate). */
function prefixWithin(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  // The cluster that holds the first code unit past the limit starts at the boundary we want. A little context past
  // the limit is enough to know where that cluster starts; `containing` avoids walking the whole text.
  const cluster = graphemes.segment(text.slice(0, max + 64)).containing(max);
  return text.slice(0, cluster?.index ?? max);
}

/** Cuts plain text to `max` code units, ending in … when cut. */
export function clampPlain(text: string, max: number): string {
  if (text.length <= max) return text;
  return prefixWithin(text, max - ELLIPSIS.length).trimEnd() + ELLIPSIS;
}

/** Cuts escaped mrkdwn to `max`, never leaving half an entity (`&am`) behind. */
export function clampMrkdwn(text: string, max: number): string {
  if (text.length <= max) return text;
  return prefixWithin(text, max - ELLIPSIS.length).replace(/&[a-z]{0,3}$/, '').trimEnd() + ELLIPSIS;
}

/** Opaque values (tokens, ids) are cut without an ellipsis, still never inside a character. */
export function cutValue(text: string, max: number): string {
  return text.length <= max ? text : prefixWithin(text, max);
}

/** Slack rejects empty or blank text objects. */
export function orElse(text: string | undefined, fallback: string): string {
  return text !== undefined && text.trim() !== '' ? text : fallback;
}

function parseHttp(url: string, protocols: readonly string[]): URL | undefined {
  try {
    const parsed = new URL(url);
    return protocols.includes(parsed.protocol) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** A URL for a link button or a mrkdwn link, or undefined when it is not http(s) or too long. */
export function linkUrl(url: string | undefined, max: number = SLACK_LIMITS.buttonUrl): string | undefined {
  const parsed = url === undefined ? undefined : parseHttp(url.trim(), ['https:', 'http:']);
  // `<`, `>` and `|` would end a mrkdwn link early; percent-encoded they mean the same URL.
  const href = parsed?.href.replace(/[<>|]/g, encodeURIComponent);
  return href !== undefined && href.length <= max ? href : undefined;
}

/** Slack fetches images itself; anything but https, and WebP, can fail the whole message. */
export function imageUrl(url: string | undefined): string | undefined {
  const parsed = url === undefined ? undefined : parseHttp(url.trim(), ['https:']);
  if (!parsed || parsed.pathname.toLowerCase().endsWith('.webp')) return undefined;
  return parsed.href.length <= SLACK_LIMITS.imageUrl ? parsed.href : undefined;
}

/** `<url|label>` for a URL from linkUrl: the label escaped and stripped of the two characters that would end it early. */
export function mrkdwnLink(url: string, label: string): string {
  return `<${url}|${escapeMrkdwn(orElse(label.replace(/\s*[|>]+\s*/g, ' '), 'Open'))}>`;
}

/** Visual width for padding table columns: one per grapheme. */
export function width(text: string): number {
  let n = 0;
  for (const _ of graphemes.segment(text)) n++;
  return n;
}
