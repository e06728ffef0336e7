// A result is a snapshot (issue 38): while the sandbox's market moves between presses (listings arrive, go and change
// price), the pages of one result never repeat or skip a listing, what arrived is said and not interleaved, the ranges
// are contiguous, a typed `page N` is the chat's page, and `next` / `more` typed alone page the last result. The truth
// is read from the sandbox's own pages over HTTP, never through Manzil.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { Reply } from '../../src/views/model.js';
import { ask, button, buttons, cards, harness, removeTempDirs, type Harness } from './harness.js';

let sandbox: Sandbox;
const open: Harness[] = [];

beforeAll(async () => {
  sandbox = createSandbox({ seed: 7 });
  await sandbox.listen();
});

afterAll(async () => {
  for (const h of open.splice(0)) await h.close();
  await sandbox.close();
  removeTempDirs();
});

const MINUTE = 60_000;

/** A bot whose answer cache runs on a clock the test moves with the market (so the pages it reads are new ones). */
function make() {
  let t = 1_000_000;
  const h = harness(sandbox, { now: () => t, bot: { now: () => t } });
  open.push(h);
  return { h, pass: (ms: number) => (t += ms) };
}

/** The sandbox's own ids of a search, page by page, newest first (its default), as the service orders them now. */
async function truth(path: string, params: Record<string, string>, pages = 4): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; page <= pages; page++) {
    const qs = new URLSearchParams({ ...params, page: String(page) });
    const res = await fetch(`${sandbox.url}${path}?${qs.toString()}`, { headers: { 'x-gateway-key': sandbox.key } });
    const body = (await res.json()) as { data: { property_id: string }[] };
    if (body.data.length === 0) break;
    ids.push(...body.data.map((r) => r.property_id));
  }
  return ids;
}

/** The ids of a card: its own listing's first, then the copies folded into it, once. */
const cardIds = (card: unknown) => [
  ...new Set(Array.from(JSON.stringify(card).matchAll(/property\/(\d+)/g), (m) => m[1]!)),
];

/** The ids a page shows: each card's own listing and the copies folded into it. */
const shownIds = (reply: Reply) => cards(reply).flatMap(cardIds);

/** Each card's own listing, in the order shown. */
const ownIds = (reply: Reply) => cards(reply).map((c) => cardIds(c)[0]!);

/** The sandbox's own id for an area, from its autocomplete. */
async function areaId(words: string): Promise<string> {
  const qs = new URLSearchParams({ query: words });
  const res = await fetch(`${sandbox.url}/autocomplete-location?${qs.toString()}`, {
    headers: { 'x-gateway-key': sandbox.key },
  });
  return String(((await res.json()) as { data: { id: number }[] }).data[0]!.id);
}

const range = (reply: Reply): [number, number] | undefined => {
  const m = /Showing (\d+)–(\d+)/.exec(JSON.stringify(reply.blocks));
  return m ? [Number(m[1]), Number(m[2])] : undefined;
};

const said = (reply: Reply) => JSON.stringify(reply.blocks);

const SEARCHES: { command: string; path: string; area: string; params: Record<string, string> }[] = [
  { command: 'rent marina', path: '/search-rent', area: 'dubai marina', params: {} },
  { command: 'buy marina', path: '/search-buy', area: 'dubai marina', params: {} },
  { command: 'rent marina 1br', path: '/search-rent', area: 'dubai marina', params: { bedrooms: '1' } },
  { command: 'buy jvc', path: '/search-buy', area: 'jumeirah village circle', params: {} },
  { command: 'rent business bay', path: '/search-rent', area: 'business bay', params: {} },
];

