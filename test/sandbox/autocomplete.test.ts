// Location lookup: how a user's words become a location_id.
import { describe, expect, it } from 'vitest';
import { useSandbox } from './helpers.js';

const sb = useSandbox();
const names = async (query: string) =>
  (await sb.api('/autocomplete-location', { query })).json.data.map((l: { name: string }) => l.name) as string[];

describe('autocomplete-location', () => {
  it('matches a name prefix, case-insensitively', async () => {
    expect(await names('DOWNT')).toContain('Downtown Dubai');
  });

  it('matches the prefix of any word, and puts the community before its buildings', async () => {
    const found = await names('marina');
    expect(found[0]).toBe('Dubai Marina');
    expect(found).toContain('Vida Residences Dubai Marina');
    expect(found.indexOf('Dubai Marina')).toBeLessThan(found.indexOf('Vida Residences Dubai Marina'));
    expect(found.indexOf('Umm Al Quwain Marina')).toBeLessThan(found.indexOf('Marina Gate'));
  });

  it('puts the exact name first, even before a city', async () => {
    const { json } = await sb.api('/autocomplete-location', { query: 'business bay' });
    expect(json.data[0]).toMatchObject({ id: 86, name: 'Business Bay' });
    expect((await names('Dubai Marina'))[0]).toBe('Dubai Marina');
    expect((await sb.api('/autocomplete-location', { query: 'downtown dubai' })).json.data[0].id).toBe(51);
  });

  it('returns at most 10, and [] when nothing matches', async () => {
    expect((await names('a')).length).toBeLessThanOrEqual(10);
    expect(await names('al')).toHaveLength(10);
    expect((await sb.api('/autocomplete-location', { query: 'atlantis of the north' })).json).toEqual({
      success: true,
      data: [],
    });
  });

  it('finds areas in several emirates', async () => {
    const ids = new Map<string, number>();
    for (const q of ['Al Reem Island', 'Al Majaz', 'Al Nuaimiya', 'Al Marjan Island', 'Al Faseel']) {
      const first = (await sb.api('/autocomplete-location', { query: q })).json.data[0];
      expect(first.name).toBe(q);
      ids.set(q, first.id);
    }
    expect(new Set(ids.values()).size).toBe(5);
  });
});
