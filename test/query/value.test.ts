// `/value` as typed: terse and in sentences, read with the command language's own words (src/query/value.ts).
import { describe, expect, it } from 'vitest';
import { valueRequest } from '../../src/query/value.js';

describe('valueRequest', () => {
  it('reads the terse command and the sentences that ask for a value', () => {
    expect(valueRequest('value jvc 2br 1200 sqft')).toEqual({
      ask: { area: 'jvc', bedrooms: 2, propertyType: 'apartment', sizeSqft: 1200 },
    });
    expect(valueRequest('is 1.8m fair for a 2 bed in jvc?')).toEqual({
      ask: { area: 'jvc', bedrooms: 2, propertyType: 'apartment', asking: { price: 1_800_000, kind: 'sale' } },
    });
    expect(valueRequest('what would a 1,200 sqft 2br in marina rent for')).toEqual({
      ask: { area: 'marina', bedrooms: 2, propertyType: 'apartment', sizeSqft: 1200 },
    });
    expect(valueRequest('/value marina studio')).toMatchObject({ ask: { bedrooms: 0 } });
    expect(valueRequest('how much is a 3 bedroom villa in arabian ranches worth')).toMatchObject({
      ask: { area: 'arabian ranches', bedrooms: 3, propertyType: 'villa' },
    });
    expect(valueRequest('is 8k monthly fair for a 1br in jvc')).toMatchObject({
      ask: { asking: { price: 96_000, kind: 'rent' } },
    });
    expect(valueRequest('is 120k a fair rent for a 2 bed in marina')).toMatchObject({
      ask: { area: 'marina', asking: { price: 120_000, kind: 'rent' } },
    });
    expect(valueRequest('/manzil value 2br jvc 110 sqm')).toMatchObject({ ask: { sizeSqft: 1184 } });
    expect(valueRequest('/manzil is 1.8m fair for a 2 bed in jvc?')).toMatchObject({ ask: { area: 'jvc' } });
  });

  it('leaves every other command alone', () => {
    for (const text of ['rent marina 2br under 120k', 'buy downtown 2 bed', 'trend jvc', 'help', 'sold jvc 2br'])
      expect(valueRequest(text), text).toBeUndefined();
  });

  it('says what is missing or too wide, in words', () => {
    expect(valueRequest('value jvc')).toMatchObject({ error: expect.stringMatching(/How many bedrooms/) });
    expect(valueRequest('value 2br')).toMatchObject({ error: expect.stringMatching(/which area/i) });
    expect(valueRequest('value jvc 1-2br')).toMatchObject({ error: expect.stringMatching(/One bedroom count/) });
    expect(valueRequest('value jvc 2br 800-1200 sqft')).toMatchObject({ error: expect.stringMatching(/One size/) });
  });
});
