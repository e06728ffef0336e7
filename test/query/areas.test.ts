// Areas before filter words (issue 17): a known area is read as an area even when it holds a filter word or a number;
// quotes still force any text to be the area. Known: the shipped communities, and every name the lookup has answered.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KNOWN_AREAS } from '../../src/locations/index.js';
import { learnAreaNames, parseCommand } from '../../src/query/index.js';
import { parsed } from './helpers.js';

describe('known areas before filter words', () => {
  // On the second edition: a villa in "lantana", a studio in "city", 2 bedrooms in "damac hills", "between 2 and
  // what?".
  const rows: [text: string, location: string, params: Record<string, string>][] = [
    ['/rent villa lantana 3br', 'villa lantana', { bedrooms: '3' }],
    ['/buy Villa Lantana villa', 'Villa Lantana', { property_type: 'villa' }],
    ['/rent dubai studio city studio', 'dubai studio city', { bedrooms: '0' }],
    ['/rent studio city 1br', 'studio city', { bedrooms: '1' }],
    ['/rent damac hills 2 villa 3br', 'damac hills 2', { property_type: 'villa', bedrooms: '3' }],
    ['/rent arabian ranches 3 townhouse', 'arabian ranches 3', { property_type: 'townhouse' }],
    ['/rent al barsha 1 monthly', 'al barsha 1', { rent_frequency: 'monthly' }],
    ['/rent between two bridges 2br under 80k', 'between two bridges', { bedrooms: '2', price_max: '80000' }],
    ['/rent the villa 4br', 'the villa', { bedrooms: '4' }],
    ['/rent garden city ajman 1br', 'garden city ajman', { bedrooms: '1' }],
    ['/manzil villas for sale in dubai production city', 'dubai production city', { property_type: 'villa' }],
  ];
  it.each(rows)('%s', (text, location, params) => {
    const q = parsed(text);
    expect(q.location).toBe(location);
    expect(q.params).toEqual(params);
    expect(q.unknownWords).toEqual([]);
  });

  it('reads a number ending an area as a count when a room unit follows, as before', () => {
    expect(parsed('/rent damac hills 2 bed').params).toEqual({ bedrooms: '2' });
    expect(parsed('/rent damac hills 2 bed').location).toBe('damac hills');
    expect(parsed('/rent al barsha 1 or 2 beds').params).toEqual({ bedrooms: '1,2' });
  });

  it('still reads the filter words around an area, and quotes still force an area', () => {
    expect(parsed('/rent jvc villa').params).toEqual({ property_type: 'villa' });
    expect(parsed('/rent studio jvc').params).toEqual({ bedrooms: '0' });
    expect(parsed('/rent "Sea View" 2br')).toMatchObject({ location: 'Sea View', params: { bedrooms: '2' } });
  });

  it('ships the main communities of every emirate, with short forms and numbered phases', () => {
    const count = (emirate: string) => KNOWN_AREAS.filter((p) => p.emirate === emirate).length;
    expect(count('dubai')).toBeGreaterThanOrEqual(150);
    expect(count('abu-dhabi')).toBeGreaterThanOrEqual(50);
    for (const emirate of ['sharjah', 'ajman', 'ras-al-khaimah', 'fujairah', 'umm-al-quwain'])
      expect(count(emirate), emirate).toBeGreaterThan(5);
    const names = KNOWN_AREAS.map((p) => p.name);
    for (const name of ['Villa Lantana', 'Dubai Production City', 'Damac Hills 2', 'Arabian Ranches 3', 'Al Barsha 1'])
      expect(names).toContain(name);
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
    expect(KNOWN_AREAS.find((p) => p.name === 'Jumeirah Village Circle')?.spellings).toContain('jvc');
  });

  it('reads a name the location lookup has answered as an area from then on', () => {
    // A building name made of filter words and a name of its own, as the lookup answers them.
    expect(parsed('/rent zenith pool villas 2br').location).toBe('zenith');
    learnAreaNames(['Zenith Pool Villas']);
    const q = parsed('/rent zenith pool villas 2br');
    expect(q.location).toBe('zenith pool villas');
    expect(q.params).toEqual({ bedrooms: '2' });
  });

  it('property: a known area name never loses a word to a filter', { timeout: 90_000 }, () => {
    // "The Springs" reads as "Springs" (a leading "the" is a filler, as ever); "The Villa" keeps it, being only filter
    // words.
    const expected = (name: string) =>
      (/^the /i.test(name) && name.toLowerCase() !== 'the villa' ? name.slice(4) : name).toLowerCase();
    const names = [...new Set(KNOWN_AREAS.flatMap((p) => [p.name, ...p.spellings]))];
    const filters = fc.subarray(
      [
        '2br',
        'under 120k',
        'furnished',
        'pool',
        'newest',
        '2 baths',
        'over 1000 sqft',
        'apartment',
        'sea view',
        '3+ br',
      ].filter((f, _, all) => f !== '3+ br' || !all.includes('2br')),
      { maxLength: 4 },
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...names),
        filters,
        filters,
        fc.constantFrom('/rent', '/buy', '/manzil rent'),
        (name, before, after, verb) => {
          const text = `${verb} ${before.join(' ')} ${name} ${after.filter((f) => !before.includes(f) && !(f.includes('br') && before.some((b) => b.includes('br')))).join(' ')}`;
          const result = parseCommand(text);
          if (!result.ok) expect.fail(`"${text}" was refused: ${result.error}`);
          expect(` ${result.query.location?.toLowerCase()} `, text).toContain(` ${expected(name)} `);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
