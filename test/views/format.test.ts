import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { price } from '../../src/api/records.js';
import {
  formatAed,
  formatSize,
  formatBaths,
  formatBeds,
  formatDate,
  formatMonth,
  formatPrice,
  humanize,
  shorten,
  stripHtml,
} from '../../src/views/index.js';

describe('formatPrice', () => {
  it.each([
    [{ value: 120000, currency: 'AED', period: 'yearly', is_hidden: false }, 'AED 120,000/yr'],
    [{ value: 9500, currency: 'AED', period: 'monthly', is_hidden: false }, 'AED 9,500/mo'],
    [{ value: 1200, currency: 'AED', period: 'weekly' }, 'AED 1,200/wk'],
    [{ value: 350, currency: 'AED', period: 'daily' }, 'AED 350/day'],
    [{ value: 1850000, currency: 'AED', period: 'sell', is_hidden: false }, 'AED 1,850,000'],
    [{ value: 1850000, currency: 'AED' }, 'AED 1,850,000'],
    [{ value: '2400000', period: 'sell' }, 'AED 2,400,000'],
  ])('shows %o as %s', (raw, expected) => {
    expect(formatPrice(price.parse(raw))).toBe(expected);
  });

  it('says "Price on request" for a hidden price, even when a value is sent', () => {
    expect(formatPrice(price.parse({ value: 0, currency: 'AED', period: 'sell', is_hidden: true }))).toBe(
      'Price on request',
    );
    expect(formatPrice(price.parse({ value: 95000, period: 'yearly', is_hidden: true }))).toBe('Price on request');
  });

  it('says "Price on request" when the value is missing, null, zero or malformed, never "AED 0"', () => {
    for (const raw of [{}, { value: null }, { value: 0, period: 'sell' }, { value: 'n/a' }]) {
      expect(formatPrice(price.parse(raw))).toBe('Price on request');
    }
    expect(formatPrice(undefined)).toBe('Price on request');
  });

  it('uses the default period only when the record has none', () => {
    expect(formatPrice(price.parse({ value: 90000 }), { defaultPeriod: 'yearly' })).toBe('AED 90,000/yr');
    expect(formatPrice(price.parse({ value: 9000, period: 'monthly' }), { defaultPeriod: 'yearly' })).toBe(
      'AED 9,000/mo',
    );
  });

  it('keeps an unknown period visible rather than passing the price off as a sale', () => {
    expect(formatPrice(price.parse({ value: 30000, period: 'quarterly' }))).toBe('AED 30,000 quarterly');
  });
});

describe('numbers and counts', () => {
  it('formats AED and sizes with thousands separators', () => {
    expect(formatAed(1850000)).toBe('AED 1,850,000');
    expect(formatAed(2230.6)).toBe('AED 2,231');
    expect(formatSize(1250)).toBe('1,250 sqft');
    expect(formatSize(undefined)).toBeUndefined();
    expect(formatSize(0)).toBeUndefined();
  });

  it('calls zero bedrooms a studio and counts the rest', () => {
    expect(formatBeds(0)).toBe('Studio');
    expect(formatBeds('0')).toBe('Studio');
    expect(formatBeds('1')).toBe('1 bed');
    expect(formatBeds(3)).toBe('3 beds');
    expect(formatBeds('7+')).toBe('7+ beds');
    expect(formatBeds(undefined)).toBeUndefined();
    expect(formatBeds('')).toBeUndefined();
    expect(formatBaths('1')).toBe('1 bath');
    expect(formatBaths(2)).toBe('2 baths');
    expect(formatBaths(null)).toBeUndefined();
  });
});

