// Location words ("marina") -> a location_id, through /autocomplete-location, cached.
// Picks the best match (exact name, then the one community the others sit inside) and otherwise returns
// the choices, so chat can ask "Did you mean".
import type { Location } from '../api/records.js';

/** The one call the resolver needs; ApiClient satisfies it. */
export interface LocationLookup {
  call(operation: 'autocomplete-location', params: { query: string }): Promise<{ records: Location[] }>;
}

/** Where answers are kept between lookups: in memory, or the store's location_cache table. */
export interface LocationCache {
  get(query: string): { results: unknown } | undefined;
  put(query: string, results: unknown, ttlMs: number): void;
}

export type Resolution =
  | { kind: 'found'; location: Location; alternatives: Location[] }
  | { kind: 'ambiguous'; choices: Location[] }
  | { kind: 'none'; suggestions: Location[] };

export const normalise = (words: string) => words.trim().toLowerCase().replace(/\s+/g, ' ');

/** A location "sits inside" another when its name contains the other's name ("Vida Residences Dubai Marina"). */
const inside = (a: Location, b: Location) => a.id !== b.id && normalise(a.name).includes(normalise(b.name));

export function pickBest(words: string, results: readonly Location[]): Resolution {
  if (results.length === 0) return { kind: 'none', suggestions: [] };
  const wanted = normalise(words);
  const exact = results.find((r) => normalise(r.name) === wanted);
  if (exact) return { kind: 'found', location: exact, alternatives: results.filter((r) => r !== exact) };
  const topLevel = results.filter((r) => !results.some((other) => inside(r, other)));
  if (topLevel.length === 1) {
    const best = topLevel[0]!;
    return { kind: 'found', location: best, alternatives: results.filter((r) => r !== best) };
  }
  return { kind: 'ambiguous', choices: topLevel.slice(0, 10) };
}

export class MemoryLocationCache implements LocationCache {
  private readonly entries = new Map<string, { results: unknown; expiresAt: number }>();
  constructor(private readonly now: () => number = Date.now) {}
  get(query: string) {
    const entry = this.entries.get(normalise(query));
    if (!entry || entry.expiresAt <= this.now()) return undefined;
    return { results: entry.results };
  }
  put(query: string, results: unknown, ttlMs: number) {
    this.entries.set(normalise(query), { results, expiresAt: this.now() + ttlMs });
  }
}

export class LocationResolver {
  private readonly inFlight = new Map<string, Promise<Location[]>>();

  constructor(
    private readonly api: LocationLookup,
    private readonly cache: LocationCache,
    private readonly ttlMs: number,
  ) {}

  async resolve(words: string): Promise<Resolution> {
    const resolution = pickBest(words, await this.lookup(words));
    if (resolution.kind !== 'none') return resolution;
    // Nothing matched: a shorter probe (the start of the longest word) finds the closest names.
    const longest = normalise(words).split(' ').sort((a, b) => b.length - a.length)[0] ?? '';
    const probe = longest.slice(0, 3);
    const suggestions = probe.length >= 2 && probe !== normalise(words) ? await this.lookup(probe) : [];
    return { kind: 'none', suggestions: suggestions.slice(0, 5) };
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
          this.cache.put(key, r.records, this.ttlMs);
          return r.records;
        })
        .finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }
}
