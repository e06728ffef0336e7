// Small pieces shared by the cards: fields that leave out missing values, safe links and images.
import type { Field } from './model.js';

/** Fields from label/value pairs, leaving out the ones with no value. */
export function fields(...pairs: readonly (readonly [string, string | undefined])[]): Field[] {
  return pairs.flatMap(([label, value]) => (value !== undefined && value.trim() !== '' ? [{ label, value }] : []));
}

/** The first candidate that is an http(s) URL; renderers cannot use anything else. */
export function httpUrl(...candidates: readonly unknown[]): string | undefined {
  for (const candidate of candidates) {
    if (typeof candidate !== 'string') continue;
    try {
      const url = new URL(candidate.trim());
      if (url.protocol === 'https:' || url.protocol === 'http:') return url.href;
    } catch {
      // Not a URL: try the next candidate.
    }
  }
  return undefined;
}

export function firstImage(images: readonly unknown[] | null | undefined): string | undefined {
  return httpUrl(...(images ?? []));
}

/** Trimmed text, or undefined when empty or not text. */
export function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** Only the properties with a value, so an optional Card property is absent rather than undefined. */
export function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
