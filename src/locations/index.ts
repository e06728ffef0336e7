// Location words ("marina") -> a location_id, through /autocomplete-location, cached.
// Picks the best match (exact name, then the one community the others sit inside) and otherwise returns
// the choices, so chat can ask "Did you mean".
import type { Location } from '../api/records.js';
import { learnAreaNames } from '../query/index.js';
import { abbreviationOf, findAbbreviated } from './abbreviations.js';
import { budgetLowFrom } from './budget.js';
import { QUALIFIERS, SUGGESTION_COUNT, rankAreas } from './did-you-mean.js';
import { complete, narrow } from './prefix-filter.js';
import { kindOf } from './kinds.js';

export { AUTOCOMPLETE_CAP, nameMatches } from './prefix-filter.js';
export { budgetLowFrom, SUGGESTION_RESERVE } from './budget.js';
export { SUGGESTION_COUNT, rankAreas } from './did-you-mean.js';
export { KNOWN_AREAS, type KnownArea } from './known-areas.js';

/** The one call the resolver needs; ApiClient satisfies it. */
export interface LocationLookup {
  /** `dataNull`: the service sent `data: null`, which is read as no records but never cached. */
  call(
    operation: 'autocomplete-location',
    params: { query: string },
  ): Promise<{ records: Location[]; dataNull?: boolean }>;
  /**
   * True when calls are scarce: suggestions then answer from the cache only. When absent, it is derived from
   * a `budgetLeft()` method if the object has one (ApiClient).
   */
  budgetLow?: () => boolean;
}

/** How many area names seen in answers are kept for "did you mean" (the newest; a few hundred bytes each). */
const SEEN_CAP = 2_000;

/** The shortest text worth a suggestion or a prefix answer. */
const MIN_PREFIX = 2;

/**
 * The most characters of a suggestion's text sent to the service (a picker may send thousands): longer text is
 * answered by narrowing the answer for its first this many, which is longer than the area names people type.
 */
export const SUGGEST_MAX_CHARS = 40;

/** Where answers are kept between lookups: in memory, or the store's location_cache table. */
export interface LocationCache {
  get(query: string): Promise<{ results: unknown } | undefined>;
  put(query: string, results: unknown, ttlMs: number): Promise<void>;
  /** Every answer kept (the store's, across restarts): the area names the parser and "did you mean" learn at start. */
  answers?(): Promise<Iterable<unknown>>;
}

/** The locations of a cached answer, or none when it is not a list of them (an older or damaged row). */
function locationsOf(results: unknown): Location[] {
  if (!Array.isArray(results)) return [];
  return results.filter(
    (r): r is Location =>
      typeof r === 'object' &&
      r !== null &&
      typeof (r as Location).name === 'string' &&
      typeof (r as Location).id === 'number',
  );
}

export type Resolution =
  | { kind: 'found'; location: Location; alternatives: Location[] }
  | { kind: 'ambiguous'; choices: Location[] }
  | { kind: 'none'; suggestions: Location[] };

/** Case and spacing folded; words with no letter or digit (an emoji, a stray dash) carry no area name. */
export const normalise = (words: string) =>
  words
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => /[\p{L}\p{N}]/u.test(w))
    .join(' ');

/** A location "sits inside" another when its name contains the other's name ("Vida Residences Dubai Marina"). */
const inside = (a: Location, b: Location) => a.id !== b.id && normalise(a.name).includes(normalise(b.name));

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
  const found = (best: Location): Resolution => ({
    kind: 'found',
    location: best,
    alternatives: results.filter((r) => r !== best),
  });
  const exact = results.find((r) => normalise(r.name) === wanted);
  if (exact) {
    // One word that names several communities besides its own ("jumeirah": Jumeirah, Palm Jumeirah, Jumeirah Village
    // Circle...) is asked about, the exact one first; a city or emirate ("dubai") is taken as typed.
    const namesake = (r: Location) => r !== exact && normalise(r.name).split(' ').includes(wanted);
    const others = results.filter((r) => namesake(r) && kindOf(r.name) === 'community');
    if (!wanted.includes(' ') && !QUALIFIERS.has(wanted) && others.length >= 2)
      return { kind: 'ambiguous', choices: [exact, ...others].slice(0, 10) };
    return found(exact);
  }
  const topLevel = results.filter((r) => !results.some((other) => inside(r, other)));
  if (topLevel.length === 1) return found(topLevel[0]!);
  const strong = topLevel.find((r) => isStrong(r.name, wanted));
  if (strong) return found(strong);
  return { kind: 'ambiguous', choices: topLevel.slice(0, 10) };
}

/** The words to look up: a short form the language knows spelled out as its area's name, case and spacing folded. */
export const expandAbbreviations = (words: string) => {
  const abbreviation = abbreviationOf(words);
  return abbreviation ? normalise(abbreviation.area.name) : normalise(words);
};

export class LocationResolver {
  private readonly inFlight = new Map<string, Promise<Location[]>>();
  /**
   * Areas seen in autocomplete answers (fresh or cached), by folded name: what "did you mean" ranks besides the
   * shipped list.
   */
  private readonly seen = new Map<string, Location>();
  private readonly budgetLow: () => boolean;

  constructor(
    private readonly api: LocationLookup,
    private readonly cache: LocationCache,
    private readonly ttlMs: number,
  ) {
    this.budgetLow = api.budgetLow ? () => api.budgetLow?.() === true : (budgetLowFrom(api) ?? (() => false));
    this.ready = this.learn();
  }

