// Typos in the language's own words, corrected in sentences (and terse commands) and shown in the summary; never into
// or
// out of an area.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KNOWN_AREAS } from '../../src/locations/index.js';
import { parseCommand, summarize } from '../../src/query/index.js';
import { correctionFor } from '../../src/query/typos.js';
import { parsed } from './helpers.js';

describe('typos of filter words, in sentences', () => {
  const rows: [text: string, params: Record<string, string>, location: string, summary: string][] = [
    [
      '/manzil 2 bedrms to rent in marina',
      { bedrooms: '2' },
      'marina',
      '2-bedroom homes for rent in Dubai Marina (read "bedrms" as bedrooms)',
    ],
    [
      '/manzil furnshed flats to rent in jvc',
      { property_type: 'apartment', furnishing: 'furnished' },
      'jvc',
      'Apartments for rent in Dubai Marina, furnished (read "furnshed" as furnished)',
    ],
    [
      '/manzil townhose for sale in arabian ranches',
      { property_type: 'townhouse' },
      'arabian ranches',
      'Townhouses for sale in Dubai Marina (read "townhose" as townhouse)',
    ],
    [
      '/manzil any penthose for sale in downtown?',
      { property_type: 'penthouse' },
      'downtown',
      'Penthouses for sale in Dubai Marina (read "penthose" as penthouse)',
    ],
    [
      '/manzil apartmen to rent in business bay with a balcny',
      { property_type: 'apartment', amenities: 'balcony' },
      'business bay',
      'Apartments for rent in Dubai Marina, with a balcony (read "apartmen" as apartment; read "balcny" as balcony)',
    ],
    [
      '/manzil 3 bedroom vilas for sale in the springs cheapst',
      { bedrooms: '3', property_type: 'villa', sort: 'price_asc' },
      'springs',
      '3-bedroom villas for sale in Dubai Marina, cheapest first (read "vilas" as villas; read "cheapst" as cheapest)',
    ],
  ];
  it.each(rows)('%s', (text, params, location, summary) => {
    const q = parsed(text);
    expect(q.params).toEqual(params);
    expect(q.location).toBe(location);
    expect(q.unknownWords).toEqual([]);
    expect(summarize(q, 'Dubai Marina')).toBe(summary);
  });

  it('corrects a terse command by the same rules (see test/query/terse-typos.test.ts)', () => {
    const q = parsed('/rent marina 2br furnshed');
    expect(q.location).toBe('marina');
    expect(q.params).toEqual({ bedrooms: '2', furnishing: 'furnished' });
    expect(q.corrections).toEqual(['read "furnshed" as furnished']);
  });

  it('corrects only into filter words, close to one of them alone', () => {
    expect(correctionFor('furnshed')).toBe('furnished');
    expect(correctionFor('bedrms')).toBe('bedrooms');
    expect(correctionFor('townhose')).toBe('townhouse');
    // Known words, short words, other first letters and plurals of filter words are left alone.
    expect(correctionFor('furnished')).toBeUndefined();
    expect(correctionFor('gym')).toBeUndefined();
    expect(correctionFor('urnished')).toBeUndefined();
    expect(correctionFor('gardens')).toBeUndefined();
    // Never into an area or an emirate: "dubia" is not a filter word's typo.
    expect(correctionFor('dubia')).toBeUndefined();
  });

  it('leaves a word that would still not be understood in the area', () => {
    // "bedrms" alone, without a count, is no filter: it is kept as typed rather than read as a lone "bedrooms".
    const q = parsed('/manzil flats to rent in marina bedrms');
    expect(q.location).toBe('marina bedrms');
    expect(q.corrections).toBeUndefined();
  });
});

describe('area names are never corrected', () => {
  it('a well-known area, or any of its spellings, in a sentence is kept exactly as typed', () => {
    const names = [...new Set(KNOWN_AREAS.flatMap((p) => [p.name, ...p.spellings]))];
    const changed = names.filter((name) => {
      const result = parseCommand(`/manzil can you find flats to rent in ${name} please`);
      return (
        !result.ok ||
        result.query.location !== parsed(`/rent ${name}`).location ||
        result.query.corrections !== undefined
      );
    });
    expect(changed).toEqual([]);
  });

  // Filter words and a typo of each (one letter dropped, doubled, or two neighbours swapped, never the first letter).
  const FILTERS = [
    'furnished',
    'unfurnished',
    'apartment',
    'townhouse',
    'penthouse',
    'balcony',
    'cheapest',
    'newest',
    'villa',
    'bedrooms',
  ];
  const typo = fc
    .tuple(fc.constantFrom(...FILTERS), fc.nat(), fc.constantFrom('drop', 'double', 'swap'))
    .map(([w, n, kind]) => {
      const k = 1 + (n % (w.length - 2));
      if (kind === 'drop') return w.slice(0, k) + w.slice(k + 1);
      if (kind === 'double') return w.slice(0, k) + w[k] + w.slice(k);
      return w.slice(0, k) + w[k + 1] + w[k] + w.slice(k + 2);
    });
  const area = fc.constantFrom(...KNOWN_AREAS.map((p) => p.name));
  const opener = fc.constantFrom('', 'can you find', 'show me', "i'm after", 'is there anything');
  const verb = fc.constantFrom('for rent', 'to buy', 'for sale', 'to rent');

  it('a corrected word never changes the area words', { timeout: 90_000 }, () => {
    fc.assert(
      fc.property(opener, typo, verb, area, fc.array(typo, { maxLength: 2 }), (open, word, deal, name, more) => {
        const text = `/manzil ${open} ${word} ${deal} in ${name} ${more.join(' ')}`;
        const result = parseCommand(text);
        if (!result.ok) return; // a typo may make a combination the operation refuses ("penthouse" + "cheapest" is fine; two types are not)
        // A swap of two equal letters is no typo: "Jumeirah 2 bedrooms" is two bedrooms in Jumeirah (areas.test.ts).
        if (/\d$/.test(name) && more[0] !== undefined && /^(bedrooms|beds?|br)$/.test(more[0])) return;
        const q = result.query;
        // The area words as a terse command reads them ("The Springs" is "Springs": "the" is a filler everywhere).
        const areaTyped = parsed(`/rent ${name}`).location!.toLowerCase();
        // The area is there exactly as typed, and no corrected word went into it or came out of it.
        expect(q.location?.toLowerCase().includes(areaTyped), text).toBe(true);
        for (const note of q.corrections ?? []) {
          const from = /^read "([^"]+)"/.exec(note)?.[1];
          if (from) {
            expect(areaTyped.split(' '), text).not.toContain(from.toLowerCase());
            expect(q.location?.toLowerCase().split(' '), text).not.toContain(from.toLowerCase());
          }
        }
      }),
      { numRuns: 1500 },
    );
  });
});

