// Every short form the language knows ("jbr", "difc", "mbr city", "dip 1"), typed in any case and with or without dots
// ("J.B.R."), is searched as its place however the service names it: by the short form ("JBR"), in full ("Jumeirah
// Beach Residence") or both ("Jumeirah Beach Residence (JBR)"). A fake autocomplete server names the area each way,
// beside a building named after it and another place; the real client and resolver ask it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/index.js';
import { LocationResolver, nameMatches } from '../../src/locations/index.js';
import { AREA_ABBREVIATIONS, foldAreaName, type AreaAbbreviation } from '../../src/query/abbreviations.js';
import { createLocationCacheRepo, openStore } from '../../src/store/index.js';

const AREA_ID = 777;
let names: { id: number; name: string }[] = [];
let server: Server;
let api: ApiClient;

beforeAll(async () => {
  server = createServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://x').searchParams.get('query') ?? '';
    const data = names
      .filter((l) => nameMatches(l.name, query))
      .map((l) => ({ ...l, coordinates: { lat: 25.1, lon: 55.2 } }));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, data }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api = new ApiClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, key: 'k-abbrev-0001' });
});
afterAll(async () => {
  await api.close();
  await new Promise((resolve) => server.close(resolve));
});

const title = (s: string) => s.replace(/\b\p{L}/gu, (c) => c.toUpperCase());
/** The short form as a service would print it: its initials in capitals ("MBR City"). */
const shortName = (a: AreaAbbreviation) =>
  a.form
    .split(' ')
    .map((w) => (a.initials.includes(w) ? w.toUpperCase() : title(w)))
    .join(' ');
/** The area in full: its name, or its spelled-out spelling when the name is the short form itself ("DIFC"). */
const fullName = (a: AreaAbbreviation) =>
  foldAreaName(a.area.name) === a.form
    ? title(a.area.spellings.find((s) => !a.initials.some((i) => s.split(' ').includes(i))) ?? a.area.name)
    : a.area.name;

const namings = {
  bare: shortName,
  full: fullName,
  bracketed: (a: AreaAbbreviation) => `${fullName(a)} (${shortName(a)})`,
};

/** The short form typed: each letter's case drawn, dots between an initial's letters or not. */
const typed = (a: AreaAbbreviation, upper: readonly boolean[], dotted: boolean) => {
  let k = 0;
  return a.form
    .split(' ')
    .map((w) => (dotted && a.initials.includes(w) ? `${w.split('').join('.')}.` : w))
    .join(' ')
    .replace(/\p{L}/gu, (c) => (upper[k++ % upper.length] ? c.toUpperCase() : c));
};

describe('short forms of areas', () => {
  it('knows the short forms teams type, each of one area', () => {
    for (const form of [
      'jvc',
      'jvt',
      'jlt',
      'jbr',
      'difc',
      'dso',
      'dip',
      'dsc',
      'impz',
      'mbr city',
      'dh2',
      'jge',
      'szr',
      'dwtc',
      'tecom',
      'mbz',
    ]) {
      expect(AREA_ABBREVIATIONS.has(form), form).toBe(true);
    }
  });

  it(
    'property: any short form, in any case and punctuation, finds its place however the service names it',
    { timeout: 120_000 },
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...AREA_ABBREVIATIONS.values()),
          fc.constantFrom(...(Object.keys(namings) as (keyof typeof namings)[])),
          fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }),
          fc.boolean(),
          async (abbreviation, naming, upper, dotted) => {
            const name = namings[naming](abbreviation);
            // The area, a building named after it (listed first, as a trap) and another place.
            names = [
              { id: 9001, name: `${name} Tower` },
              { id: AREA_ID, name },
              { id: 50, name: 'Dubai Marina' },
            ];
            const resolver = new LocationResolver(api, createLocationCacheRepo(openStore(':memory:')), 86_400_000);
            const text = typed(abbreviation, upper, dotted);
            const answer = await resolver.resolve(text);
            expect(answer, `"${text}" with the service naming it "${name}"`).toMatchObject({
              kind: 'found',
              location: { id: AREA_ID },
            });
          },
        ),
        { numRuns: 200 },
      );
    },
  );
});