describe('dates', () => {
  it('formats ISO timestamps and plain dates in UTC', () => {
    expect(formatMonth('2027-09-30T00:00:00Z')).toBe('Sep 2027');
    expect(formatMonth('2027-09-01T00:00:00.000Z')).toBe('Sep 2027');
    expect(formatDate('2026-03-12')).toBe('12 Mar 2026');
    expect(formatDate('2026-03-12T23:30:00+04:00')).toBe('12 Mar 2026');
    expect(formatDate('12/03/2026')).toBe('12 Mar 2026');
    expect(formatMonth('Feb 2025')).toBe('Feb 2025');
  });

  it('survives invalid input: undefined for nothing, the raw text otherwise, never "Invalid Date"', () => {
    expect(formatDate(undefined)).toBeUndefined();
    expect(formatDate(null)).toBeUndefined();
    expect(formatDate('   ')).toBeUndefined();
    expect(formatDate('2026-02-31')).toBe('2026-02-31');
    expect(formatMonth('Q3 2027')).toBe('Q3 2027');
    expect(formatDate('2026-13-01T00:00:00Z')).toBe('2026-13-01T00:00:00Z');
  });

  it('never throws or prints Invalid Date/NaN for any string', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        for (const out of [formatDate(s), formatMonth(s)]) {
          // Either a formatted date or (part of) the text that came in, never something invented.
          if (out !== undefined && !/^(\d{1,2} )?[A-Z][a-z]{2} \d{4}$/.test(out))
            expect(s).toContain(out.replace(/…$/, ''));
        }
      }),
    );
  });
});

describe('stripHtml', () => {
  it('removes tags, decodes entities and collapses whitespace', () => {
    const html =
      '<p>Emaar&nbsp;Properties &amp; partners</p>\n<ul><li>Prices &lt; AED 1m &gt; expected</li></ul><br/>' +
      '<p>&quot;Iconic&quot; towers &#39;since&#39; 1997 &#x2014; Dubai</p>';
    expect(stripHtml(html)).toBe(
      'Emaar Properties & partners Prices < AED 1m > expected "Iconic" towers \'since\' 1997 — Dubai',
    );
  });

  it('drops scripts and styles with their content and decodes only once', () => {
    expect(stripHtml('<style>p{color:red}</style><script>alert(1)</script>A &amp;lt; B')).toBe('A &lt; B');
  });

  it('keeps list items apart', () => {
    expect(stripHtml('<p>Known for:</p><ul><li>on-time handover</li>\n<li>payment plans</li></ul>')).toBe(
      'Known for: on-time handover; payment plans',
    );
  });

  it('returns empty text for missing input', () => {
    expect(stripHtml(undefined)).toBe('');
  });
});

describe('shorten', () => {
  it('leaves short text alone', () => {
    expect(shorten('Dubai Marina', 20)).toBe('Dubai Marina');
  });

  it('cuts on a word boundary and adds an ellipsis within the limit', () => {
    const out = shorten('A waterfront community with towers, marinas and beaches', 30);
    expect(out).toBe('A waterfront community with…');
    expect(out.length).toBeLessThanOrEqual(30);
  });

  it('never splits an emoji, a flag or a family', () => {
    const text = '🏠🏠🏠🏠🇦🇪🇦🇪👨‍👩‍👧👨‍👩‍👧';
    const whole = ['', '🏠', '🏠🏠', '🏠🏠🏠', '🏠🏠🏠🏠', '🏠🏠🏠🏠🇦🇪', '🏠🏠🏠🏠🇦🇪🇦🇪', '🏠🏠🏠🏠🇦🇪🇦🇪👨‍👩‍👧'];
    for (let max = 1; max < text.length; max++) {
      const out = shorten(text, max);
      expect(out.length).toBeLessThanOrEqual(max);
      expect(out.endsWith('…')).toBe(true);
      expect(whole).toContain(out.slice(0, -1));
    }
  });

  it('never leaves a lone surrogate, whatever the text and limit', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.integer({ min: 0, max: 60 }), (s, max) => {
        const out = shorten(s, max);
        expect(out.length).toBeLessThanOrEqual(Math.max(max, 0));
        expect(out).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
      }),
    );
  });
});

describe('humanize', () => {
  it('turns camelCase and snake_case keys into words', () => {
    expect(humanize('propertyType')).toBe('Property type');
    expect(humanize('total_price_aed')).toBe('Total price AED');
    expect(humanize('under_construction')).toBe('Under construction');
    expect(humanize('plotAreaSQM')).toBe('Plot area sqm');
  });
});
