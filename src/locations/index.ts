// Location words ("marina") -> a location_id, through /autocomplete-location, cached.
// Picks the best match (exact name, then the one community the others sit inside) and otherwise returns
// the choices, so chat can ask "Did you mean".
import type { Location } from '../api/records.js';
import { budgetLowFrom } from './budget.js';
import { complete, narrow } from './prefix-filter.js';

export { AUTOCOMPLETE_CAP, nameMatches } from './prefix-filter.js';
export { budgetLowFrom, SUGGESTION_RESERVE } from './budget.js';

/** The one call the resolver needs; ApiClient satisfies it. */
export interface LocationLookup {
  /** `dataNull`: the service sent `data: null`, which is read as no records but never cached. */
  call(operation: 'autocomplete-location', params: { query: string }): Promise<{ records: Location[]; dataNull?: boolean }>;
  /**
   * True when calls are scarce: suggestions then answer from the cache only. When absent, it is derived from
   * a `budgetLeft()` method if the object has one (ApiClient).
   */
  budgetLow?: () => boolean;
}

export interface ResolverOptions {
  /** How long an answer with no locations is kept: a new place may appear, and a typo should not stick for a week. */
  emptyTtlMs?: number;
}

/** Ten minutes, not a week: see ResolverOptions.emptyTtlMs. */
export const EMPTY_ANSWER_TTL_MS = 10 * 60_000;

/** The shortest text worth a suggestion or a prefix answer. */
const MIN_PREFIX = 2;

/** Where answers are kept between lookups: in memory, or the store's location_cache table. */
export interface LocationCache {
  get(query: string): { results: unknown } | undefined;
  put(query: string, results: unknown, ttlMs: number): void;
}

export type Resolution =
  | { kind: 'found'; location: Location; alternatives: Location[] }
  | { kind: 'ambiguous'; choices: Location[] }
  | { kind: 'none'; suggestions: Location[] };

/** Case and spacing folded; words with no letter or digit (an emoji, a stray dash) carry no place name. */
export const normalise = (words: string) =>
  words.toLowerCase().split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).join(' ');

/** A location "sits inside" another when its name contains the other's name ("Vida Residences Dubai Marina"). */
const inside = (a: Location, b: Location) => a.id !== b.id && normalise(a.name).includes(normalise(b.name));

/** Words that only say which emirate or city a place is in: "Dubai Marina" is "marina" in Dubai. */
const QUALIFIERS = new Set(['dubai', 'abu', 'dhabi', 'sharjah', 'ajman', 'umm', 'al', 'quwain', 'ras', 'khaimah', 'fujairah', 'ain', 'uae']);

/** A strong match: the name is the words typed plus, at most, an emirate or city. */
function isStrong(name: string, wanted: string): boolean {
  const left = normalise(name).split(' ');
  for (const word of wanted.split(' ')) {
    const i = left.indexOf(word);
    if (i === -1) return false;
    left.splice(i, 1);
  }
  return left.every((w) => QUALIFIERS.has(w));
}

/**
 * The best location for the words, in this order: an exact name; the only community the others sit inside;
 * the service's highest-ranked strong match ("marina" -> Dubai Marina). Otherwise the choices ("jumeirah").
 */
export function pickBest(words: string, results: readonly Location[]): Resolution {
  if (results.length === 0) return { kind: 'none', suggestions: [] };
  const wanted = normalise(words);
  const found = (best: Location): Resolution => ({ kind: 'found', location: best, alternatives: results.filter((r) => r !== best) });
  const exact = results.find((r) => normalise(r.name) === wanted);
  if (exact) return found(exact);
  const topLevel = results.filter((r) => !results.some((other) => inside(r, other)));
  if (topLevel.length === 1) return found(topLevel[0]!);
  const strong = topLevel.find((r) => isStrong(r.name, wanted));
  if (strong) return found(strong);
  return { kind: 'ambiguous', choices: topLevel.slice(0, 10) };
}

