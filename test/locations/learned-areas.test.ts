// Every name the location lookup has answered is a known area (issue 17), across restarts: the store's location cache
// is read back at start, so the parser reads those names as areas before filter words, and "did you mean" offers them.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/index.js';
import { LocationResolver } from '../../src/locations/index.js';
import { parseCommand } from '../../src/query/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createLocationCacheRepo, openStore } from '../../src/store/index.js';

const DAY = 86_400_000;
let sandbox: Sandbox;
let api: ApiClient;

beforeAll(async () => {
  sandbox = createSandbox();
  api = new ApiClient({ baseUrl: await sandbox.listen(), key: sandbox.key, retry: { attempts: 1 } });
});
afterAll(async () => {
  await api.close();
  await sandbox.close();
});

const lookups = () => sandbox.requests().filter((r) => r.path === '/autocomplete-location').length;
const areaOf = (text: string) => {
  const result = parseCommand(text);
  return result.ok ? result.query.location : result.error;
};

describe('names the lookup answered, kept across restarts', () => {
  it('are read back from the store at start: the parser reads them whole, and "did you mean" offers them', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'manzil-places-')), 'm.db');
    // An earlier run's answer, as its resolver left it in the location cache (a name made of filter words and its own).
    const before = openStore(path);
    await createLocationCacheRepo(before, Date.now, 'svc').put(
      'quasar',
      [{ id: 9901, name: 'Quasar Pool Villas', type: 'building' }],
      DAY,
    );
    // Answers of another service are never taught.
    await createLocationCacheRepo(before, Date.now, 'other').put(
      'nebula',
      [{ id: 9902, name: 'Nebula Studio Gardens', type: 'building' }],
      DAY,
    );
    before.close();
    expect(areaOf('/rent quasar pool villas 2br')).toBe('quasar');

    // The restart: a new process opens the same file.
    const store = openStore(path);
    const resolver = new LocationResolver(api, createLocationCacheRepo(store, Date.now, 'svc'), DAY);
    await resolver.ready;
    expect(areaOf('/rent quasar pool villas 2br')).toBe('quasar pool villas');
    expect(areaOf('/rent nebula studio gardens')).toBe('nebula gardens');

    // A misspelling the service does not know is offered the remembered name, id and all.
    const resolution = await resolver.resolve('quasar pol villas');
    expect(resolution).toMatchObject({ kind: 'none', suggestions: [{ id: 9901, name: 'Quasar Pool Villas' }] });
    store.close();
  });

  it('the store lists every answer of its service, newest first, damaged rows left out', async () => {
    let now = 1_000;
    const store = openStore(':memory:');
    const repo = createLocationCacheRepo(store, () => now, 'svc');
    await repo.put('a', [{ id: 1, name: 'A' }], 10);
    now = 2_000; // the first has expired by now: a name once answered is still an area
    await repo.put('b', [{ id: 2, name: 'B' }], DAY);
    store.sqlite
      .prepare(
        "INSERT INTO location_cache (service, query, results, fetched_at, expires_at) VALUES ('svc', 'c', 'not json', 1500, 9999999)",
      )
      .run();
    expect(await repo.answers()).toEqual([[{ id: 2, name: 'B' }], [{ id: 1, name: 'A' }]]);
    expect(await repo.answers(1)).toEqual([[{ id: 2, name: 'B' }]]);
    store.close();
  });

  it('teaches the parser each new answer as it comes', async () => {
    const resolver = new LocationResolver(api, createLocationCacheRepo(openStore(':memory:')), DAY);
    await resolver.resolve('shoreline');
    // "Shoreline Apartments" (a building on the Palm) is no longer "apartments in shoreline".
    expect(parseCommand('/rent shoreline apartments 2br')).toMatchObject({
      ok: true,
      query: { location: 'shoreline apartments', params: { bedrooms: '2' } },
    });
  });

  it('answers from the cache alone when asked for a cached resolution, never calling the service', async () => {
    const resolver = new LocationResolver(api, createLocationCacheRepo(openStore(':memory:')), DAY);
    await resolver.resolve('marina');
    sandbox.clearRequests();
    expect(await resolver.cached('marina')).toMatchObject({
      kind: 'found',
      location: { id: 50, name: 'Dubai Marina' },
    });
    expect(await resolver.cached('business')).toBeUndefined();
    expect(lookups()).toBe(0);
  });
});
