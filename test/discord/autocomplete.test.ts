// Discord's autocomplete of `query` (issue 17): the area is named as the location cache knows it ("in Dubai Marina"),
// "in jumeirah (4 areas match)" when several match, and the typed words when nothing is cached; never a call per
// keystroke. A real Bot on the real client, the sandbox and SQLite.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryChoices } from '../../adapters/discord/autocomplete.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { ask, harness, removeTempDirs, type Harness } from '../bot/harness.js';

let sandbox: Sandbox;
let h: Harness;

beforeAll(async () => {
  sandbox = createSandbox();
  await sandbox.listen();
  h = harness(sandbox);
  // Earlier searches leave their place lookups in the cache, as they do in a running Manzil.
  await ask(h.bot, '/rent marina');
  await ask(h.bot, '/rent jumeirah village'); // "jumeirah" alone is an area of the sample market since issue 27
});
afterAll(async () => {
  await h.close();
  await sandbox.close();
  removeTempDirs();
});
beforeEach(() => sandbox.clearRequests());

const choice = async (command: string, typed: string, location?: string) =>
  (await queryChoices(h.bot, { command, typed, location }))[0]?.name;

describe('the query option as it is typed', () => {
  it('names the area the location cache knows ("in marina" read as "in Dubai Marina")', async () => {
    expect(await choice('rent', 'marina 2br under 120k')).toBe(
      '2-bedroom homes for rent in Dubai Marina, up to AED 120,000 a year',
    );
    expect(await choice('buy', 'marina villa')).toBe('Villas for sale in Dubai Marina');
  });

  it('says how many areas match when the words are ambiguous', async () => {
    expect(await choice('rent', 'jumeirah village 2br')).toBe(
      '2-bedroom homes for rent in jumeirah village (2 places match)',
    );
  });

  it('keeps the words typed when nothing is cached for them', async () => {
    expect(await choice('rent', 'business bay 1br')).toBe('1-bedroom homes for rent in business bay');
  });

  it('never calls the service per keystroke', async () => {
    for (const typed of [
      'm',
      'ma',
      'mar',
      'mari',
      'marin',
      'marina',
      'marina 2',
      'marina 2b',
      'marina 2br',
      'deira',
      'jumeirah',
    ])
      await choice('rent', typed);
    expect(sandbox.requests()).toEqual([]);
  });

  it('still names an area picked in the location option over the words typed', async () => {
    expect(await choice('rent', 'marina 2br', '51:Downtown Dubai')).toBe(
      '2-bedroom homes for rent in Downtown Dubai (the location picked; "marina" left out)',
    );
  });
});
