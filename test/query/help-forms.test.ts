// `help` names the forms of issue 17, and every example it gives reads as it says.
import { describe, expect, it } from 'vitest';
import { helpText } from '../../src/query/index.js';
import { parsed } from './helpers.js';

describe('help on digits, units, known areas, the past and prices too small', () => {
  it('has a line on them, whose examples read as it says', () => {
    const line = helpText()
      .split('\n')
      .find((l) => l.startsWith('Also:'));
    expect(line).toBeDefined();
    for (const example of [
      '٣br under ٩٥k',
      '75 grand',
      'sq.ft.',
      'sqm',
      'Villa Lantana',
      'Damac Hills 2',
      'what did 2br in jlt sell for',
      'rentals in jvc last 4 months',
      'did you mean 80,000?',
    ]) {
      expect(line).toContain(example);
    }
    expect(parsed('/rent marina ٣br under ٩٥k').params).toEqual({ bedrooms: '3', price_max: '95000' });
    expect(parsed('/rent jlt under 75 grand').params).toEqual({ price_max: '75000' });
    expect(parsed('/rent villa lantana').location).toBe('villa lantana');
    expect(parsed('/rent damac hills 2 villa').location).toBe('damac hills 2');
    expect(parsed('/manzil what did 2br in jlt sell for').params).toEqual({ bedrooms: '2', transaction_type: 'sold' });
    expect(parsed('/manzil rentals in jvc last 4 months').params).toEqual({ period: '6m', transaction_type: 'rented' });
  });

  it('says how periods, dates and commercial rents are read', () => {
    expect(helpText('transactions')).toContain(
      'any other span ("last 4 months", "past 2 weeks") is read as the nearest period that covers it',
    );
    expect(helpText('adrec')).toContain('between 01/01/2024 and 31/03/2024');
    expect(helpText('rent')).toContain('commercial: yearly or monthly only, yearly unless you say a month');
  });
});