describe('the pages of one result while the market moves', () => {
  it.each(SEARCHES)(
    '$command: no listing twice, none skipped, none that arrived meanwhile, contiguous ranges',
    async ({ command, path, area, params: filters }) => {
      const { h, pass } = make();
      const params = { location_id: await areaId(area), ...filters };
      const before = await truth(path, params);
      let reply = await ask(h.bot, command);
      const pages: string[][] = [];
      const owners: string[] = [];
      const ranges: [number, number][] = [];
      let newsSaid = false;
      for (let i = 0; i < 7; i++) {
        pages.push(shownIds(reply));
        owners.push(...ownIds(reply));
        ranges.push(range(reply)!);
        if (/new listings? since you searched/.test(said(reply))) newsSaid = true;
        if (!buttons(reply).some((b) => /Next/.test(b.label))) break;
        // Three market hours between presses (listings arrive, are withdrawn, change price) and past the cache's life.
        sandbox.advance(180);
        pass(6 * MINUTE);
        reply = await h.bot.handleAction({ user: 'U1', channel: 'test:1', ...action(button(reply, /Next/)) });
      }
      expect(pages.length).toBeGreaterThanOrEqual(4);
      const shown = pages.flat();
      expect(new Set(shown).size).toBe(shown.length);
      // Nothing listed after the search is interleaved, and the order is the one the service had at the search.
      const position = new Map(before.map((id, i) => [id, i]));
      expect(shown.filter((id) => !position.has(id))).toEqual([]);
      const order = owners.map((id) => position.get(id)!);
      expect(order).toEqual([...order].sort((a, b) => a - b));
      // Every listing of the search up to the last one shown was shown, or has left the market since.
      const now = new Set(await truth(path, params, 20));
      const passed = before.slice(0, Math.max(...order) + 1);
      expect(passed.filter((id) => !shown.includes(id) && now.has(id))).toEqual([]);
      // "Showing a–b" follows on from the page before.
      for (let i = 1; i < ranges.length; i++) expect(ranges[i]![0]).toBe(ranges[i - 1]![1] + 1);
      if (command.startsWith('rent marina') || command === 'buy marina') expect(newsSaid).toBe(true);
    },
  );

  it('listings withdrawn above the page leave none of the next page out (their rows moved up a page)', async () => {
    const { h, pass } = make();
    const params = { location_id: await areaId('downtown dubai') };
    const before = await truth('/search-rent', params);
    let reply = await ask(h.bot, 'rent downtown dubai');
    const shown = [...ownIds(reply)];
    for (let i = 0; i < 2; i++) {
      reply = await h.bot.handleAction({ user: 'U1', channel: 'test:1', ...action(button(reply, /Next/)) });
      shown.push(...ownIds(reply));
    }
    // Thirty shown: the last ones are on the service's second page. Eight shown listings of its first page go.
    for (const id of shown.slice(2, 10)) expect(sandbox.withdraw(id)).toBe(true);
    pass(6 * MINUTE);
    const next = await h.bot.handleAction({ user: 'U1', channel: 'test:1', ...action(button(reply, /Next/)) });
    const lastShown = before.indexOf(shown.at(-1)!);
    expect(ownIds(next)[0]).toBe(before[lastShown + 1]);
    expect(range(next)![0]).toBe(31);
  });

  it('Previous shows the page as it was, the listings gone since left out', async () => {
    const { h, pass } = make();
    const first = await ask(h.bot, 'buy business bay');
    const second = await h.bot.handleAction({ user: 'U1', channel: 'test:1', ...action(button(first, /Next/)) });
    const third = await h.bot.handleAction({ user: 'U1', channel: 'test:1', ...action(button(second, /Next/)) });
    sandbox.advance(240);
    pass(6 * MINUTE);
    const back = await h.bot.handleAction({ user: 'U1', channel: 'test:1', ...action(button(third, /Previous/)) });
    const now = new Set(await truth('/search-buy', { location_id: await areaId('business bay') }, 20));
    expect(shownIds(back)).toEqual(shownIds(second).filter((id) => now.has(id)));
    expect(range(back)?.[0]).toBe(range(second)?.[0]);
  });
});

describe('a typed page', () => {
  it.each([
    ['rent jlt 1br', 2, undefined],
    ['buy jvc', 3, { cardsPerPage: 4, buttonsPerCard: 2 }],
    ['rent downtown dubai 2br', 4, { cardsPerPage: 7, buttonsPerCard: 2 }],
  ] as const)('%s page %i is the chat page reached by Next', async (command, n, surface) => {
    const { h } = make();
    let reply = await ask(h.bot, command, surface);
    for (let i = 1; i < n; i++)
      reply = await h.bot.handleAction({ user: 'U1', channel: 'test:1', ...action(button(reply, /Next/)) });
    const typed = await ask(h.bot, `${command} page ${n}`, surface);
    const per = surface?.cardsPerPage ?? 10;
    expect(range(typed)).toEqual([(n - 1) * per + 1, (n - 1) * per + cards(reply).length]);
    expect(shownIds(typed)).toEqual(shownIds(reply));
    // Its Previous leads to the page before, numbered on.
    const back = await h.bot.handleAction({ user: 'U1', channel: 'test:1', ...action(button(typed, /Previous/)) });
    expect(range(back)?.[0]).toBe((n - 2) * per + 1);
  });

  it('too deep to reach in a few calls says how far a typed page goes, and calls nothing', async () => {
    const { h } = make();
    await ask(h.bot, 'rent marina');
    sandbox.clearRequests();
    const reply = await ask(h.bot, 'rent marina page 40');
    expect(reply.ephemeral).toBe(true);
    expect(reply.text).toMatch(/goes as far as page 10/);
    expect(sandbox.requests().filter((r) => r.path !== '/autocomplete-location')).toEqual([]);
  });
});

describe('next and more typed alone', () => {
  it('page the last result of the conversation, and only of that one', async () => {
    const { h } = make();
    const first = await ask(h.bot, 'buy downtown dubai');
    const pressed = await h.bot.handleAction({ user: 'U1', channel: 'test:1', ...action(button(first, /Next/)) });
    // Typed after the first page again (a search typed anew), `next` is its second page, as the button shows it.
    const again = await ask(h.bot, 'buy downtown dubai');
    const next = await ask(h.bot, 'next');
    expect(next.ephemeral).toBeFalsy();
    expect(shownIds(next)).toEqual(shownIds(pressed));
    expect(range(next)).toEqual(range(pressed));
    const more = await ask(h.bot, 'more');
    expect(range(more)?.[0]).toBe(range(next)![1] + 1);
    expect(shownIds(more).filter((id) => shownIds(again).includes(id) || shownIds(next).includes(id))).toEqual([]);
    // Another conversation has no result to page.
    const elsewhere = await h.bot.handleCommand({ user: 'U1', channel: 'test:2', text: 'next' });
    expect(elsewhere.text).toMatch(/no result to page/);
    expect(elsewhere.text).not.toMatch(/I don't know/);
  });
});

const action = (b: { action: string; token: string }) => ({ action: b.action, token: b.token });
