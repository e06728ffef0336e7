// Discord's markup for text: markdown escaping, clamping that never leaves a dangling escape, code-safe table cells,
// and
// the link and image checks with Discord's limits. Clamping, blanks and URL checks themselves are shared
// (adapters/shared).
import { escapeMarkdown } from 'discord.js';
import { imageUrl as httpsImage, linkUrl as httpLink } from '../shared/links.js';
import { clamp, clampPlain } from '../shared/text.js';
import { DISCORD_LIMITS } from './limits.js';

// Autocomplete clamps its choices with this module's clampPlain.
export { clampPlain };

/**
 * Plain text as Discord markdown that shows that text: `*`, `_`, `~`, `|`, `>`, headings, lists and masked links
 * escaped. Inline `code` is kept, as Slack shows it: the core writes commands that way (`/alerts list`).
 */
export function escapeText(text: string): string {
  // escapeMarkdown leaves masked-link brackets and list/heading starts alone by default; escaped too, so nothing a
  // listing says can turn into a heading, a list or a link that hides where it leads.
  return escapeMarkdown(text, {
    heading: true,
    bulletedList: true,
    numberedList: true,
    maskedLink: true,
    inlineCode: false,
    inlineCodeContent: false,
  });
}

/**
 * Plain text as escaped markdown within `max` characters. Cut before escaping too (escaping only adds characters), so
 * a long listing description costs no more than what can be shown.
 */
export function markdown(text: string, max: number): string {
  return clampMarkdown(escapeText(clampPlain(text, max)), max);
}

/** The cut text without a lone backslash at its end (an odd run of them is an escape with nothing left to escape). */
function withoutLoneEscape(kept: string): string {
  const cut = kept.trimEnd();
  const slashes = /\\+$/.exec(cut)?.[0].length ?? 0;
  return slashes % 2 === 1 ? cut.slice(0, -1) : cut;
}

/** Cuts escaped markdown to `max`, never ending on a lone backslash (which would escape the ellipsis). */
export function clampMarkdown(text: string, max: number): string {
  return clamp(text, max, { end: withoutLoneEscape });
}

/** A zero-width space: the "empty" field name Discord accepts. */
export const BLANK = '\u200b';

/** An embed's title link or a link button's URL: http(s) and not too long, else undefined. */
export function linkUrl(url: string | undefined, max: number = DISCORD_LIMITS.url): string | undefined {
  return httpLink(url, { max });
}

/** Discord shows embed images only from https; anything else is left out. */
export function imageUrl(url: string | undefined): string | undefined {
  return httpsImage(url, { max: DISCORD_LIMITS.url });
}

/** Text inside a code block: only a backtick could end the block early; a look-alike keeps the table readable. */
export function codeSafe(text: string): string {
  return text.replace(/`/g, 'ˋ');
}
