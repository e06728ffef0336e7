// The forms' core (src/forms): a form's fields read into the OrderCommand a typed command is, refused field by field;
// an existing order read back into the fields; and the typed command a confirmation shows, which parses back to the
// same search.
import { describe, expect, it } from 'vitest';
import { parseAlertCommand } from '../../src/alerts/language.js';
import { parseDigestCommand } from '../../src/digests/language.js';
import {
  commandText,
  fromAlert,
  priceRangeText,
  readPriceRange,
  fromDigest,
  toAlertOrder,
  toDigestOrder,
  type AlertFormValues,
} from '../../src/forms/index.js';
import type { AlertCommand, ExistingAlert } from '../../src/ports/order-command.js';
import { parseCommand } from '../../src/query/index.js';

const MARINA = '5002:Dubai Marina';
const full: AlertFormValues = {
  area: MARINA,
  deal: 'rent',
  type: 'apartment',
  bedrooms: ['2', '1'],
  priceMin: '90k',
  priceMax: '120,000',
  sizeMin: '700',
  furnishing: 'furnished',
  wordsIn: 'Sea View, balcony',
  wordsOut: 'shared',
  every: 'daily',
  time: '9:30',
};

/** The search a command's text reads into, as an alert saves it (its area's name in place of the words). */
function searchOf(c: AlertCommand) {
  if (c.sub !== 'add' && c.sub !== 'edit') throw new Error(`not a search: ${c.sub}`);
  const spec = c.sub === 'add' ? c : 'alert' in c ? c.alert : undefined;
  if (!spec) throw new Error('no search');
  if ('search' in spec) {
    const q = parseCommand(spec.search.replace(/\s+(instant|daily at \S+|weekly on \w+ at \S+)$/, ''));
    if (!q.ok) throw new Error(q.error);
    return q.query;
  }
  return { ...spec.query, location: spec.area?.name ?? spec.query.location };
}

