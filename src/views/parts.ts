// Small pieces shared by the cards: fields that leave out missing values, safe links and images.
import type { Field } from './model.js';

/**
 * Fields from label/value pairs, leaving out the ones with no value; a third element `'inert'` marks an address shown
 * as text.
 */
export function fields(...pairs: readonly (readonly [string, string | undefined, 'inert'?])[]): Field[] {
  return pairs.flatMap(([label, value, inert]): Field[] =>
    value !== undefined && value.trim() !== '' ? [inert ? { label, value, inert: true } : { label, value }] : [],
  );
}

/**
 * The first candidate that is an https URL: renderers link and load nothing else (plain http would leak and can be
 * altered).
 */
export function httpsUrl(...candidates: readonly unknown[]): string | undefined {
  for (const candidate of candidates) {
    const url = parsedUrl(candidate);
    if (url?.protocol === 'https:') return url.href;
  }
  return undefined;
}

function parsedUrl(candidate: unknown): URL | undefined {
  if (typeof candidate !== 'string') return undefined;
  try {
    return new URL(candidate.trim());
  } catch {
    return undefined; // not a URL
  }
}

export function firstImage(images: readonly unknown[] | null | undefined): string | undefined {
  return httpsUrl(...(images ?? []));
}

/**
 * Sites the property service links listings and projects to (its portals), and the local sandbox. A link button is an
 * endorsement a person clicks without reading; an address elsewhere is still shown, as text they can judge.
 */
export const LISTING_LINK_HOSTS: readonly string[] = [
  'propertyfinder.ae',
  'bayut.com',
  'dubizzle.com',
  'sandbox-manzil.example',
];

/**
 * The host itself or a subdomain of it (`www.bayut.com`, `dubai.dubizzle.com`), never a look-alike (`evilbayut.com`).
 */
export function isListingHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return LISTING_LINK_HOSTS.some((allowed) => host === allowed || host.endsWith(`.${allowed}`));
}

/**
 * A listing's (or project's) public page: `linked` when it may become a link button, else the address is for showing as
 * text.
 */
export interface ListingLink {
  readonly url: string;
  readonly linked: boolean;
}

const linkable = (url: URL) =>
  url.protocol === 'https:' && url.username === '' && url.password === '' && isListingHost(url.hostname);

/**
 * The first candidate that may be a link button (https on a known portal); failing that, the first http(s) address, as
 * text.
 */
export function listingLink(...candidates: readonly unknown[]): ListingLink | undefined {
  const urls = candidates.map(parsedUrl).filter((u): u is URL => u?.protocol === 'https:' || u?.protocol === 'http:');
  const linked = urls.find(linkable);
  if (linked) return { url: linked.href, linked: true };
  return urls[0] && { url: urls[0].href, linked: false };
}

/** A field that shows an address not trusted enough for a button, shortened: it is there to be read, not followed. */
export const LINK_FIELD = 'Link';
export const LINK_TEXT_MAX = 200;

/** Trimmed text, or undefined when empty or not text. */
export function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** Only the properties with a value, so an optional Card property is absent rather than undefined. */
export function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
