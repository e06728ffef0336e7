// "How many …" answers with a count (issue 39): a line under the summary, exact when every result was read (one page),
// "at least" what was read when the service has more pages (it gives no total for listings), never a made-up total.
import { describe, expect, it } from 'vitest';
import { ask, buttons, cards, sandboxHarness } from './harness.js';

const rig = sandboxHarness();

const countOf = (reply: { blocks: readonly { kind: string; text?: string }[] }) =>
  reply.blocks.find((b) => b.kind === 'text' && /^How many:/.test(b.text ?? ''))?.text;

describe('how many', () => {
  it.each([
    'how many villas for sale in palm jumeirah',
    'how many 2br flats to rent in dubai marina',
    'how many apartments for sale in jvc',
  ])('%s: "at least" the listings read, with Next for the rest', async (text) => {
    const reply = await ask(rig.h.bot, text);
    const line = countOf(reply);
    expect(line).toMatch(/^How many: at least \d+ listings; the service gives no total/);
    expect(buttons(reply).map((b) => b.label)).toContain('Next ▶');
    // The number is what one service page held: at least the cards on this chat page.
    expect(Number(/at least (\d+)/.exec(line!)![1])).toBeGreaterThanOrEqual(cards(reply).length);
  });

  it('a search whose results fit on one page is counted exactly: the number of cards shown', async () => {
    const reply = await ask(rig.h.bot, 'how many penthouses for sale in dubai marina');
    const shown = cards(reply).length;
    expect(shown).toBeGreaterThan(0);
    expect(buttons(reply).map((b) => b.label)).not.toContain('Next ▶');
    expect(countOf(reply)).toBe(`How many: ${shown} listings in all.`);
  });

  it('none is a count too: 0, with the usual word on what to do', async () => {
    const reply = await ask(rig.h.bot, 'how many villas to rent in jvc');
    expect(countOf(reply)).toBe('How many: 0 listings in all.');
    expect(cards(reply)).toHaveLength(0);
  });

  it('"how many 2br sold in marina last month" is transactions, its figures counting the sales', async () => {
    const reply = await ask(rig.h.bot, 'how many 2br sold in marina last month');
    expect(reply.blocks[0]).toMatchObject({
      kind: 'header',
      text: expect.stringMatching(/^Sold transactions in Dubai Marina/),
    });
    expect(JSON.stringify(reply.blocks)).toMatch(/\b\d+ sales\b/);
  });

  it('the same search without "how many" has no count line', async () => {
    expect(countOf(await ask(rig.h.bot, 'villas for sale in palm jumeirah'))).toBeUndefined();
  });
});