  /**
   * Settles once every name the lookup has answered before (kept across restarts) is learnt: the composition root
   * awaits it before serving, so such names read as areas from the first command on. Never rejects: an unreadable
   * cache only means fewer names known.
   */
  readonly ready: Promise<void>;

  private async learn(): Promise<void> {
    try {
      const answers = [...((await this.cache.answers?.()) ?? [])].map(locationsOf);
      // Oldest first, so the newest end up last in `seen` (the ones kept when it is full).
      for (const records of answers.reverse()) this.remember(records);
    } catch {
      // Nothing learnt from the store; lookups still work and are learnt as they come.
    }
  }

  /**
   * The area the words resolve to, from cached answers only (never a call): for describing a command as it is typed.
   * Undefined when nothing is cached for them.
   */
  async cached(typed: string): Promise<Resolution | undefined> {
    const abbreviation = abbreviationOf(typed);
    const fromCache = async (words: string) => locationsOf((await this.cache.get(normalise(words)))?.results);
    const named = abbreviation && (await findAbbreviated(abbreviation, fromCache));
    if (named) return named;
    const words = expandAbbreviations(typed);
    const key = normalise(words);
    const hit = key === '' ? undefined : await this.cache.get(key);
    return hit ? pickBest(words, locationsOf(hit.results)) : undefined;
  }

  async resolve(typed: string): Promise<Resolution> {
    // "difc", "J.B.R": searched as the area the service confirms by its short form, full name, or both.
    const abbreviation = abbreviationOf(typed);
    const named = abbreviation && (await findAbbreviated(abbreviation, (w) => this.lookup(w)));
    if (named) return named;
    const words = expandAbbreviations(typed);
    const resolution = pickBest(words, await this.lookup(words));
    if (resolution.kind !== 'none') return resolution;
    // Nothing matched: a shorter probe (the start of the longest word) finds names that start alike, and the names
    // already known (seen in answers, or shipped) are ranked by string distance: "marnia" -> Dubai Marina.
    const wanted = normalise(words);
    const longest = wanted.split(' ').sort((a, b) => b.length - a.length)[0] ?? '';
    const probe = longest.slice(0, 3);
    const probed = probe.length >= 2 && probe !== wanted ? await this.lookup(probe) : [];
    return { kind: 'none', suggestions: await this.didYouMean(wanted, probed) };
  }

  /** The best few areas for words that found nothing, each with its id: a shipped name is looked up (cached) first. */
  private async didYouMean(wanted: string, probed: readonly Location[]): Promise<Location[]> {
    const ranked = rankAreas(wanted, probed, this.seen.values());
    const out: Location[] = [];
    for (const candidate of ranked) {
      let location = candidate.location;
      // A shipped name costs a call unless cached; when calls are scarce, only names with ids are offered.
      if (!location && ((await this.cache.get(normalise(candidate.name))) || !this.budgetLow())) {
        const answer = pickBest(candidate.name, await this.lookup(candidate.name));
        if (answer.kind === 'found' && normalise(answer.location.name) === normalise(candidate.name))
          location = answer.location;
      }
      if (location && !out.some((l) => l.id === location.id)) out.push(location);
      if (out.length === SUGGESTION_COUNT) break;
    }
    return out;
  }

  /** Remembers the areas of an answer for "did you mean" (the newest last, at most SEEN_CAP) and for the parser. */
  private remember(records: readonly Location[]): void {
    learnAreaNames(records.map((r) => r.name));
    for (const r of records) {
      const key = normalise(r.name);
      this.seen.delete(key);
      this.seen.set(key, r);
    }
    for (const key of this.seen.keys()) {
      if (this.seen.size <= SEEN_CAP) break;
      this.seen.delete(key);
    }
  }

  /**
   * Suggestions as someone types, one request per keystroke: answered from the cache first (the text's own answer, or
   * the longest cached or pending prefix whose answer was not cut at the service's cap); from the service only when
   * that cannot tell, and never when the call budget is low or `mayCall` (asked only then) says no.
   */
  async suggest(typed: string, mayCall: () => Promise<boolean> = async () => true): Promise<Location[]> {
    const key = normalise(typed);
    if (key.length < MIN_PREFIX) return [];
    if (key.length > SUGGEST_MAX_CHARS)
      return narrow(await this.suggest(key.slice(0, SUGGEST_MAX_CHARS).trimEnd(), mayCall), key);
    const cached = await this.cache.get(key);
    if (cached) return cached.results as Location[];
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const prefix = await this.longestPrefixAnswer(key);
    if (prefix && complete(prefix)) return narrow(prefix, key);
    if (this.budgetLow() || !(await mayCall())) return prefix ? narrow(prefix, key) : [];
    return this.lookup(key);
  }

  /** Autocomplete results for the words: from the cache, or one upstream call shared by concurrent askers. */
  async lookup(words: string): Promise<Location[]> {
    const key = normalise(words);
    if (key === '') return [];
    const cached = await this.cache.get(key);
    if (cached) {
      this.remember(cached.results as Location[]);
      return cached.results as Location[];
    }
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.api
        .call('autocomplete-location', { query: key })
        .then(async (r) => {
          // `data: null` is not an answer to remember. An empty list is, as long as a found one: asked again sooner,
          // every string of gibberish typed into a picker would be a call anyone can make again and again.
          if (!r.dataNull) await this.cache.put(key, r.records, this.ttlMs);
          this.remember(r.records);
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
      const cached = await this.cache.get(prefix);
      if (cached) return cached.results as Location[];
      const pending = this.inFlight.get(prefix);
      if (pending) return pending.catch(() => undefined);
    }
    return undefined;
  }
}
