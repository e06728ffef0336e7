// Slack's markup for text: mrkdwn escaping, clamping that never leaves half an entity, mrkdwn links, and the link and
// image checks with Slack's limits. Clamping, blanks and URL checks themselves are shared (adapters/shared).
import { imageUrl as httpsImage, linkUrl as httpLink } from '../shared/links.js';
import { clamp, orElse } from '../shared/text.js';
import { SLACK_LIMITS } from './limits.js';

/** Slack's rule for mrkdwn: only these three are control characters. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Cuts escaped mrkdwn to `max`, never leaving half an entity (`&am`) behind. */
export function clampMrkdwn(text: string, max: number): string {
  return clamp(text, max, { end: (kept) => kept.replace(/&[a-z]{0,3}$/, '').trimEnd() });
}

/** `<`, `>` and `|` would end a mrkdwn link early; percent-encoded they mean the same URL. */
const LINK_BREAKERS = /[<>|]/g;

/** A URL for a link button or a mrkdwn link, or undefined when it is not http(s) or too long. */
export function linkUrl(url: string | undefined, max: number = SLACK_LIMITS.buttonUrl): string | undefined {
  return httpLink(url, { max, encode: LINK_BREAKERS });
}

/** Slack fetches images itself; anything but https, and WebP, can fail the whole message. */
export function imageUrl(url: string | undefined): string | undefined {
  return httpsImage(url, { max: SLACK_LIMITS.imageUrl, refuse: ['.webp'] });
}

/**
 * `<url|label>` for a URL from linkUrl: the label escaped and stripped of the two characters that would end it early.
 */
export function mrkdwnLink(url: string, label: string): string {
  return `<${url}|${escapeMrkdwn(orElse(label.replace(/\s*[|>]+\s*/g, ' '), 'Open'))}>`;
}
