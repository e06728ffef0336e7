// A question with buttons ("To rent or to buy?", "Did you mean 90,000?") leads somewhere (issue 38): its area is looked
// up before the question is asked, each button carries the area found (it never reads the typed words again), and a
// question whose area matches nothing at all offers no button that could only fail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { ask, buttons, harness, press, removeTempDirs, type Harness } from './harness.js';

let sandbox: Sandbox;
let h: Harness;

beforeAll(async () => {
  sandbox = createSandbox({ seed: 3 });
  await sandbox.listen();
  h = harness(sandbox);
});

afterAll(async () => {
  await h.close();
  await sandbox.close();
  removeTempDirs();
});

/** The sandbox's own first match for the words (its autocomplete), never through Manzil. */
async function areaOf(words: string): Promise<{ id: number; name: string }> {
  const res = await fetch(`${sandbox.url}/autocomplete-location?${new URLSearchParams({ query: words }).toString()}`, {
    headers: { 'x-gateway-key': sandbox.key },
  });
  const { id, name } = ((await res.json()) as { data: { id: number; name: string }[] }).data[0]!;
  return { id, name };
}

const rowOf = (token: string) =>
  JSON.parse(
    (
      h.store.sqlite.prepare('SELECT payload FROM button_state WHERE token = ?').get(token.split('.')[0]) as {
        payload: string;
      }
    ).payload,
  ) as { chosen?: { id?: number; name: string } };

describe('a question with buttons', () => {
  it.each([
    ['villa in arabian ranches', 'arabian ranches', /^Villas for (rent|sale) in Arabian Ranches/],
    ['downtown dubai 3br', 'downtown dubai', /^3-bedroom homes for (rent|sale) in Downtown Dubai/],
    ['rent jvc 1br under 90', 'jumeirah village circle', /^1-bedroom homes for rent in Jumeirah Village Circle/],
    ['buy business bay studio under 900', 'business bay', /^Studios for sale in Business Bay/],
  ])('%s: every button carries the area found and answers there', async (command, words, answered) => {
    const reply = await ask(h.bot, command);
    const offered = buttons(reply);
    expect(offered.length).toBeGreaterThan(0);
    const area = await areaOf(words);
    for (const b of offered) {
      expect(rowOf(b.token).chosen).toEqual(area);
      const result = await press(h.bot, b);
      expect(result.text).toMatch(answered);
    }
  });

  it.each(['qwxzv 2br', 'villa in zzqqyy', 'rent qwxzv under 90'])(
    '%s: an area matching nothing offers no button, and says so',
    async (command) => {
      const reply = await ask(h.bot, command);
      expect(buttons(reply)).toEqual([]);
      expect(reply.text).toMatch(/couldn't find a place called/);
    },
  );
});