/** Abbreviations people in the UAE type, which the service's autocomplete does not know. */
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  jvc: 'jumeirah village circle',
  jvt: 'jumeirah village triangle',
  jlt: 'jumeirah lake towers',
  jbr: 'jumeirah beach residence',
  difc: 'dubai international financial centre',
  dso: 'dubai silicon oasis',
  dip: 'dubai investments park',
  dsc: 'dubai sports city',
  impz: 'international media production zone',
  'mbr city': 'mohammed bin rashid city',
  'the palm': 'palm jumeirah',
  'dubai hills': 'dubai hills estate',
};

/** The words to look up: abbreviations spelled out, case and spacing folded. */
export const expandAbbreviations = (words: string) => ABBREVIATIONS[normalise(words)] ?? normalise(words);

export class LocationResolver {
  private readonly inFlight = new Map<string, Promise<Location[]>>();
  private readonly budgetLow: () => boolean;
  private readonly emptyTtlMs: number;

  constructor(
    private readonly api: LocationLookup,
    private readonly cache: LocationCache,
    private readonly ttlMs: number,
    options: ResolverOptions = {},
  ) {
    this.budgetLow = api.budgetLow ? () => api.budgetLow?.() === true : (budgetLowFrom(api) ?? (() => false));
    this.emptyTtlMs = Math.min(options.emptyTtlMs ?? EMPTY_ANSWER_TTL_MS, ttlMs);
  }

  async resolve(typed: string): Promise<Resolution> {
    const words = expandAbbreviations(typed);
    const resolution = pickBest(words, await this.lookup(words));
    if (resolution.kind !== 'none') return resolution;
    // Nothing matched: a shorter probe (the start of the longest word) finds the closest names.
    const longest = normalise(words).split(' ').sort((a, b) => b.length - a.length)[0] ?? '';
    const probe = longest.slice(0, 3);
    const suggestions = probe.length >= 2 && probe !== normalise(words) ? await this.lookup(probe) : [];
    return { kind: 'none', suggestions: suggestions.slice(0, 5) };
  }

  /**
   * Suggestions as someone types, one request per keystroke: answered from the longest cached (or pending) prefix
   * whose answer was not cut at the service's cap; from the service only when that cannot tell, and never when the
   * call budget is low.
   */
  async suggest(typed: string): Promise<Location[]> {
    const key = normalise(typed);
    if (key.length < MIN_PREFIX) return [];
    const cached = this.cache.get(key);
    if (cached) return cached.results as Location[];
    const prefix = await this.longestPrefixAnswer(key);
    if (prefix && complete(prefix)) return narrow(prefix, key);
    if (this.budgetLow()) return prefix ? narrow(prefix, key) : [];
    return this.lookup(key);
  }

  /** Autocomplete results for the words: from the cache, or one upstream call shared by concurrent askers. */
  async lookup(words: string): Promise<Location[]> {
    const key = normalise(words);
    if (key === '') return [];
    const cached = this.cache.get(key);
    if (cached) return cached.results as Location[];
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.api
        .call('autocomplete-location', { query: key })
        .then((r) => {
          // `data: null` is not an answer to remember; an empty list is, briefly.
          if (!r.dataNull) this.cache.put(key, r.records, r.records.length === 0 ? this.emptyTtlMs : this.ttlMs);
          return r.records;
        })
        .finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  /** The answer for the longest prefix of the key already cached, or being fetched right now. */
  private async longestPrefixAnswer(key: string): Promise<Location[] | undefined> {
    for (let end = key.length - 1; end >= MIN_PREFIX; end--) {
      const prefix = key.slice(0, end).trimEnd();
      if (prefix.length < end) continue; // "business " is "business", tried next
      const cached = this.cache.get(prefix);
      if (cached) return cached.results as Location[];
      const pending = this.inFlight.get(prefix);
      if (pending) return pending.catch(() => undefined);
    }
    return undefined;
  }
}
