// Two areas in one search (issue 39): the bot asks which one, a button for each area, and each button runs the search
// in that area alone (through the bot core on the sandbox). No place named after both is ever looked up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readingOf } from '../../src/bot/pipeline/reading.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { ask, buttons, harness, press, removeTempDirs, type Harness } from './harness.js';

let sandbox: Sandbox;
let h: Harness;

beforeAll(async () => {
  sandbox = createSandbox();
  await sandbox.listen();
  h = harness(sandbox);
});
afterAll(async () => {
  await h.close();
  await sandbox.close();
  removeTempDirs();
});

describe('two areas in one search', () => {
  it('"rent marina or jlt 2br" asks which one; each button searches that area alone, with the filters kept', async () => {
    const reply = await ask(h.bot, 'rent marina or jlt 2br');
    expect(reply.text).toMatch(/one area at a time.*marina or jlt/i);
    const offered = buttons(reply);
    expect(offered.map((b) => b.label)).toEqual(['marina', 'jlt']);
    const marina = await press(h.bot, offered[0]!);
    expect(marina.text).toMatch(/2-bedroom.*for rent in Dubai Marina/i);
    const jlt = await press(h.bot, offered[1]!);
    expect(jlt.text).toMatch(/2-bedroom.*for rent in Jumeirah Lake Towers/i);
  });

  // Areas joined every way people join them, in several operations: two buttons, never a place "a b".
  const PAIRS = [
    ['marina', 'jlt'],
    ['jvc', 'jvt'],
    ['dubai marina', 'business bay'],
    ['arabian ranches', 'dubai hills'],
    ['downtown', 'al barsha'],
  ];
  const JOINS = [' or ', ', ', ' and ', ' & ', ' / ', ','];
  const FORMS = [
    'rent {a} 2br',
    'buy {a} villa under 5m',
    'rent office {a}',
    'transactions sold {a} last 3 months',
    'apartments for sale in {a}',
  ];
  it.each(PAIRS.flatMap(([a, b]) => JOINS.flatMap((j) => FORMS.map((f) => [f.replace('{a}', `${a}${j}${b}`), a, b]))))(
    '%s: a button for %s and one for %s',
    (text, a, b) => {
      const r = readingOf(text!) as { options?: { label: string; location: string }[] };
      expect(r.options?.map((o) => [o.label, o.location])).toEqual([
        [a, a],
        [b, b],
      ]);
    },
  );

  it.each([
    ['rent downtown, dubai 2br', 'downtown dubai'],
    ['rent jumeirah lake towers', 'jumeirah lake towers'],
    ['rent jvc, 2br, under 90k', 'jvc'],
    ['rent marina 2br', 'marina'],
  ])('%s: one area (%s)', (text, location) => {
    expect(readingOf(text)).toMatchObject({ location });
  });

  it('a compare keeps its meaning', () => {
    expect(readingOf('marina vs jlt')).toEqual({ route: 'compare', areas: ['marina', 'jlt'] });
    expect(readingOf('compare marina or jlt 2br')).toMatchObject({ route: 'compare', areas: ['marina', 'jlt'] });
  });
});
