// The sample market covers what teams ask about: every area the command language knows (src/query/known-areas.ts)
// is an area of the sandbox, found by its name, with homes to rent and to buy; the areas Dubai and Abu Dhabi teams ask
// about most also have commercial listings, off-plan projects and transactions. Through the sandbox's own HTTP API.
import { describe, expect, it } from 'vitest';
import { KNOWN_AREAS } from '../../src/locations/index.js';
import { useSandbox } from './helpers.js';

const s = useSandbox();

/** The ids of the sandbox's places named exactly so (any case). */
async function idsNamed(name: string): Promise<number[]> {
  const r = await s.api('/autocomplete-location', { query: name });
  expect(r.status, name).toBe(200);
  return (r.json.data as { id: number; name: string }[])
    .filter((l) => l.name.toLowerCase() === name.toLowerCase())
    .map((l) => l.id);
}

async function count(path: string, params: Record<string, string>): Promise<number> {
  const r = await s.api(path, params);
  expect(r.status, `${path} ${JSON.stringify(params)}`).toBe(200);
  const data = r.json.data;
  return Array.isArray(data) ? data.length : data.data.attributes.transactions.length;
}

/** Of an area's ids, the most listings found by one search. */
async function most(ids: readonly number[], path: string, extra: Record<string, string> = {}): Promise<number> {
  let best = 0;
  for (const id of ids) best = Math.max(best, await count(path, { location_id: String(id), ...extra }));
  return best;
}

describe('the sample market', () => {
  it('has every area of the command language, each with homes to rent and to buy', { timeout: 120_000 }, async () => {
    const missing: string[] = [];
    for (const area of KNOWN_AREAS) {
      const ids = await idsNamed(area.name);
      if (ids.length === 0 || (await most(ids, '/search-rent')) === 0 || (await most(ids, '/search-buy')) === 0)
        missing.push(area.name);
    }
    expect(missing).toEqual([]);
  });

  const mostAsked = [
    'Meydan City',
    'Dubai South',
    'Al Quoz',
    'Mohammed Bin Rashid City',
    'Jumeirah Village Triangle',
    'Dubai Sports City',
    'Al Furjan',
    'Town Square',
    'Deira',
    'Bur Dubai',
    'Al Maryah Island',
    'Masdar City',
  ];
  it(
    'has commercial listings for rent and sale, off-plan projects and transactions where teams ask most',
    { timeout: 60_000 },
    async () => {
      for (const name of mostAsked) {
        const ids = await idsNamed(name);
        expect(ids.length, name).toBeGreaterThan(0);
        expect(await most(ids, '/search-commercial-rent'), `${name} commercial rent`).toBeGreaterThan(0);
        expect(await most(ids, '/search-commercial-buy'), `${name} commercial sale`).toBeGreaterThan(0);
        expect(await most(ids, '/search-new-projects'), `${name} projects`).toBeGreaterThan(0);
        expect(await most(ids, '/get-get-transactions', { transaction_type: 'sold' }), `${name} sales`).toBeGreaterThan(
          0,
        );
        expect(
          await most(ids, '/get-get-transactions', { transaction_type: 'rented' }),
          `${name} lettings`,
        ).toBeGreaterThan(0);
      }
    },
  );
});
