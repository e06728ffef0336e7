// Lifecycle options of an alert (issue 40), a corpus of the ways they are said: terse (`… with back on market`, `…
// with gone`) and in sentences, beside how often and words in and out. What is left is the search, read as before;
// the option is kept on the alert, said in its summary (so in `/alerts list`) and in help.
import { describe, expect, it } from 'vitest';
import { readFrequency } from '../../src/alerts/frequency.js';
import { ALERTS_HELP } from '../../src/alerts/language.js';
import { lifecycleKey, readLifecycle, type LifecycleEvent } from '../../src/alerts/lifecycle.js';
import { alertsRig, ctx } from './helpers.js';

const CORPUS: [text: string, events: LifecycleEvent[], rest: string][] = [
  // Terse
  ['rent marina 2br with back on market', ['back'], 'rent marina 2br'],
  ['rent marina 2br with back on the market', ['back'], 'rent marina 2br'],
  ['rent marina 2br with gone', ['gone'], 'rent marina 2br'],
  ['rent marina 2br with back on market and gone', ['back', 'gone'], 'rent marina 2br'],
  ['rent marina 2br with gone and back on market', ['back', 'gone'], 'rent marina 2br'],
  ['rent marina 2br with gone with back on market', ['back', 'gone'], 'rent marina 2br'],
  ['rent marina 2br -shared with back on market', ['back'], 'rent marina 2br -shared'],
  ['buy "Business Bay" with gone', ['gone'], 'buy "Business Bay"'],
  ['rent marina with back on market daily at 9:00', ['back'], 'rent marina daily at 9:00'],
  // Sentences
  ["rent marina 2br, tell me when it's back on the market", ['back'], 'rent marina 2br'],
  ["rent jvc and when they're gone", ['gone'], 'rent jvc'],
  ['rent marina and let me know when one is sold or let', ['gone'], 'rent marina'],
  ['rent marina, tell me when listings are back on the market or gone', ['back', 'gone'], 'rent marina'],
  ["rent marina 2br, tell me when they're relisted", ['back'], 'rent marina 2br'],
  ['rent marina 2br, notify me when a listing is withdrawn', ['gone'], 'rent marina 2br'],
  // None: the words of a search stay the search's
  ['rent marina 2br under 120k', [], 'rent marina 2br under 120k'],
  ['rent villa with backyard in arabian ranches', [], 'rent villa with backyard in arabian ranches'],
  ['rent "Back Bay Towers"', [], 'rent "Back Bay Towers"'],
];

describe('lifecycle options', () => {
  it.each(CORPUS)('%s', (text, events, rest) => {
    expect(readLifecycle(text)).toEqual({ events, rest });
  });

  it('leave how often to be read after them', () => {
    const { rest } = readLifecycle('rent marina 2br with gone, send me a daily summary at 9');
    expect(readFrequency(rest)).toEqual({
      ok: true,
      frequency: { every: 'day', time: '09:00' },
      rest: 'rent marina 2br',
    });
    expect(lifecycleKey(['gone', 'back'])).toBe('back,gone');
  });

  it('are said in help', () => {
    expect(ALERTS_HELP).toContain('`/alerts add rent marina 2br with back on market`');
    expect(ALERTS_HELP).toContain('`with gone`');
  });

  it('are kept on the alert and said in its summary and in /alerts list; none by default', async () => {
    const rig = await alertsRig();
    const saved = await rig.commands.handle(ctx(), 'add rent marina 2br with back on market and gone');
    expect(saved.text).toMatch(
      /^Saved as alert #1: 2-bedroom homes for rent in Dubai Marina, with back on the market and gone \(let, sold or withdrawn\)\./,
    );
    const plain = await rig.commands.handle(ctx(), "add rent jvc 1br, tell me when it's back on the market");
    expect(plain.text).toMatch(
      /^Saved as alert #2: 1-bedroom homes for rent in Jumeirah Village Circle, with back on the market\./,
    );
    await rig.commands.handle(ctx(), 'add rent marina studio');
    expect((await rig.repo.byNumber('test:c1', 1))!.lifecycle).toBe('back,gone');
    expect((await rig.repo.byNumber('test:c1', 2))!.lifecycle).toBe('back');
    expect((await rig.repo.byNumber('test:c1', 3))!.lifecycle).toBe('');
    const list = (await rig.commands.handle(ctx(), 'list')).text;
    expect(list).toContain('#1 · 2-bedroom homes for rent in Dubai Marina, with back on the market and gone');
    expect(list).toMatch(/#3 · Studios for rent in Dubai Marina · instant/);
  });
});
