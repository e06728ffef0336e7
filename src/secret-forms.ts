// Every form a secret's value can take in text that leaves the process, so that masking catches each one, not only
// the value as configured. Character by character, a secret may appear:
// - as it is, JSON-escaped (a log line is JSON), or JSON-escaped twice (a JSON body quoted inside a message);
// - percent-encoded as in a URL: wholly or partly (a URL's userinfo leaves `+` alone but encodes `/` and `=`), in
//   either
//   hex case, or encoded twice (`%252F`, a URL inside a URL), a space as `+` (form encoding);
// - a character outside ASCII's letters and digits as `\uXXXX` (some JSON encoders escape everything).
// Any mix of these forms within one value is matched. An encryption key is, besides, the same 32 bytes in its other
// spellings (hex in either case, base64, base64url): see keySpellings.
import { parseKey } from './store/sealing.js';

/** Shorter "secrets" are not masked: a 1-3 character value would blank out half the log. */
export const MIN_SECRET_LENGTH = 4;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** A hex digit matched in either case. */
const hexDigit = (d: string) => (/[a-f]/i.test(d) ? `[${d.toLowerCase()}${d.toUpperCase()}]` : d);
const hexBytes = (value: number, width: number) => [...value.toString(16).padStart(width, '0')].map(hexDigit).join('');

/** The forms one character can take, as a regular expression. */
function characterForms(ch: string): string {
  const forms = new Set<string>([escapeRegExp(ch)]);
  const json = JSON.stringify(ch).slice(1, -1);
  if (json !== ch) {
    forms.add(escapeRegExp(json));
    forms.add(escapeRegExp(JSON.stringify(json).slice(1, -1)));
  }
  // Percent-encoded UTF-8 bytes, optionally encoded a second time (`%` itself as `%25`).
  forms.add([...Buffer.from(ch, 'utf8')].map((b) => `%(?:25)?${hexBytes(b, 2)}`).join(''));
  if (ch === ' ') forms.add('\\+');
  if (!/[A-Za-z0-9]/.test(ch)) {
    // `\u002f` (one backslash, or two when that text is itself JSON-escaped); a character beyond the BMP as its pair.
    const units = [...Array(ch.length).keys()].map((i) => `\\\\{1,2}u${hexBytes(ch.charCodeAt(i), 4)}`).join('');
    forms.add(units);
  }
  return forms.size === 1 ? [...forms][0]! : `(?:${[...forms].join('|')})`;
}

/** One secret's every form, as a regular expression's source. */
function secretSource(secret: string): string {
  return [...secret].map(characterForms).join('');
}

/**
 * A pattern that matches any form of any of `secrets` (4 or more characters), longest first so that a secret that
 * contains another is masked whole; undefined when there is nothing to mask.
 */
export function secretPattern(secrets: readonly (string | undefined)[]): RegExp | undefined {
  const unique = [
    ...new Set(secrets.filter((s): s is string => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH)),
  ];
  if (unique.length === 0) return undefined;
  unique.sort((a, b) => b.length - a.length);
  return new RegExp(unique.map(secretSource).join('|'), 'g');
}

/** The other spellings of an encryption key's 32 bytes (the key as given is masked anyway). */
export function keySpellings(text: string | undefined): string[] {
  const key = text === undefined ? undefined : parseKey(text);
  if (!key) return [];
  const hex = key.toString('hex');
  const base64 = key.toString('base64');
  return [hex, hex.toUpperCase(), base64, base64.replace(/=+$/, ''), key.toString('base64url')];
}

/**
 * The password of a database URL, as written and decoded. Read the way a URL parser reads it and, should the URL not
 * parse as intended (an unencoded `/` or `#` in the password), as everything between the user's `:` and the last `@`.
 */
export function urlPasswords(url: string | undefined): string[] {
  if (!url) return [];
  const written = new Set<string>();
  try {
    written.add(new URL(url).password);
  } catch {
    // Not a URL to the parser: the pattern below still finds the password.
  }
  const userinfo = /^[a-z][a-z0-9+.-]*:\/\/[^/?#@:]*:(.*)@[^@]*$/is.exec(url.trim());
  if (userinfo) written.add(userinfo[1]!);
  const out = new Set<string>();
  for (const raw of written) {
    if (!raw) continue;
    out.add(raw);
    try {
      out.add(decodeURIComponent(raw));
    } catch {
      // A malformed escape (`%zz`): the password is masked as written.
    }
  }
  return [...out];
}
