// Link and image checks every adapter shares: what may become a link, what a platform may fetch as an image, and how an
// address is shown inert (as text to read, not follow). Which hosts may be linked is the core's call (views/parts:
// a listing's page off the known portals reaches an adapter as an `inert` field); the adapters check form and length.
import { clampPlain, orElse } from './text.js';

function parse(url: string | undefined, protocols: readonly string[]): URL | undefined {
  if (url === undefined) return undefined;
  try {
    const parsed = new URL(url.trim());
    return protocols.includes(parsed.protocol) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export interface LinkOptions {
  /** The longest URL the platform takes here. */
  max: number;
  /** Characters of the URL that would end the platform's link markup early, percent-encoded (the same URL). */
  encode?: RegExp;
}

/** A URL for a link (a button, a linked title), or undefined when it is not http(s) or too long. */
export function linkUrl(url: string | undefined, options: LinkOptions): string | undefined {
  const href = parse(url, ['https:', 'http:'])?.href;
  const encoded = options.encode && href !== undefined ? href.replace(options.encode, encodeURIComponent) : href;
  return encoded !== undefined && encoded.length <= options.max ? encoded : undefined;
}

export interface ImageOptions {
  /** The longest image URL the platform takes. */
  max: number;
  /** File endings the platform fails to show, lower case with the dot (Slack: `.webp` can fail the whole message). */
  refuse?: readonly string[];
}

/** An image URL the platform may fetch itself: https only, never plain http, within `max`; else undefined. */
export function imageUrl(url: string | undefined, options: ImageOptions): string | undefined {
  const parsed = parse(url, ['https:']);
  if (!parsed) return undefined;
  const path = parsed.pathname.toLowerCase();
  if (options.refuse?.some((ending) => path.endsWith(ending))) return undefined;
  return parsed.href.length <= options.max ? parsed.href : undefined;
}

export interface InertOptions {
  /**
   * Characters percent-encoded in the value: at least the backtick (inline code has no escape), and whatever else the
   * platform would still read as markup inside code (Slack: `<`, `>`, `|` and white space).
   */
  encode: RegExp;
  /** The platform's escaping of the code's text, where it has one. */
  escape?: (text: string) => string;
  /** The most characters the whole code span may take, backticks included. */
  max?: number;
}

/**
 * An address to read, not follow: inline code, which no platform turns into a link, with the characters that would
 * end the code or start a link percent-encoded. A blank value shows as —.
 */
export function inertCode(value: string, options: InertOptions): string {
  const encoded = orElse(value, '—').replace(options.encode, encodeURIComponent);
  const kept = options.max === undefined ? encoded : clampPlain(encoded, options.max - 2);
  return `\`${options.escape ? options.escape(kept) : kept}\``;
}
