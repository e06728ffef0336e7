// Commercial rents are per year unless a month is said (issue 17): Dubai quotes them by the year, and the service would
// read an amount without a period as monthly. The summary says which; the period sent matches it.
import { describe, expect, it } from 'vitest';
import { summarize, toParams } from '../../src/query/index.js';
import { parsed } from './helpers.js';

describe('commercial rents', () => {
  it('"an office under 150k" is AED 150,000 a year, and yearly is sent (the second edition sent nothing: monthly)', () => {
    const q = parsed('/rent office business bay under 150k');
    expect(toParams(q, 86)).toEqual({
      property_type: 'office-space',
      price_max: '150000',
      rent_frequency: 'yearly',
      location_id: '86',
    });
    expect(summarize(q, 'Business Bay')).toBe('Offices for rent in Business Bay, up to AED 150,000 a year');
  });

  it('a month said is a month sent', () => {
    const q = parsed('/rent shop deira under 20k per month');
    expect(q.params).toEqual({ property_type: 'shop', price_max: '20000', rent_frequency: 'monthly' });
    expect(summarize(q, 'Deira')).toBe('Shops for rent in Deira, up to AED 20,000 a month');
  });

  it('says the period with no price too, in sentences as well', () => {
    expect(summarize(parsed('/rent warehouse al quoz'), 'Al Quoz')).toBe('Warehouses for rent in Al Quoz, paid yearly');
    expect(parsed('/manzil any office space to rent in jlt under 90k?').params).toEqual({
      property_type: 'office-space',
      price_max: '90000',
      rent_frequency: 'yearly',
    });
  });

  it('leaves homes as they were: the service reads their rents by the year already', () => {
    expect(parsed('/rent marina 2br under 120k').params).toEqual({ bedrooms: '2', price_max: '120000' });
  });
});