describe('the alert form', () => {
  it('reads every field into the command a typed /alerts add saves', () => {
    const r = toAlertOrder(full);
    expect(r).toEqual({
      ok: true,
      order: {
        kind: 'alert',
        sub: 'add',
        query: {
          operation: 'search-rent',
          params: {
            property_type: 'apartment',
            bedrooms: '1,2',
            price_min: '90000',
            price_max: '120000',
            area_min: '700',
            furnishing: 'furnished',
          },
          location: 'Dubai Marina',
          unknownWords: [],
          words: { exclude: ['shared'], require: ['sea view', 'balcony'] },
        },
        area: { id: 5002, name: 'Dubai Marina' },
        every: 'daily at 09:30',
      },
    });
  });

  it('round trip: the typed command it shows parses back to the same search and frequency', () => {
    const forms: AlertFormValues[] = [
      full,
      {
        area: MARINA,
        deal: 'buy',
        type: 'villa',
        bedrooms: ['0'],
        priceMax: '1.5m',
        every: 'weekly',
        day: 'sunday',
        time: '08:00',
        to: 'me',
      },
      { area: '77:Jumeirah Village Circle', every: 'instant' },
    ];
    for (const values of forms) {
      const r = toAlertOrder(values);
      if (!r.ok) throw new Error(JSON.stringify(r.errors));
      const text = commandText(r.order);
      expect(text.startsWith('/alerts add ')).toBe(true);
      const parsed = parseAlertCommand(text.replace(/^\/alerts /, ''));
      if ('refused' in parsed) throw new Error(parsed.refused);
      const { corrections: _c, ...back } = searchOf(parsed);
      expect(back).toEqual(searchOf(r.order));
      expect(parsed).toMatchObject(values.to === 'me' ? { to: 'me' } : {});
      if (r.order.sub === 'add' && 'every' in r.order) expect(text.endsWith(r.order.every!)).toBe(true);
    }
  });

  it('refuses a minimum price above the maximum on the price field, and saves nothing', () => {
    const r = toAlertOrder({ ...full, priceMin: '150k', priceMax: '120k' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r.errors)).toEqual(['priceMax']);
    expect(r.errors.priceMax).toContain('below the least (150,000)');
  });

  it('names each wrong field: an area not picked, a bad time, a price that is no number, a size upside down', () => {
    const r = toAlertOrder({
      area: 'marina',
      priceMin: 'cheap',
      sizeMin: '2000',
      sizeMax: '900',
      every: 'daily',
      time: '25:00',
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.area).toContain('Pick an area');
    expect(r.errors.priceMin).toContain('"cheap" is not a price');
    expect(r.errors.sizeMax).toContain('below the least');
    expect(r.errors.time).toContain('"25:00" is not a time of day');
  });

  it('reads a search typed as one text (Discord) and refuses one with no area or no deal', () => {
    const ok = toAlertOrder({ search: 'rent marina 2br under 120k -shared', every: 'instant', to: 'me' });
    expect(ok).toMatchObject({
      ok: true,
      order: { sub: 'add', to: 'me', every: 'instant', query: { location: 'marina' } },
    });
    expect(toAlertOrder({ search: 'rent 2br' })).toMatchObject({
      ok: false,
      errors: { search: expect.stringContaining('Add a place') },
    });
    expect(toAlertOrder({ search: 'agents marina' })).toMatchObject({
      ok: false,
      errors: { search: expect.stringContaining('rent or buy') },
    });
    expect(toAlertOrder({ search: '' })).toMatchObject({ ok: false, errors: { search: expect.any(String) } });
  });

  it('reads a price range typed as one text (Discord) into its two ends, which win over a price in the search', () => {
    expect(readPriceRange('90k-120k')).toEqual({ priceMin: '90k', priceMax: '120k' });
    expect(readPriceRange('from 90k to 120k')).toEqual({ priceMin: '90k', priceMax: '120k' });
    expect(readPriceRange('between 1.5m and 2m')).toEqual({ priceMin: '1.5m', priceMax: '2m' });
    expect(readPriceRange('up to 120k')).toEqual({ priceMax: '120k' });
    expect(readPriceRange('over 90k')).toEqual({ priceMin: '90k' });
    expect(readPriceRange('120,000')).toEqual({ priceMax: '120,000' });
    expect(readPriceRange('  ')).toEqual({});
    expect(priceRangeText({ priceMin: '90000', priceMax: '120000' })).toBe('90,000-120,000');
    expect(priceRangeText({ priceMax: '120000' })).toBe('up to 120,000');
    // An edit form's price field, sent back untouched, reads back to the same two ends.
    const back = toAlertOrder({
      search: 'buy marina',
      ...readPriceRange(priceRangeText({ priceMin: '1500000', priceMax: '2000000' })),
    });
    if (!back.ok) throw new Error(JSON.stringify(back.errors));
    expect(searchOf(back.order).params).toMatchObject({ price_min: '1500000', price_max: '2000000' });
    expect(readPriceRange('AED 90k - 120k')).toEqual({ priceMin: 'aed 90k', priceMax: '120k' });

    const r = toAlertOrder({ search: 'rent marina 2br under 300k', ...readPriceRange('90k-120k') });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(searchOf(r.order).params).toMatchObject({ price_min: '90000', price_max: '120000' });
    const upsideDown = toAlertOrder({ search: 'rent marina', ...readPriceRange('150k-100k') });
    expect(upsideDown).toMatchObject({ ok: false, errors: { priceMax: expect.stringContaining('below the least') } });
    expect(toAlertOrder({ search: 'buy marina', ...readPriceRange('cheap') })).toMatchObject({
      ok: false,
      errors: { priceMax: expect.stringContaining('"cheap" is not a price') },
    });
  });

  it('fills an edit form from the alert, and saves it back as /alerts edit with what the form has no field for', () => {
    const parsed = parseCommand(
      'rent "Dubai Marina" apartment 2 br 2 baths under 120000 furnished -shared +"sea view"',
    );
    if (!parsed.ok) throw new Error(parsed.error);
    const existing: ExistingAlert = {
      kind: 'alert',
      number: 3,
      query: parsed.query,
      area: { id: 5002, name: 'Dubai Marina' },
      every: 'weekly on friday at 18:00',
    };
    const values = fromAlert(existing);
    expect(values).toMatchObject({
      area: MARINA,
      deal: 'rent',
      type: 'apartment',
      bedrooms: ['2'],
      priceMax: '120000',
      furnishing: 'furnished',
      wordsIn: 'sea view',
      wordsOut: 'shared',
      every: 'weekly',
      day: 'friday',
      time: '18:00',
      to: 'channel',
      keep: { bathrooms: '2' },
    });
    const r = toAlertOrder({ ...values, search: undefined, priceMax: '150k' }, { number: 3 });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.order).toMatchObject({ sub: 'edit', number: 3, alert: { every: 'weekly on friday at 18:00' } });
    expect(searchOf(r.order).params).toMatchObject({ bathrooms: '2', price_max: '150000' });
    const text = commandText(r.order);
    expect(text).toMatch(/^\/alerts edit 3 rent "Dubai Marina" apartment 2 br 2 baths under 150000 furnished/);
    const back = parseAlertCommand(text.replace(/^\/alerts /, ''));
    expect(back).toMatchObject({
      sub: 'edit',
      number: 3,
      alert: { search: expect.stringContaining('weekly on friday at 18:00') },
    });
    // The form's whole search as one text (Discord's edit form), its price in a field of its own, reads back to the
    // same.
    expect(values.search).not.toMatch(/120000/);
    expect(
      toAlertOrder(
        { search: values.search!, priceMax: values.priceMax, every: 'weekly', day: 'friday', time: '18:00' },
        { number: 3 },
      ),
    ).toMatchObject({
      ok: true,
      order: { alert: { query: { params: parsed.query.params } } },
    });
  });
});

describe('the digest form', () => {
  it('reads areas, schedule and time into /digest add, and its text parses back to it', () => {
    const r = toDigestOrder({
      areas: ['5002:Dubai Marina', '77:Business Bay'],
      every: 'weekly',
      day: 'friday',
      time: '6pm',
    });
    expect(r).toEqual({
      ok: true,
      order: {
        kind: 'digest',
        sub: 'add',
        areas: ['Dubai Marina', 'Business Bay'],
        when: { every: 'week', day: 'friday', time: '18:00' },
      },
    });
    if (!r.ok) return;
    expect(commandText(r.order)).toBe('/digest add Dubai Marina, Business Bay weekly on friday at 18:00');
    expect(parseDigestCommand(commandText(r.order).replace(/^\/digest /, ''))).toEqual(r.order);
  });

  it('refuses no area and a bad time on their fields, and an edit reads back as /digest edit', () => {
    expect(toDigestOrder({ areas: ' ', time: '9:75' })).toEqual({
      ok: false,
      errors: { areas: expect.stringContaining('at least one area'), time: expect.stringContaining('"9:75"') },
    });
    const values = fromDigest({ kind: 'digest', number: 2, areas: ['JVC'], when: { every: 'day', time: '07:00' } });
    expect(values).toEqual({ areas: 'JVC', every: 'daily', time: '07:00' });
    const r = toDigestOrder({ ...values, areas: 'jvc, dubai marina' }, { number: 2 });
    if (!r.ok) throw new Error('refused');
    expect(commandText(r.order)).toBe('/digest edit 2 jvc, dubai marina daily at 07:00');
    expect(parseDigestCommand('edit 2 jvc, dubai marina daily at 07:00')).toEqual(r.order);
  });
});
