// `/compare` in the command language: the command, /manzil, and sentences ("marina vs jlt", "is jvc or jlt better for
// a 2 bed") read as the same ask; other text is left to the search parser.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareRequest, parseCommand } from '../../src/query/index.js';

describe('compare in the command language', () => {
  it.each([
    ['/compare marina, jlt 2br', { areas: ['marina', 'jlt'], bedrooms: 2 }],
    ['/manzil compare marina and jlt 2br', { areas: ['marina', 'jlt'], bedrooms: 2 }],
    ['compare marina and jlt 2br', { areas: ['marina', 'jlt'], bedrooms: 2 }],
    ['marina vs jlt', { areas: ['marina', 'jlt'] }],
    ['Marina vs. JLT vs JVC studio', { areas: ['Marina', 'JLT', 'JVC'], bedrooms: 0 }],
    ['is jvc or jlt better for a 2 bed', { areas: ['jvc', 'jlt'], bedrooms: 2 }],
    ['which is cheaper, jvc or jlt, to rent a three bedroom?', { areas: ['jvc', 'jlt'], bedrooms: 3, kind: 'rent' }],
    ['/compare dubai marina, business bay, jvc buy', { areas: ['dubai marina', 'business bay', 'jvc'], kind: 'buy' }],
    ['/compare "Arabian Ranches 3", downtown 4 beds', { areas: ['Arabian Ranches 3', 'downtown'], bedrooms: 4 }],
  ])('%s', (text, ask) => {
    expect(compareRequest(text)).toEqual(ask);
  });

  it('asks for two to five areas, kindly', () => {
    expect(compareRequest('/compare marina')).toEqual({
      error: 'Which areas? Name two to 5, for example `/compare marina, jlt 2br` or "marina vs jlt".',
    });
    expect(compareRequest('/compare marina, jlt, jvc, downtown, business bay, arabian ranches')).toEqual({
      error: 'I compare at most 5 areas at once (you named 6); split them over two asks.',
    });
  });

  it('leaves searches and other questions to the search parser', () => {
    for (const text of ['rent marina 2br under 120k', 'is it better to rent or buy', 'sold marina 2br last 6 months'])
      expect(compareRequest(text), text).toBeUndefined();
    expect(parseCommand('rent marina 2br under 120k').ok).toBe(true);
  });

  it('reads any two to five area names joined by vs, each once, in order', () => {
    const name = fc.constantFrom('marina', 'jlt', 'jvc', 'downtown', 'business bay', 'al barsha 1', 'palm jumeirah');
    fc.assert(
      fc.property(
        fc.uniqueArray(name, { minLength: 2, maxLength: 5 }),
        fc.constantFrom('', ' 2br', ' studio'),
        (areas, beds) => {
          const ask = compareRequest(`${areas.join(' vs ')}${beds}`);
          expect(ask).toMatchObject({ areas });
        },
      ),
    );
  });
});
