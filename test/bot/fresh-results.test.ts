// Issue 26, "results as fresh as the alerts", in the bot: a search typed again past SEARCH_FRESH_S is asked again (and
// reused before it), and a listing the service says is gone says so on Details and leaves the answers held. A real Bot
// on a real ApiClient, the sandbox over 127.0.0.1, a real SQLite file.
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { paramsKey, pollKeyOf } from '../../src/alerts/index.js';
import { searchParams } from '../../src/bot/index.js';
import { parseCommand } from '../../src/query/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { Card, Reply } from '../../src/views/model.js';
import { ask, button, cards, harness, press, propertyIds, removeTempDirs, type Harness } from './harness.js';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;

let sandbox: Sandbox;
const open: Harness[] = [];
beforeAll(async () => {
  sandbox = createSandbox();
  await sandbox.listen(0, '127.0.0.1');
});
afterEach(async () => {
  while (open.length) await open.pop()!.close();
  sandbox.clearFaults();
  removeTempDirs();
});
afterAll(async () => {
  await sandbox.close();
});

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

const searchCalls = () => sandbox.requests().filter((r) => r.path === '/search-rent').length;
const idOf = (card: Card) => /property\/(\d+)/.exec(JSON.stringify(card))![1]!;
const textOf = (reply: Reply) => JSON.stringify(reply.blocks);

describe('a search typed again', () => {
  it('reuses the answer within SEARCH_FRESH_S and asks the service again past it; pages keep the longer reuse', async () => {
    const time = clock();
    const h = harness(sandbox, { bot: { now: time.now, searchFreshMs: 60 * SECOND } });
    open.push(h);
    const first = await ask(h.bot, 'rent marina');
    sandbox.clearRequests();
    time.advance(50 * SECOND);
    expect(propertyIds(await ask(h.bot, 'rent marina'))).toEqual(propertyIds(first));
    expect(searchCalls()).toBe(0);
    time.advance(11 * SECOND);
    const later = await ask(h.bot, 'rent marina');
    expect(searchCalls()).toBe(1);
    // Paging is not typing: a page seen 2 minutes ago is reused (the answer cache's 5 minutes).
    const next = await press(h.bot, button(later, /Next/));
    sandbox.clearRequests();
    time.advance(2 * MINUTE);
    await press(h.bot, button(next, /Previous/));
    expect(searchCalls()).toBe(0);
  });
});

describe('a listing gone from the market', () => {
  it('says so plainly on Details and leaves the page held; a failing service is said as one, and the listing stays', async () => {
    const h = harness(sandbox);
    open.push(h);
    const page = await ask(h.bot, 'rent marina');
    const card = cards(page)[0]!;
    const id = idOf(card);
    const details = card.buttons!.find((b) => b.label === 'Details')!;

    // The service failing is not the listing gone: the busy message, and the page still shows it.
    sandbox.addFault({ status: 503, path: '/property-details', count: 10 });
    const busy = await press(h.bot, details);
    expect(busy.text).toMatch(/busy/);
    expect(busy.text).not.toMatch(/no longer on the market/);
    sandbox.clearFaults();
    const after = await press(h.bot, button(await press(h.bot, button(page, /Next/)), /Previous/));
    expect(textOf(after)).toContain(`property/${id}`);

    expect(sandbox.withdraw(id)).toBe(true);
    const gone = await press(h.bot, details);
    expect(gone.ephemeral).toBe(true);
    expect(gone.text).toMatch(/^This listing is no longer on the market/);
    expect(textOf(gone)).not.toMatch(/property service|ref |error/i);
    // The next view of its page (Previous from page 2) no longer shows it, and still shows a full page.
    const next = await press(h.bot, button(page, /Next/));
    const back = await press(h.bot, button(next, /Previous/));
    expect(textOf(back)).not.toContain(`property/${id}`);
    expect(cards(back)).toHaveLength(cards(page).length);
  });
});

describe('the query an alert polls', () => {
  const AREA_IDS: Record<string, number> = { marina: 50, jvc: 51, 'downtown dubai': 52 };
  const commands = fc.record({
    verb: fc.constantFrom('rent', 'buy'),
    area: fc.constantFrom('marina', 'jvc', 'downtown dubai'),
    beds: fc.constantFrom('', 'studio', '1br', '2br', '3 bed'),
    price: fc.constantFrom('', 'under 120k', 'over 2m', '80k-150k'),
    sort: fc.constantFrom('', 'newest', 'cheapest', 'featured', 'most expensive'),
    page: fc.integer({ min: 1, max: 5 }),
  });

  it('is the one of every page and every sort of the same search, and of no other search', { timeout: 30_000 }, () => {
    fc.assert(
      fc.property(commands, commands, (a, b) => {
        const parse = (c: typeof a) => {
          const parsed = parseCommand([c.verb, c.area, c.beds, c.price, c.sort].filter(Boolean).join(' '));
          if (!parsed.ok) throw new Error(parsed.error);
          return parsed.query;
        };
        const [qa, qb] = [parse(a), parse(b)];
        const area = (c: typeof a) => ({ id: AREA_IDS[c.area]!, name: c.area });
        const typed = pollKeyOf(qa.operation, searchParams(qa, area(a), a.page));
        const saved = paramsKey({ query: qb, location: area(b) });
        const sameSearch = a.verb === b.verb && a.area === b.area && a.beds === b.beds && a.price === b.price;
        expect(typed === saved).toBe(sameSearch);
      }),
      { numRuns: 300 },
    );
  });
});
