// Arabic names of areas (issue 39): every spelling of the table resolves, through the parser and the real resolver over
// the sandbox, to the location_id of its English name; a near miss in Arabic is offered the area, named in Arabic too;
// and a reply to an Arabic request says how it was read. Through the real client, the sandbox, SQLite and the bot.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/index.js';
import { KNOWN_AREAS, LocationResolver } from '../../src/locations/index.js';
import { ARABIC_AREA_NAMES } from '../../src/query/arabic-areas.js';
import { parseCommand } from '../../src/query/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createLocationCacheRepo, openStore } from '../../src/store/index.js';
import { ask, button, buttons, cards, harness, removeTempDirs } from '../bot/harness.js';

let sandbox: Sandbox;
let api: ApiClient;
let resolver: LocationResolver;

beforeAll(async () => {
  sandbox = createSandbox();
  api = new ApiClient({ baseUrl: await sandbox.listen(0, '127.0.0.1'), key: sandbox.key });
  resolver = new LocationResolver(api, createLocationCacheRepo(openStore(':memory:')), 86_400_000);
});
afterAll(async () => {
  await api.close();
  await sandbox.close();
  removeTempDirs();
});

describe('the Arabic names table', () => {
  it('names at least 40 areas, each a known area of the shipped list, no spelling given to two areas', () => {
    expect(ARABIC_AREA_NAMES.length).toBeGreaterThanOrEqual(40);
    const known = new Set(KNOWN_AREAS.map((a) => a.name));
    expect(ARABIC_AREA_NAMES.map(([name]) => name).filter((n) => !known.has(n))).toEqual([]);
    const spellings = ARABIC_AREA_NAMES.flatMap(([, ...s]) => s);
    expect(new Set(spellings).size).toBe(spellings.length);
  });

  it('every spelling, in a command, resolves as its English name does in the sandbox', async () => {
    const wrong: string[] = [];
    // A name several communities share ("Jumeirah") asks which one, in English and in Arabic alike.
    const outcome = (r: Awaited<ReturnType<typeof resolver.resolve>>) =>
      r.kind === 'found'
        ? `found ${r.location.id}`
        : r.kind === 'ambiguous'
          ? `which one of ${r.choices.map((c) => c.id).join(', ')}`
          : r.kind;
    for (const [name, ...spellings] of ARABIC_AREA_NAMES) {
      const truth = await resolver.resolve(name);
      expect(['found', 'ambiguous'], name).toContain(truth.kind);
      for (const spelling of spellings) {
        const parsed = parseCommand(`/rent ${spelling} 2br`);
        const area = parsed.ok ? parsed.query.location : undefined;
        const found = area ? await resolver.resolve(area) : undefined;
        if (!found || outcome(found) !== outcome(truth)) wrong.push(`${spelling} (${name})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('offers a near miss in Arabic the area it is close to', async () => {
    for (const [typed, meant] of [
      ['دبي مرينا', 'Dubai Marina'],
      ['البرشا الجنوبية', 'Al Barsha South'],
      ['جزيره ياص', 'Yas Island'],
      ['الخليج التجارب', 'Business Bay'],
    ] as const) {
      const answer = await resolver.resolve(typed);
      expect(answer.kind, typed).toBe('none');
      expect(answer.kind === 'none' && answer.suggestions[0]?.name, typed).toBe(meant);
    }
  });
});

describe('in chat', () => {
  it('answers an Arabic request in English, saying in one line how it was read', async () => {
    const h = harness(sandbox);
    try {
      const reply = await ask(h.bot, 'إيجار شقة غرفتين دبي مارينا');
      expect(reply.text).toMatch(
        /^2-bedroom apartments for rent in Dubai Marina.*\(read as: rent apartment 2br Dubai Marina\)/,
      );
      expect(cards(reply).length).toBeGreaterThan(0);
      const mixed = await ask(h.bot, 'rent دبي مارينا 2br');
      expect(mixed.text).toMatch(/^2-bedroom homes for rent in Dubai Marina/);
      expect(cards(mixed).length).toBeGreaterThan(0);
    } finally {
      await h.close();
    }
  });

  it('asks "did you mean" about a near miss in Arabic, naming the area in Arabic too', async () => {
    const h = harness(sandbox);
    try {
      const reply = await ask(h.bot, 'إيجار شقة في دبي مرينا');
      expect(reply.text).toMatch(
        /^I couldn't find a place called "دبي مرينا"\. Did you mean Dubai Marina \(دبي مارينا\)/,
      );
      expect(buttons(reply).length).toBeGreaterThan(0);
      const chosen = await h.bot.handleAction({
        user: 'U1',
        channel: 'test:1',
        action: 'choose',
        token: button(reply, /^Dubai Marina$/).token,
      });
      expect(chosen.text).toMatch(/^Apartments for rent in Dubai Marina/);
    } finally {
      await h.close();
    }
  });

  it('reads a compare, small talk and help in Arabic', async () => {
    const h = harness(sandbox);
    try {
      // This bot has no compare part: the answer says so, which it says only to a request read as a compare.
      const compare = await ask(h.bot, 'قارن دبي مارينا و أبراج بحيرات جميرا غرفتين');
      expect(compare.text).toBe('Comparing areas is not enabled on this Manzil.');
      expect((await ask(h.bot, 'مساعدة')).text).toMatch(/^Manzil searches the UAE property market/);
      expect((await ask(h.bot, 'شكرا')).text).toBe((await ask(h.bot, 'thanks')).text);
    } finally {
      await h.close();
    }
  });
});
