import { describe, expect, it } from 'vitest';
import { adrecRecord } from '../../src/api/records.js';
import { ADREC_MAX_FIELDS, adrecView, type Block, type Card } from '../../src/views/index.js';

const cards = (blocks: Block[]): Card[] => blocks.flatMap((b) => (b.kind === 'card' ? [b.card] : []));

describe('adrecView', () => {
  it('shows amounts in AED and no zero or missing count as a fact; 0 bedrooms is a studio (issue 26)', () => {
    const record = adrecRecord.parse({
      community: 'Marina Square',
      soldPrice: '3410000',
      amount: 905_000.4,
      rooms: 0,
      bathrooms: '0',
      bedrooms: 0,
      parking: null,
      units: 12,
    });
    const [card] = cards(adrecView([record]));
    expect(card?.fields).toEqual([
      { label: 'Sold price', value: 'AED 3,410,000' },
      { label: 'Amount', value: 'AED 905,000' },
      { label: 'Bedrooms', value: 'Studio' },
      { label: 'Units', value: '12' },
    ]);
    const [many] = cards(adrecView([adrecRecord.parse({ community: 'Shams', rooms: 3, bedrooms: '2' })]));
    expect(many?.fields).toEqual([
      { label: 'Rooms', value: '3' },
      { label: 'Bedrooms', value: '2' },
    ]);
  });

  it('shows the scalar fields present, with humane labels and formatted numbers', () => {
    const record = adrecRecord.parse({
      districtName: 'Al Reem Island',
      propertyType: 'apartment',
      transaction_value: 1_250_000,
      area_sqm: 98.456,
      registrationDate: '2025-11-04',
      isOffPlan: true,
      plotNumber: 40213,
      buildYear: 2019,
    });
    const [card] = cards(adrecView([record]));
    expect(card?.title).toBe('Al Reem Island');
    expect(card?.fields).toEqual([
      { label: 'Property type', value: 'apartment' },
      { label: 'Transaction value', value: 'AED 1,250,000' },
      { label: 'Area sqm', value: '98.46' },
      { label: 'Registration date', value: '4 Nov 2025' },
      { label: 'Is off plan', value: 'Yes' },
      { label: 'Plot number', value: '40213' },
      { label: 'Build year', value: '2019' },
    ]);
  });

  it('keeps identifiers and years free of thousands separators, but not amounts that merely end in "id"', () => {
    const [card] = cards(
      adrecView([adrecRecord.parse({ amountPaid: 1_250_000, PLOT_NO: 40213, year: 2024, unit_id: 99812 })]),
    );
    expect(card?.fields).toEqual([
      { label: 'Amount paid', value: '1,250,000' },
      { label: 'Plot no', value: '40213' },
      { label: 'Year', value: '2024' },
      { label: 'Unit ID', value: '99812' },
    ]);
  });

  it('never fails on odd types: null, NaN, nested objects, arrays, cycles, functions, bigint', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = cyclic;
    const record = adrecRecord.parse({
      nothing: null,
      empty: '',
      notANumber: Number.NaN,
      infinite: Infinity,
      nested: { lat: 24.49, lon: 54.4 },
      units: ['A-101', 'A-102'],
      owners: [{ name: 'x' }],
      loop: cyclic,
      big: 12345678901234567890n,
      fn: () => 1,
      emptyObject: {},
    });
    const [card] = cards(adrecView([record]));
    expect(card?.title).toBe('Record 1');
    expect(card?.fields).toEqual([
      { label: 'Units', value: 'A-101, A-102' },
      { label: 'Big', value: '12345678901234567890' },
      { label: 'Nested', value: '{"lat":24.49,"lon":54.4}' },
      { label: 'Owners', value: '[{"name":"x"}]' },
    ]);
  });

  it('keeps each card compact: long text shortened, at most the field limit', () => {
    const wide = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`field_${i}`, i]));
    const [card] = cards(adrecView([adrecRecord.parse({ ...wide, note: 'x '.repeat(500) })]));
    expect(card?.fields).toHaveLength(ADREC_MAX_FIELDS);
    const [long] = cards(adrecView([adrecRecord.parse({ note: 'word '.repeat(100) })]));
    expect(long?.fields[0]?.value.length).toBeLessThanOrEqual(120);
    expect(long?.fields[0]?.value.endsWith('…')).toBe(true);
  });

  it('gives one card per record and says so when there are none', () => {
    expect(
      cards(adrecView([adrecRecord.parse({ community: 'Yas Island' }), adrecRecord.parse({})])).map((c) => c.title),
    ).toEqual(['Yas Island', 'Record 2']);
    expect(adrecView([])).toEqual([{ kind: 'text', text: 'No ADREC transactions were found for this search.' }]);
  });
});