describe('area names beyond the shipped list are never corrected', () => {
  // Real multi-word names whose words sit close to filter words ("park" and "port" to "part", "bateen" to "between").
  const NAMES = [
    'Jumeirah Park',
    'Port de La Mer',
    'Al Bateen',
    'Dubai Hills Park',
    'Jumeirah Golf Estates',
    'Motor City',
    'Sports City',
    'Port Saeed',
    'Al Bateen Villas',
    'Park Heights',
    'Mina Rashid',
    'Bluewaters Island',
    'City Walk',
    'Al Barari',
    'Tilal Al Ghaf',
    'Sobha Hartland',
    'Emaar Beachfront',
    'Umm Suqeim',
    'Jumeirah Islands',
    'Mudon',
    'Al Khail Gate',
    'Barsha Heights',
  ];
  const FILTERS = [
    'furnished',
    'unfurnished',
    'apartment',
    'townhouse',
    'villa',
    'balcony',
    'cheapest',
    'newest',
    'studio',
  ];
  const typo = fc
    .tuple(fc.constantFrom(...FILTERS), fc.nat(), fc.constantFrom('drop', 'swap', 'none'))
    .map(([w, n, kind]) => {
      const k = 1 + (n % (w.length - 2));
      if (kind === 'drop') return w.slice(0, k) + w.slice(k + 1);
      if (kind === 'swap') return w.slice(0, k) + w[k + 1] + w[k] + w.slice(k + 2);
      return w;
    });

  it('the area words stay exactly as typed, before or after typos and filter words', { timeout: 90_000 }, () => {
    fc.assert(
      fc.property(
        fc.constantFrom('', 'can you find', 'show me'),
        typo,
        fc.constantFrom('for rent', 'to buy'),
        fc.constantFrom(...NAMES),
        fc.array(typo, { maxLength: 2 }),
        fc.boolean(),
        (open, word, deal, name, more, areaFirst) => {
          const text = areaFirst
            ? `/manzil ${open} ${name} ${word} ${deal} ${more.join(' ')}`
            : `/manzil ${open} ${word} ${deal} in ${name} ${more.join(' ')}`;
          const result = parseCommand(text);
          if (!result.ok) return; // two types, or "studio" with a type the operation refuses
          const areaTyped = parsed(`/rent ${name}`).location!.toLowerCase();
          // Typos not corrected (a second type, say) stay beside the area, as typed; the area itself is whole.
          expect(result.query.location?.toLowerCase().includes(areaTyped), text).toBe(true);
          for (const note of result.query.corrections ?? []) {
            const from = /^read "([^"]+)"/.exec(note)?.[1];
            if (from) expect(areaTyped.split(' '), text).not.toContain(from.toLowerCase());
          }
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('reads a filter after the area, and the area whole', () => {
    const q = parsed('/manzil villas to rent in jumeirah park furnished');
    expect(q.params).toEqual({ property_type: 'villa', furnishing: 'furnished' });
    expect(q.location).toBe('jumeirah park');
    expect(q.corrections).toBeUndefined();
    expect(parsed('/manzil villas to rent in dubai hills park furnished').location).toBe('dubai hills park');
    expect(parsed('/manzil flats for sale in port de la mer part furnished').params).toEqual({
      property_type: 'apartment',
      furnishing: 'partly',
    });
    const bateen = parsed('/manzil vila to rent in al bateen');
    expect(bateen.location).toBe('al bateen');
    expect(bateen.corrections).toEqual(['read "vila" as villa']);
    // A typo next to the area is still corrected when it is a filter on its own.
    expect(parsed('/manzil flats to rent in jumeirah park furnshed')).toMatchObject({
      params: { furnishing: 'furnished' },
      location: 'jumeirah park',
    });
    // A correction that would make the command refused is not made: "La Vila" is a second area word, not a second
    // type.
    expect(parsed('/manzil flats for rent in la vila')).toMatchObject({
      params: { property_type: 'apartment' },
      location: 'la vila',
    });
  });
});
