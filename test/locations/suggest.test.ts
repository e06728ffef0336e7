// Location suggestions as someone types: answered from cached prefixes, not one billed call per keystroke.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/index.js';
import { Bot } from '../../src/bot/index.js';
import { budgetLowFrom, LocationResolver, nameMatches, type LocationLookup } from '../../src/locations/index.js';
import { silentLogger } from '../../src/log.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createButtonStateRepo, createLocationCacheRepo, openStore } from '../../src/store/index.js';

const DAY = 86_400_000;
const MINUTE = 60_000;
let sandbox: Sandbox;
let api: ApiClient;

beforeAll(async () => {
  sandbox = createSandbox();
  api = new ApiClient({ baseUrl: await sandbox.listen(0, '127.0.0.1'), key: sandbox.key });
});
afterAll(async () => {
  await api.close();
  await sandbox.close();
});
beforeEach(() => sandbox.clearRequests());

const lookups = () =>
  sandbox
    .requests()
    .filter((r) => r.path === '/autocomplete-location')
    .map((r) => r.params.query);

function botOn(lookup: LocationLookup = api, now: () => number = Date.now) {
  const store = openStore(':memory:');
  const locations = new LocationResolver(lookup, createLocationCacheRepo(store, now, 'sandbox'), 7 * DAY);
  return {
    bot: new Bot({ api, locations, state: createButtonStateRepo(store, now, 'sandbox'), logger: silentLogger }),
    locations,
  };
}

/** What a person typed so far into a picker. */
const typing = (typed: string) => ({ user: 'U0ALICE', channel: 'slack:T0TEST:C0DEALS', typed });

/** "bu", "bus", ... up to the whole text, one keystroke at a time. */
const keystrokes = (text: string) => Array.from({ length: text.length - 1 }, (_, i) => text.slice(0, i + 2));

describe('suggestions while typing', () => {
  it('types "business bay" one keystroke at a time for at most two upstream calls', async () => {
    const { bot } = botOn();
    let last: { label: string }[] = [];
    for (const typed of keystrokes('business bay')) last = await bot.suggestLocations(typing(typed));
    expect(last.map((o) => o.label)).toEqual(['Business Bay']);
    expect(lookups().length).toBeLessThanOrEqual(2);
  });

  it('calls again when the shorter answer was cut at the service cap, then narrows locally', async () => {
    const { bot } = botOn();
    const found: string[][] = [];
    for (const typed of keystrokes('marina gate'))
      found.push((await bot.suggestLocations(typing(typed))).map((o) => o.label));
    // "ma" and "mar" fill the service's ten areas, so neither can answer the next; "mari" can answer everything after
    // it.
    expect(lookups()).toEqual(['ma', 'mar', 'mari']);
    expect(found.at(-1)).toEqual(['Marina Gate']);
    expect(found[3]).toEqual(expect.arrayContaining(['Dubai Marina', 'Marina Gate', 'Marina Promenade']));
  });

  it('answers the same narrowed list the service would', async () => {
    const { locations } = botOn();
    await locations.suggest('ju');
    const narrowed = await locations.suggest('jumeirah la');
    sandbox.clearRequests();
    const fresh = await botOn().locations.suggest('jumeirah la');
    expect(narrowed).toEqual(fresh);
    expect(narrowed.map((l) => l.name)).toEqual(['Jumeirah Lake Towers']);
  });

  it('skips the service when the budget is low, answering from the cache alone', async () => {
    let low = false;
    const { bot } = botOn({ call: (op, params) => api.call(op, params), budgetLow: () => low });
    await bot.suggestLocations(typing('ma')); // ten areas: not enough to answer "mari" for sure
    low = true;
    expect((await bot.suggestLocations(typing('mari'))).map((o) => o.label)).toEqual(
      expect.arrayContaining(['Dubai Marina']),
    );
    expect(await bot.suggestLocations(typing('downt'))).toEqual([]);
    expect(lookups()).toEqual(['ma']);
  });

  it('stops calling once the real client has fewer than ten calls left today', async () => {
    const limited = new ApiClient({ baseUrl: sandbox.url!, key: sandbox.key, budget: { perDay: 11, maxWaitMs: 0 } });
    try {
      const { bot } = botOn(limited);
      await bot.suggestLocations(typing('ma')); // ten left
      await bot.suggestLocations(typing('jum')); // nine left: low from now on
      expect(await bot.suggestLocations(typing('downt'))).toEqual([]);
      expect(lookups()).toEqual(['ma', 'jum']);
    } finally {
      await limited.close();
    }
  });

  it("reads a low budget from the client's budgetLeft(), whatever else it reports", () => {
    const low = (report: unknown) => budgetLowFrom({ budgetLeft: () => report })!();
    expect(low({ blockedForMs: 0 })).toBe(false);
    expect(low({ blockedForMs: 0, day: 500, month: 9000 })).toBe(false);
    expect(low({ blockedForMs: 1200 })).toBe(true);
    expect(low({ blockedForMs: 0, day: 3 })).toBe(true);
    expect(low({ blockedForMs: 0, month: 0 })).toBe(true);
    expect(low(undefined)).toBe(false);
    expect(budgetLowFrom({})).toBeUndefined();
  });

  it('matches names as autocomplete does: the start of the name, or of each word', () => {
    expect(nameMatches('Business Bay', 'business b')).toBe(true);
    expect(nameMatches('Vida Residences Dubai Marina', 'dubai mar')).toBe(true);
    expect(nameMatches('Dubai Marina', 'arina')).toBe(false);
  });
});

describe('what is cached, and for how long', () => {
  it('keeps an empty answer as long as a found one: gibberish typed again is no new call', async () => {
    let t = 1_000_000;
    const { locations } = botOn(api, () => t);
    expect(await locations.suggest('zq')).toEqual([]);
    await locations.resolve('marina');
    t += 6 * DAY;
    await locations.suggest('zq');
    await locations.resolve('marina');
    expect(lookups().filter((q) => q === 'zq')).toHaveLength(1);
    expect(lookups().filter((q) => q === 'marina')).toHaveLength(1);
    t += DAY + MINUTE; // a week on, both are asked again
    await locations.suggest('zq');
    await locations.resolve('marina');
    expect(lookups().filter((q) => q === 'zq')).toHaveLength(2);
    expect(lookups().filter((q) => q === 'marina')).toHaveLength(2);
  });

  it('sends the service at most 40 characters of a long text, and narrows its answer by the whole text', async () => {
    const { locations } = botOn();
    const long = `The Address Residences Dubai Opera ${'opera '.repeat(500)}`;
    expect((await locations.suggest(long)).map((l) => l.name)).toEqual(['The Address Residences Dubai Opera']);
    expect(lookups()).toEqual(['the address residences dubai opera opera']);
    expect(await locations.suggest(`${long} marina`)).toEqual([]); // narrowed locally: no second call
    expect(lookups()).toHaveLength(1);
  });

  it('never caches an answer whose data was null', async () => {
    let calls = 0;
    const server: Server = createServer((_req, res) => {
      calls++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, data: null }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const nullApi = new ApiClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      key: 'k-null-0001',
    });
    try {
      const locations = new LocationResolver(
        nullApi,
        createLocationCacheRepo(openStore(':memory:'), Date.now, 'x'),
        7 * DAY,
      );
      expect(await locations.lookup('marina')).toEqual([]);
      expect(await locations.lookup('marina')).toEqual([]);
      expect(calls).toBe(2);
    } finally {
      await nullApi.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
