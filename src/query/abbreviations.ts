// The short forms of well-known areas: "jbr", "J.B.R", "difc", "mbr city", "dip 1". Derived from the shipped list
// (known-areas.ts), so an area added there with its initials is known by them too. The location lookup uses them to
// search the area whether the service names it by the short form ("DIFC"), in full ("Jumeirah Lake Towers") or both
// ("Jumeirah Beach Residence (JBR)").
import { KNOWN_AREAS, type KnownArea } from './known-areas.js';

/**
 * Lower case, dots and apostrophes inside a word dropped ("J.B.R." is "jbr", "Za'abeel" "zaabeel"), other symbols
 * spaces.
 */
export const foldAreaName = (text: string): string =>
  text
    .toLowerCase()
    .replace(/['’.]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .join(' ');

const wordsOf = (text: string) => foldAreaName(text).split(' ').filter(Boolean);

/** Short forms that are not initials of the area's words: "dhcc" (Dubai HealthCare City), "d3", "dwtc", "tecom". */
const NOT_INITIALS = new Set(['dhcc', 'd3', 'dwtc', 'tecom']);

/** Short forms people type that are not initials, kept from the resolver's first table. */
const SHORT_FORMS = new Set(['the palm', 'dubai hills']);

/** The initials of words, a number kept whole: "Arabian Ranches 2" -> "ar2". */
const initials = (words: readonly string[]) => words.map((w) => (/^\d+$/.test(w) ? w : w[0])).join('');

/**
 * True when `word` abbreviates the area: the initials (or their start, "mbz" of Mohammed Bin Zayed City) of its name
 * or of another of its spellings, and no word of those.
 */
function abbreviates(word: string, area: KnownArea): boolean {
  if (NOT_INITIALS.has(word)) return true;
  if (word.length < 2 || !/^[a-z]+\d*$/.test(word)) return false;
  const forms = [area.name, ...area.spellings].map(wordsOf);
  return forms.some((f) => f.length >= 2 && !f.includes(word) && initials(f).startsWith(word));
}

export interface AreaAbbreviation {
  /** The short form, folded: "jbr", "mbr city". */
  readonly form: string;
  readonly area: KnownArea;
  /** Its words that are initials ("mbr" of "mbr city"): a name may carry them in brackets. */
  readonly initials: readonly string[];
}

function derive(): Map<string, AreaAbbreviation> {
  const out = new Map<string, AreaAbbreviation>();
  for (const area of KNOWN_AREAS) {
    for (const form of [area.name, ...area.spellings]) {
      const words = wordsOf(form);
      const short = words.filter((w) => abbreviates(w, area));
      const key = words.join(' ');
      if (short.length === 0 && !SHORT_FORMS.has(key)) continue;
      // The first place keeps a form two share; none do today (a test says so).
      if (!out.has(key)) out.set(key, { form: key, area, initials: short });
    }
  }
  return out;
}

/** Every short form the language knows, by its folded text. */
export const AREA_ABBREVIATIONS: ReadonlyMap<string, AreaAbbreviation> = derive();

/** The short form typed, whatever its case and punctuation ("J.B.R", "Jbr"), or undefined. */
export const abbreviationOf = (typed: string): AreaAbbreviation | undefined =>
  AREA_ABBREVIATIONS.get(foldAreaName(typed));
