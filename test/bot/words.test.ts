// Words in and out in a search (issue 40), through the bot against the sandbox: the words leave listings out of what
// the service returned, are said in the reply's "how I read it" line, are never sent, and a page they empty says so
// rather than "no results".
import { describe, expect, it } from 'vitest';
import { ask, cards, sandboxHarness } from './harness.js';

const rig = sandboxHarness();

const titles = (reply: Awaited<ReturnType<typeof ask>>) => cards(reply).map((c) => c.title.toLowerCase());
const lastSearch = () =>
  rig.sandbox
    .requests()
    .filter((r) => r.path.includes('search-rent'))
    .at(-1)!;

describe('words in and out in a search', () => {
  it('an excluded word removes the listings that carry it, and the header says so', async () => {
    // The hook of the first card's title ("Vacant 2 Bedroom Apartment | High Floor"): some cards carry it, some not.
    const all = titles(await ask(rig.h.bot, 'rent dubai marina 2br'));
    const hook = all[0]!.split('| ')[1]!;
    expect(all.filter((t) => !t.includes(hook)).length).toBeGreaterThan(0);

    const reply = await ask(rig.h.bot, `rent dubai marina 2br -"${hook}"`);
    expect(reply.blocks[0]).toMatchObject({
      kind: 'header',
      text: expect.stringContaining(`without "${hook}" (words Manzil checks in each listing)`),
    });
    const shown = titles(reply);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.filter((t) => t.includes(hook))).toEqual([]);
    // Never sent: the service was asked the search without its words.
    expect(Object.values(lastSearch().params).join(' ').toLowerCase()).not.toContain(hook);
  });

  it('a required word keeps only the listings that carry it', async () => {
    const hook = titles(await ask(rig.h.bot, 'rent dubai marina 2br'))[0]!.split('| ')[1]!;
    const shown = titles(await ask(rig.h.bot, `rent dubai marina 2br +"${hook}"`));
    expect(shown.length).toBeGreaterThan(0);
    for (const t of shown) expect(t).toContain(hook);
  });

  it('a page the words empty says the service had listings, not "no results"', async () => {
    // Every 2-bedroom listing's title says "2 Bedroom".
    const reply = await ask(rig.h.bot, 'rent dubai marina 2br without bedroom');
    expect(cards(reply)).toHaveLength(0);
    const said = reply.blocks.map((b) => ('text' in b ? b.text : '')).join('\n');
    expect(said).toMatch(/\d+ listings matched the area but every one was excluded by your words\./);
    expect(said).not.toMatch(/Nothing matches today/);
  });
});
