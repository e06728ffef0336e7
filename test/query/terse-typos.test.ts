// Typos in terse commands too (issue 17), by the rules of sentences: a filter word is corrected only into a whole
// filter
// word, never from inside a run of area words, never into an area; the summary says what was corrected.
import { describe, expect, it } from 'vitest';
import { summarize } from '../../src/query/index.js';
import { parsed } from './helpers.js';

describe('typos in terse commands', () => {
  // On the second edition each of these fell into the area: "I couldn't find an area called ...".
  const rows: [text: string, params: Record<string, string>, location: string, summary: string][] = [
    [
      '/rent jlt 1br semi furnishd',
      { bedrooms: '1', furnishing: 'partly' },
      'jlt',
      '1-bedroom homes for rent in Jumeirah Lake Towers, partly furnished (read "furnishd" as furnished)',
    ],
    [
      '/buy jvc townhose',
      { property_type: 'townhouse' },
      'jvc',
      'Townhouses for sale in Jumeirah Village Circle (read "townhose" as townhouse)',
    ],
    [
      '/rent marina 2br balcny',
      { bedrooms: '2', amenities: 'balcony' },
      'marina',
      '2-bedroom homes for rent in Dubai Marina, with a balcony (read "balcny" as balcony)',
    ],
  ];
  it.each(rows)('%s', (text, params, location, summary) => {
    const q = parsed(text);
    expect(q.params).toEqual(params);
    expect(q.location).toBe(location);
    expect(q.unknownWords).toEqual([]);
    const area = { jlt: 'Jumeirah Lake Towers', jvc: 'Jumeirah Village Circle', marina: 'Dubai Marina' }[location];
    expect(summarize(q, area)).toBe(summary);
  });

  it('corrects into a whole filter word only: a lone unit or bound stays in the area, named', () => {
    const q = parsed('/rent marina bedrom');
    expect(q.location).toBe('marina bedrom');
    expect(q.unknownWords).toEqual(['bedrom']);
    expect(q.corrections).toBeUndefined();
  });

  it('never corrects a word from inside a run of area words', () => {
    const q = parsed('/rent dubai furnishd marina');
    expect(q.location).toBe('dubai furnishd marina');
    expect(q.params).toEqual({});
  });

  it('never corrects a word of a known area, nor into an area', () => {
    expect(parsed('/rent jumeirah park 3br').location).toBe('jumeirah park'); // "park" is not "part"
    expect(parsed('/rent al bateen villa').location).toBe('al bateen'); // "bateen" is not "between"
    expect(parsed('/rent port saeed').location).toBe('port saeed');
    expect(parsed('/rent marnia 2br').location).toBe('marnia'); // an area misspelt is the location lookup's to find
  });

  it('corrects after a number too: "120k furnishd" is furnished under 120k', () => {
    expect(parsed('/rent jvc 1br 120k furnishd').params).toEqual({
      bedrooms: '1',
      price_max: '120000',
      furnishing: 'furnished',
    });
  });
});
