// Talking to Manzil as to a person (issue 27): "hello", "thanks", "what can you do?" and their kin, in any casing and
// with any punctuation or emoji around them, get a short friendly answer with three commands to try, never "I don't
// know"; a request without a verb that says neither rent nor buy gets the question with a button for each. On a real
// Bot, the real client, the sandbox and SQLite.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/query/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { Reply } from '../../src/views/model.js';
import { button, buttons, harness, press, removeTempDirs, type Harness } from './harness.js';

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

const KINDS = {
  greeting: [
    'hi',
    'hey',
    'hello',
    'hiya',
    'howdy',
    'yo',
    'salam',
    'salaam',
    'assalamu alaikum',
    'marhaba',
    'ahlan',
    'good morning',
    'good afternoon',
    'good evening',
    'morning',
    'hey there',
    'hi there',
    'how are you',
    'مرحبا',
    'السلام عليكم',
  ],
  thanks: [
    'thanks',
    'thank you',
    'thx',
    'ty',
    'cheers',
    'many thanks',
    'thanks a lot',
    'thank you very much',
    'much appreciated',
    'shukran',
    'ok thanks',
    'great, thank you',
  ],
  capabilities: [
    'what can you do',
    'what do you do',
    'who are you',
    'help me',
    'can you help me',
    'how does this work',
    "what's this",
    'what can I ask',
    'how do I use this',
    'what else can you do',
  ],
} as const;
const OPENINGS = {
  greeting: /^Hello!/,
  thanks: /^You're welcome!/,
  capabilities: /^I'm Manzil: I search the UAE property market\./,
};

/** Each letter in upper or lower case as the flags say. */
const cased = (text: string, upper: readonly boolean[]) =>
  [...text].map((c, i) => (upper[i % Math.max(1, upper.length)] ? c.toUpperCase() : c.toLowerCase())).join('');

const decorated = fc.record({
  kind: fc.constantFrom('greeting', 'thanks', 'capabilities') as fc.Arbitrary<keyof typeof KINDS>,
  pick: fc.nat(),
  upper: fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }),
  before: fc.constantFrom('', ' ', '👋 ', '🙂', '... ', '@'),
  after: fc.constantFrom('', '!', '!!', '?', '??', '.', '...', ' :)', ' 🙏', '😊', ' 🏠!', ',', '?!'),
  address: fc.constantFrom('', ' manzil', ', Manzil'),
  slash: fc.boolean(),
});

const channel = 'test:1';
const immediate = (text: string) => h.bot.immediateReply({ user: 'U1', channel, text });
const bullets = (reply: Reply) => [...reply.text.matchAll(/^• (.+)$/gm)].map((m) => m[1]!);

describe('small talk', () => {
  it('property: greetings, thanks and "what can you do?", however written, get a friendly answer with three commands to try', () => {
    fc.assert(
      fc.property(decorated, ({ kind, pick, upper, before, after, address, slash }) => {
        const phrase = KINDS[kind][pick % KINDS[kind].length]!;
        const text = `${slash ? '/manzil ' : ''}${before}${cased(phrase, upper)}${address}${after}`;
        const reply = immediate(text);
        expect(reply, text).toBeDefined();
        expect(reply!.text, text).toMatch(OPENINGS[kind]);
        expect(reply!.text, text).not.toMatch(/I don't know|couldn't tell|Tell me what to look for/);
        expect(reply!.ephemeral, text).toBe(true);
        // Three commands, typed as where the person is: with the slash after a slash command, without in the terminal.
        const commands = bullets(reply!);
        expect(commands, text).toHaveLength(3);
        for (const command of commands) expect(command.startsWith('/'), `${text}: ${command}`).toBe(slash);
      }),
      { numRuns: 600 },
    );
  });

  it('every command offered is a search that runs', async () => {
    for (const slash of [true, false]) {
      const offered = bullets(immediate(slash ? '/manzil hello' : 'hello')!);
      expect(offered).toHaveLength(3);
      for (const command of offered) {
        const reply = await h.bot.handleCommand({ user: 'U1', channel, text: command });
        expect(reply.ephemeral, command).toBeUndefined();
        expect(
          reply.blocks.some((b) => b.kind === 'card'),
          command,
        ).toBe(true);
      }
    }
  });

  it('property: small talk with a request in it is the request, not small talk', () => {
    fc.assert(
      fc.property(
        decorated,
        fc.constantFrom(
          ['2 bed flat to rent in jlt', 'search-rent', 'jlt'],
          ['rent marina 2br', 'search-rent', 'marina'],
          ['buy downtown villa', 'search-buy', 'downtown'],
          ['trend marina', 'price-trend-of-location', 'marina'],
          ['find me a 3 bed villa for sale in arabian ranches', 'search-buy', 'arabian ranches'],
        ),
        ({ kind, pick, after }, [request, operation, location]) => {
          const text = `${KINDS[kind][pick % KINDS[kind].length]}${after} ${request}`;
          // A search needs the service, so there is no immediate reply: the command runs, read as the request alone.
          expect(immediate(text), text).toBeUndefined();
          expect(parseCommand(text), text).toMatchObject({ ok: true, query: { operation, location } });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('"help?" and "Help!" are help: every verb', () => {
    for (const text of ['help?', 'Help!', 'HELP 🙏', '/manzil help!'])
      expect(immediate(text)?.text, text).toMatch(/^Manzil searches the UAE property market\./);
  });
});

describe('to rent or to buy?', () => {
  it('asks privately with a button each, costs no call before one is pressed, and the one pressed runs', async () => {
    sandbox.clearRequests();
    const question = await h.bot.handleCommand({
      user: 'U1',
      channel,
      text: '/manzil most expensive 3 bed villa in arabian ranches',
    });
    expect(question.ephemeral).toBe(true);
    expect(question.text).toBe(
      'To rent or to buy? Choose one, or type `/rent "arabian ranches" villa 3 br most expensive` or `/buy "arabian ranches" villa 3 br most expensive`.',
    );
    expect(buttons(question).map((b) => b.label)).toEqual(['Rent', 'Buy']);
    // No search before a press: only the area is looked up, so each button carries it (issue 38).
    expect(sandbox.requests().filter((r) => r.path !== '/autocomplete-location')).toEqual([]);
    const rented = await press(h.bot, button(question, /^Rent$/));
    expect(rented.blocks[0]).toEqual({
      kind: 'header',
      text: '3-bedroom villas for rent in Arabian Ranches, most expensive first',
    });
    const bought = await press(h.bot, button(question, /^Buy$/));
    expect(bought.blocks[0]).toEqual({
      kind: 'header',
      text: '3-bedroom villas for sale in Arabian Ranches, most expensive first',
    });
  });

  it("with the area picked apart from the text (Discord's location option), the choice searches there", async () => {
    const question = await h.bot.handleCommand({
      user: 'U1',
      channel,
      text: '/manzil 2 bed townhouse',
      location: '45:Arabian Ranches',
    });
    expect(question.text).toMatch(/^To rent or to buy\?/);
    const bought = await press(h.bot, button(question, /^Buy$/));
    expect(bought.blocks[0]).toEqual({ kind: 'header', text: '2-bedroom townhouses for sale in Arabian Ranches' });
  });
});
