// The state behind the bot's buttons, through the real Bot, the sandbox and a SQLite file: one row per reply,
// short tokens, versioned payloads (older ones migrated or refused politely), scoped by service, surfaces kept.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseCommand, type Query } from '../../src/query/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createButtonStateRepo } from '../../src/store/index.js';
import {
  ask,
  button,
  buttonRows,
  buttons,
  cards,
  harness,
  press,
  propertyIds,
  removeTempDirs,
  tempDbPath,
  type Harness,
} from './harness.js';

let sandbox: Sandbox;
const open: Harness[] = [];
const make = (...args: Parameters<typeof harness> extends [unknown, ...infer R] ? R : never) => {
  const h = harness(sandbox, ...args);
  open.push(h);
  return h;
};

beforeAll(async () => {
  sandbox = createSandbox();
  await sandbox.listen(0, '127.0.0.1');
});
afterEach(async () => {
  while (open.length) await open.pop()!.close();
  removeTempDirs();
});
afterAll(async () => {
  await sandbox.close();
});

const query = (text: string): Query => {
  const parsed = parseCommand(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.query;
};
const MARINA = { id: 50, name: 'Dubai Marina' };

describe('fetching and presenting', () => {
  it('fetches a search without writing any button state; a reply stores one row for all its buttons', async () => {
    const { bot, store } = make();
    const result = await bot.search(query('rent marina'), MARINA, 1);
    expect(result.records.length).toBeGreaterThan(10);
    expect(buttonRows(store).n).toBe(0);

    const reply = await ask(bot, 'rent marina');
    // Previous/Next, Save, ten Details and the Refine picker: one row behind all of them.
    expect(buttons(reply).length).toBeGreaterThanOrEqual(12);
    expect(buttonRows(store).n).toBe(1);
    const rows = new Set(buttons(reply).map((b) => b.token.split('.')[0]));
    expect(rows.size).toBe(1);
  });

  it('writes one row for 20 identical searches in one channel, whose buttons all work; another channel gets its own', async () => {
    const { bot, store } = make();
    const replies = [];
    for (let i = 0; i < 20; i++) replies.push(await ask(bot, 'rent marina 2br'));
    expect(buttonRows(store).n).toBe(1);
    expect(new Set(replies.map((r) => button(r, /Next/).token)).size).toBe(1);
    const next = await press(bot, button(replies[0]!, /Next/));
    expect(next.text).toMatch(/2-bedroom homes for rent in Dubai Marina/);
    expect(cards(next).length).toBeGreaterThan(0);
    // The next page's own row, and the same search in another channel: one more each.
    expect(buttonRows(store).n).toBe(2);
    const elsewhere = await bot.handleCommand({ user: 'U1', channel: 'test:2', text: 'rent marina 2br' });
    expect(buttonRows(store).n).toBe(3);
    expect(
      await bot.handleAction({ user: 'U1', channel: 'test:1', action: 'page', token: button(elsewhere, /Next/).token }),
    ).toMatchObject({
      text: expect.stringMatching(/expired/),
    });
  });

  it('stores nothing for a reply without buttons', async () => {
    const { bot, store } = make();
    const reply = await ask(bot, 'location marina');
    expect(reply.ephemeral).toBeFalsy();
    expect(buttons(reply)).toEqual([]);
    expect(buttonRows(store).n).toBe(0);
  });

  it('gives tokens that fit a Discord custom_id with the adapter prefix', async () => {
    const { bot } = make();
    const reply = await ask(bot, 'rent marina');
    for (const b of buttons(reply)) {
      expect(b.token).toMatch(/^[A-Za-z0-9_-]{22}\.(n|p|s|sm|d\d{1,2}|l\d{1,2})$/);
      expect(`manzil:${b.action}:${b.token}`.length).toBeLessThan(100);
    }
    const picker = reply.blocks.find((b) => b.kind === 'location-picker');
    expect(picker && picker.kind === 'location-picker' ? picker.token : '').toMatch(/^[A-Za-z0-9_-]{22}\.r$/);
  });

  it('pages with Next and Previous, and each Details button shows its own card', async () => {
    const { bot } = make();
    const first = await ask(bot, 'rent marina');
    const next = await press(bot, button(first, /Next/));
    expect(next.replaceOriginal).toBe(true);
    expect(propertyIds(next).some((id) => propertyIds(first).includes(id))).toBe(false);
    const back = await press(bot, button(next, /Previous/));
    expect(propertyIds(back)).toEqual(propertyIds(first));

    const fourth = cards(first)[3]!;
    const details = await press(bot, fourth.buttons![0]!);
    expect(details.ephemeral).toBe(true);
    const id = /property\/(\d+)/.exec(JSON.stringify(fourth))![1]!;
    expect(details.text).toBe(`Property ${id}`);
  });
});

describe('the surface the adapter gives', () => {
  it('lays out ten cards with their buttons by default', async () => {
    const { bot } = make();
    const reply = await ask(bot, 'rent marina');
    expect(cards(reply)).toHaveLength(10);
    // Details, then the listing agent's listings (issue 27).
    expect(
      cards(reply).every(
        (c) => c.buttons?.[0]?.label === 'Details' && c.buttons.slice(1).every((b) => b.label === "Agent's listings"),
      ),
    ).toBe(true);
  });

  it('shows as many cards as the surface holds, keeps each card within its buttons, and Next remembers it', async () => {
    const { bot } = make();
    const reply = await ask(bot, 'rent marina', { cardsPerPage: 4, buttonsPerCard: 1 });
    expect(cards(reply)).toHaveLength(4);
    for (const c of cards(reply)) expect((c.buttons?.length ?? 0) + (c.links?.length ?? 0)).toBeLessThanOrEqual(1);
    expect(JSON.stringify(reply.blocks)).toContain('Showing 1–4');
    // The press comes without a surface (as from an old adapter): the stored one still lays the page out.
    const next = await press(bot, button(reply, /Next/));
    expect(cards(next)).toHaveLength(4);
    expect(JSON.stringify(next.blocks)).toContain('Showing 5–8');
  });
});

describe('payloads from other releases', () => {
  const legacy = (h: Harness, kind: string, payload: unknown) =>
    createButtonStateRepo(h.store, Date.now, '').save(kind, payload);

  it('migrates the unversioned buttons of the previous release', async () => {
    const h = make();
    const q = query('rent marina');
    const page2 = await press(h.bot, {
      label: 'Next',
      action: 'page',
      token: await legacy(h, 'search', { query: q, location: MARINA, page: 1, offset: 10 }),
    });
    expect(page2.replaceOriginal).toBe(true);
    expect(JSON.stringify(page2.blocks)).toContain('Showing 11–20');

    const first = await ask(h.bot, 'rent marina');
    const id = /property\/(\d+)/.exec(JSON.stringify(cards(first)[0]))![1]!;
    expect(
      (
        await press(h.bot, {
          label: 'Details',
          action: 'details',
          token: await legacy(h, 'details', { propertyId: id }),
        })
      ).text,
    ).toBe(`Property ${id}`);
    const saved = await press(h.bot, {
      label: 'Save',
      action: 'save',
      token: await legacy(h, 'save', { query: q, location: MARINA }),
    });
    expect(saved.text).toMatch(/Alerts are not enabled/); // read as a save (this bot has no alerts), not refused as old
    const chose = await press(h.bot, {
      label: 'Dubai Marina',
      action: 'choose',
      token: await legacy(h, 'choose', { query: q, location: MARINA }),
    });
    expect(chose.text).toMatch(/Dubai Marina/);
    const refined = await h.bot.handlePick({
      user: 'U1',
      channel: 'test:1',
      token: await legacy(h, 'refine', { query: q }),
      value: '51:Downtown Dubai',
    });
    expect(refined.text).toMatch(/Downtown Dubai/);
  });

  it('on a real service, answers a button from before state was scoped as expired and sends nothing upstream', async () => {
    // Saved on the sandbox before the service column: its ids are sample ids, never to reach a paid service.
    const dbPath = tempDbPath();
    const before = make({ dbPath, service: 'sandbox' });
    const q = query('rent marina');
    const tokens = [
      await createButtonStateRepo(before.store, Date.now, '').save('search', {
        query: q,
        location: MARINA,
        page: 1,
        offset: 10,
      }),
      await createButtonStateRepo(before.store, Date.now, '').save('details', { propertyId: '101' }),
    ];
    const live = make({ dbPath, service: 'https://api.example.test' });
    sandbox.clearRequests();
    for (const [label, action, token] of [
      ['Next', 'page', tokens[0]!],
      ['Details', 'details', tokens[1]!],
    ] as const) {
      const reply = await press(live.bot, { label, action, token });
      expect(reply.ephemeral).toBe(true);
      expect(reply.text).toBe('That button has expired. Run the command again to get fresh results.');
    }
    expect(sandbox.requests()).toEqual([]);
  });

  it('refuses politely what it cannot read, and sends nothing upstream', async () => {
    const h = make();
    sandbox.clearRequests();
    const refusals = [
      await legacy(h, 'search', { query: { operation: 'search-rent', text: 'rent 2 bed marina' }, page: 1, offset: 0 }),
      await legacy(h, 'details', { id: 5 }),
      await legacy(h, 'search', 'rent marina'),
    ];
    h.store.sqlite.prepare(`UPDATE button_state SET payload = '{not json' WHERE token = ?`).run(refusals[2]);
    for (const token of refusals) {
      const reply = await press(h.bot, { label: 'Next', action: 'page', token });
      expect(reply.ephemeral).toBe(true);
      expect(reply.text).toBe('That button is from an older version of Manzil. Run the command again.');
    }
    // A row a later release wrote, and a suffix this row does not have.
    const newer = await createButtonStateRepo(h.store, Date.now, 'sandbox').save('page', { v: 2, cursor: 'abc' });
    expect((await press(h.bot, { label: 'Next', action: 'page', token: `${newer}.n` })).text).toMatch(
      /no longer supported/,
    );
    const reply = await ask(h.bot, 'rent marina 2br under 120k');
    const row = button(reply, /Save/).token.split('.')[0]!;
    expect((await press(h.bot, { label: 'Next', action: 'page', token: `${row}.n` })).text).toMatch(
      /no longer supported/,
    );
    expect((await press(h.bot, { label: 'Details', action: 'details', token: `${row}.d99` })).text).toMatch(
      /no longer supported/,
    );
    expect(sandbox.requests().filter((r) => r.path !== '/autocomplete-location' && r.path !== '/search-rent')).toEqual(
      [],
    );
  });

  it('never follows a tampered row: a page position past the bound is refused', async () => {
    const h = make();
    const reply = await ask(h.bot, 'rent marina');
    const row = button(reply, /Next/).token.split('.')[0]!;
    const stored = h.store.sqlite.prepare('SELECT payload FROM button_state WHERE token = ?').get(row) as {
      payload: string;
    };
    const payload = JSON.parse(stored.payload) as { next: { page: number } };
    payload.next.page = 5000;
    h.store.sqlite.prepare('UPDATE button_state SET payload = ? WHERE token = ?').run(JSON.stringify(payload), row);
    sandbox.clearRequests();
    const refused = await press(h.bot, button(reply, /Next/));
    expect(refused.ephemeral).toBe(true);
    expect(sandbox.requests()).toEqual([]);
  });
});

describe('state scoped by service', () => {
  it('does not load a token saved under another service, after a restart on the same file', async () => {
    const dbPath = tempDbPath();
    const sandboxBot = make({ dbPath, service: 'sandbox' });
    const next = button(await ask(sandboxBot.bot, 'rent marina'), /Next/);
    await open.pop()!.close();
    const live = make({ dbPath, service: 'https://api.example.test' });
    const reply = await press(live.bot, next);
    expect(reply.text).toBe('That button has expired. Run the command again to get fresh results.');
    const again = make({ dbPath, service: 'sandbox' });
    expect((await press(again.bot, next)).replaceOriginal).toBe(true);
  });
});

describe('asking which area', () => {
  it('asks only the person who typed, and posts the chosen search for the channel', async () => {
    const { bot, store } = make();
    const reply = await ask(bot, 'rent jumeirah village 1br'); // "jumeirah" alone is an area of the sample market since issue 27
    expect(reply.text).toMatch(/Which one did you mean/);
    expect(reply.ephemeral).toBe(true);
    const choices = buttons(reply);
    expect(choices.length).toBeGreaterThan(1);
    expect(buttonRows(store).n).toBe(1);
    const chosen = await press(bot, choices[1]!);
    expect(chosen.ephemeral).toBeFalsy();
    expect(chosen.replaceOriginal).toBeFalsy();
    expect(chosen.text).toContain(choices[1]!.label);
  });
});

describe('page numbers', () => {
  it('refuses a page past 100 with a friendly message and no call', async () => {
    const { bot } = make();
    sandbox.clearRequests();
    const reply = await ask(bot, 'rent marina page 101');
    expect(reply.ephemeral).toBe(true);
    expect(reply.text).toMatch(/first 100 pages/);
    expect(sandbox.requests()).toEqual([]);
    expect((await ask(bot, 'rent marina page 2')).ephemeral).toBeFalsy();
    expect((await ask(bot, 'rent marina page 100')).text).not.toMatch(/first 100 pages/);
  });
});
