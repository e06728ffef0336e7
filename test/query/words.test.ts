// Words in and out (issue 40), a corpus of the ways they are said: terse, in sentences and in Arabic. They are read
// into Query.words and never into the parameters sent; the grammar around them (ranges, "not furnished", "no more
// than") reads as it did.
import { describe, expect, it } from 'vitest';
import { formatQuery, parseCommand, passesWords, summarize, toParams, type Words } from '../../src/query/index.js';
import { parsed } from './helpers.js';

const CORPUS: [text: string, words: Words, params: Record<string, string>, location: string][] = [
  // Terse
  ['rent marina 2br -shared -"bed space"', { exclude: ['shared', 'bed space'] }, { bedrooms: '2' }, 'marina'],
  ['rent marina 2br without shared', { exclude: ['shared'] }, { bedrooms: '2' }, 'marina'],
  ['rent marina 2br no shared', { exclude: ['shared'] }, { bedrooms: '2' }, 'marina'],
  ['rent marina 2br +"sea view"', { require: ['sea view'] }, { bedrooms: '2' }, 'marina'],
  ['rent marina 2br +balcony', { require: ['balcony'] }, { bedrooms: '2' }, 'marina'],
  ['rent marina 2br not by allsopp', { notBy: ['allsopp'] }, { bedrooms: '2' }, 'marina'],
  ['buy jvc villa not by "Allsopp & Allsopp"', { notBy: ['allsopp & allsopp'] }, { property_type: 'villa' }, 'jvc'],
  ['rent marina not by 1005', { notBy: ['1005'] }, {}, 'marina'],
  [
    'rent marina 80k-120k -shared +"sea view" not by allsopp',
    { exclude: ['shared'], require: ['sea view'], notBy: ['allsopp'] },
    { price_min: '80000', price_max: '120000' },
    'marina',
  ],
  ['rent marina -semi-furnished', { exclude: ['semi-furnished'] }, {}, 'marina'],
  ['rent -Shared -SHARED marina', { exclude: ['shared'] }, {}, 'marina'],
  // Sentences
  [
    'looking to rent a 2 bed flat in jvc without shared please',
    { exclude: ['shared'] },
    { property_type: 'apartment', bedrooms: '2' },
    'jvc',
  ],
  [
    'can you find me a villa for sale in arabian ranches, no "bed space", not by betterhomes',
    { exclude: ['bed space'], notBy: ['betterhomes'] },
    { property_type: 'villa' },
    'arabian ranches',
  ],
  // Arabic: بدون is "without"
  [
    'إيجار شقة غرفتين دبي مارينا بدون "bed space"',
    { exclude: ['bed space'] },
    { property_type: 'apartment', bedrooms: '2' },
    'Dubai Marina',
  ],
  ['إيجار شقة دبي مارينا بدون shared', { exclude: ['shared'] }, { property_type: 'apartment' }, 'Dubai Marina'],
];

describe('words in and out', () => {
  it.each(CORPUS)('%s', (text, words, params, location) => {
    const q = parsed(text);
    expect(q.words).toEqual(words);
    expect(q.params).toEqual(params);
    expect(q.location).toBe(location);
    // Never sent: the service's parameters are what they are without the words.
    const sent = Object.values(toParams(q, 5002)).join(' ');
    for (const w of [...(words.exclude ?? []), ...(words.require ?? []), ...(words.notBy ?? [])])
      expect(sent).not.toContain(w);
  });

  it('read back as text that parses to the same words, and said in the summary', () => {
    for (const [text] of CORPUS) {
      const q = parsed(text);
      const again = parsed(formatQuery(q));
      expect(again.words, text).toEqual(q.words);
      expect(again.params, text).toEqual(q.params);
    }
    expect(summarize(parsed('rent marina 2br -shared -"bed space" +"sea view" not by allsopp'), 'Dubai Marina')).toBe(
      '2-bedroom homes for rent in Dubai Marina, without "shared" or "bed space", with "sea view", not by "allsopp" (words Manzil checks in each listing)',
    );
    expect(summarize(parsed('rent marina not by 1005'))).toContain('not by brokerage 1005');
  });

  it('leaves the grammar around them as it was: ranges, "not furnished", "no more than", "no agent fees"', () => {
    const plain = (text: string) => {
      const r = parseCommand(text);
      if (!r.ok) return { error: r.error };
      return { params: r.query.params, location: r.query.location, words: r.query.words };
    };
    expect(plain('rent marina 100k-120k')).toEqual({
      params: { price_min: '100000', price_max: '120000' },
      location: 'marina',
      words: undefined,
    });
    expect(plain('rent marina 1-3br')).toMatchObject({ params: { bedrooms: '1,2,3' }, words: undefined });
    expect(plain('rent marina not furnished')).toMatchObject({
      params: { furnishing: 'unfurnished' },
      words: undefined,
    });
    expect(plain('rent marina no more than 120k')).toMatchObject({ params: { price_max: '120000' }, words: undefined });
    expect(plain('rent al-barsha 2br')).toMatchObject({ location: 'al-barsha', words: undefined });
    // A wish about the deal, not a word of a listing: left where it was (the area words), as before.
    expect(plain('rent marina no agent fees')).toMatchObject({ words: undefined });
    expect(plain('إيجار شقة دبي مارينا بدون فرش')).toMatchObject({
      params: { property_type: 'apartment', furnishing: 'unfurnished' },
      words: undefined,
    });
  });

  it('are refused, with a reason, where there are no listings to check them in', () => {
    const r = parseCommand('transactions sold jvc -shared');
    expect(r.ok ? 'accepted' : r.error).toMatch(/checked in listings: say them after a search to rent or buy/);
  });
});

describe('a listing checked against the words', () => {
  const listing = {
    property_id: '1',
    title: 'Shared room | Bed space near metro',
    description: 'Sea view from the balcony',
    amenities: ['shared_pool', 'balcony'],
    broker_id: '1005',
    agent_details: { id: '7', name: 'Olga Mueller' },
    broker_name: 'Allsopp & Allsopp',
  };
  it('reads its title, description and amenities, whole words in any case', () => {
    expect(passesWords({ exclude: ['shared'] }, listing)).toBe(false);
    expect(passesWords({ exclude: ['bed space'] }, listing)).toBe(false);
    expect(passesWords({ exclude: ['bed'] }, { title: 'Two bedroom flat' })).toBe(true);
    expect(passesWords({ require: ['sea view'] }, listing)).toBe(true);
    expect(passesWords({ require: ['sea view'] }, { title: 'City view' })).toBe(false);
    // An amenity is matched as its whole name: "shared pool", not "shared".
    expect(passesWords({ exclude: ['shared'] }, { title: 'Flat', amenities: ['shared_pool'] })).toBe(true);
    expect(passesWords({ exclude: ['shared pool'] }, { title: 'Flat', amenities: ['shared_pool'] })).toBe(false);
  });
  it('reads who lists it: the brokerage or agent named, or the brokerage number', () => {
    expect(passesWords({ notBy: ['allsopp'] }, listing)).toBe(false);
    expect(passesWords({ notBy: ['olga mueller'] }, listing)).toBe(false);
    expect(passesWords({ notBy: ['1005'] }, listing)).toBe(false);
    expect(passesWords({ notBy: ['1006'] }, listing)).toBe(true);
    expect(passesWords({ notBy: ['betterhomes'] }, listing)).toBe(true);
  });
});
