// Location resolution through the real client and the sandbox's /autocomplete-location.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/index.js';
import { LocationResolver, pickBest } from '../../src/locations/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createLocationCacheRepo, openStore } from '../../src/store/index.js';

const DAY = 86_400_000;
let sandbox: Sandbox;
let api: ApiClient;

beforeAll(async () => {
  sandbox = createSandbox();
  api = new ApiClient({ baseUrl: await sandbox.listen(), key: sandbox.key });
});
afterAll(async () => {
  await api.close();
  await sandbox.close();
});
beforeEach(() => sandbox.clearRequests());

// Each resolver gets a fresh cache: the store's own repository, on an in-memory database.
const resolver = () => new LocationResolver(api, createLocationCacheRepo(openStore(':memory:')), DAY);
const lookups = () => sandbox.requests().filter((r) => r.path === '/autocomplete-location').length;

describe('resolving location words', () => {
  it('takes an exact name first', async () => {
    const r = await resolver().resolve('Business Bay');
    expect(r).toMatchObject({ kind: 'found', location: { id: 86, name: 'Business Bay' } });
  });

  it('resolves a prefix or a single word to the community the service ranks first, keeping the others as alternatives', async () => {
    const marina = await resolver().resolve('marina');
    expect(marina.kind).toBe('found');
    if (marina.kind !== 'found') return;
    expect(marina.location.id).toBe(50);
    expect(marina.alternatives.map((a) => a.name)).toContain('Umm Al Quwain Marina');
    expect(await resolver().resolve('downtown')).toMatchObject({ kind: 'found', location: { id: 51 } });
    expect(await resolver().resolve('busin')).toMatchObject({ kind: 'found', location: { id: 86 } });
  });

  it('picks the community before the buildings inside it', async () => {
    const r = await resolver().resolve('dubai marina');
    expect(r).toMatchObject({ kind: 'found', location: { id: 50 } });
    if (r.kind === 'found') expect(r.alternatives.some((a) => /Vida Residences/.test(a.name))).toBe(true);
  });

  it('spells out the abbreviations people type', async () => {
    expect(await resolver().resolve('JVC')).toMatchObject({
      kind: 'found',
      location: { name: 'Jumeirah Village Circle' },
    });
    expect(await resolver().resolve('jlt')).toMatchObject({
      kind: 'found',
      location: { name: 'Jumeirah Lake Towers' },
    });
  });

  it('ignores emoji and stray symbols among the area words', async () => {
    expect(await resolver().resolve('🏠 marina !')).toMatchObject({ kind: 'found', location: { id: 50 } });
  });

  it('returns the choices when several areas fit equally', async () => {
    // ("jumeirah" alone is an area of the sample market since issue 27.)
    const r = await resolver().resolve('jumeirah village');
    expect(r.kind).toBe('ambiguous');
    if (r.kind !== 'ambiguous') return;
    expect(r.choices.map((c) => c.name)).toEqual(
      expect.arrayContaining(['Jumeirah Village Circle', 'Jumeirah Village Triangle']),
    );
  });

  it('offers the closest names when nothing matches', async () => {
    const r = await resolver().resolve('marinaa view');
    expect(r.kind).toBe('none');
    if (r.kind !== 'none') return;
    expect(r.suggestions.map((s) => s.name)).toContain('Dubai Marina');
    expect(await resolver().resolve('zzyzx')).toEqual({ kind: 'none', suggestions: [] });
  });
});

describe('caching', () => {
  it('answers a repeated lookup from the cache, with no second upstream call', async () => {
    const r = resolver();
    await r.resolve('marina');
    await r.resolve('  MARINA ');
    expect(lookups()).toBe(1);
  });

  it('shares one upstream call between concurrent lookups of the same words', async () => {
    const r = resolver();
    await Promise.all([r.resolve('downtown'), r.resolve('downtown'), r.resolve('Downtown')]);
    expect(lookups()).toBe(1);
  });

  it('keeps answers in SQLite across a restart, until they expire', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'manzil-loc-')), 'm.db');
    let now = 1_000_000;
    const first = openStore(file);
    await new LocationResolver(
      api,
      createLocationCacheRepo(first, () => now),
      DAY,
    ).resolve('business bay');
    first.close();
    const second = openStore(file);
    const again = new LocationResolver(
      api,
      createLocationCacheRepo(second, () => now),
      DAY,
    );
    await again.resolve('business bay');
    expect(lookups()).toBe(1);
    now += DAY + 1;
    await again.resolve('business bay');
    expect(lookups()).toBe(2);
    second.close();
  });
});

describe('pickBest', () => {
  const loc = (id: number, name: string) => ({ id, name });
  it('does not pick an area whose name merely contains the words among equals', () => {
    const r = pickBest('al barsha', [loc(1, 'Al Barsha 1'), loc(2, 'Al Barsha South'), loc(3, 'Al Barsha 2')]);
    expect(r.kind).toBe('ambiguous');
  });
});
