// The words of a personal alert: `/alerts add me …`, the sentences that say the same ("alert me privately", "DM me
// new 2br in marina"), and `pause me 2` for one's own alert; each reads back as the command that says it.
import { describe, expect, it } from 'vitest';
import { alertCommandText, parseAlertCommand } from '../../src/alerts/language.js';
import { personalAlertRequest } from '../../src/bot/requests.js';
import { parseCommand } from '../../src/query/index.js';

const add = (search: string, to?: 'me') => ({ kind: 'alert', sub: 'add', search, ...(to ? { to } : {}) });

describe('personal alerts in the command language', () => {
  it.each([
    ['add me rent marina 2br', 'rent marina 2br'],
    ['add for me: rent jvc under 80k', 'rent jvc under 80k'],
    ['add alert me privately rent marina 2br', 'rent marina 2br'],
    ['add rent marina 2br privately', 'rent marina 2br'],
    ['add DM me rent 2br in marina', 'rent 2br in marina'],
    ['add rent 2br in marina, dm me', 'rent 2br in marina'],
    ['add rent marina to my DMs', 'rent marina'],
    ['add just for me rent business bay', 'rent business bay'],
  ])('`/alerts %s` is an alert to the person, watching "%s"', (text, search) => {
    const c = parseAlertCommand(text);
    expect(c).toEqual(add(search, 'me'));
    expect(alertCommandText(c as never)).toBe(`/alerts add me ${search}`);
    // What is watched is the search without the personal words.
    expect(parseCommand(search).ok).toBe(true);
  });

  it.each(['add rent marina 2br', 'add meydan rent', 'add rent memorial'])(
    '`/alerts %s` stays an alert to the channel',
    (text) => {
      expect(parseAlertCommand(text)).toEqual(add(text.slice(4)));
    },
  );

  it('names one of the person’s own alerts by `me <n>`, and reads back so', () => {
    for (const sub of ['pause', 'resume', 'remove', 'test'] as const) {
      const c = parseAlertCommand(`${sub} me 2`);
      expect(c).toEqual({ kind: 'alert', sub, number: 2, to: 'me' });
      expect(alertCommandText(c as never)).toBe(`/alerts ${sub} me 2`);
      expect(parseAlertCommand(`${sub} 2`)).toEqual({ kind: 'alert', sub, number: 2 });
    }
    expect(parseAlertCommand('pause me')).toEqual({
      refused: 'Which alert? Give its number: `/alerts pause 2` (see `/alerts list`).',
    });
  });

  it('reads a sentence asking for an alert to one’s DMs as `/alerts add me …`', () => {
    expect(personalAlertRequest('DM me new 2br in marina')).toBe('add me new 2br in marina');
    expect(personalAlertRequest('please dm me rent 2br in marina')).toBe('add me rent 2br in marina');
    expect(personalAlertRequest('alert me privately about rent jvc')).toBe('add me rent jvc');
    expect(personalAlertRequest('message me privately when rent marina 2br under 120k')).toBe(
      'add me rent marina 2br under 120k',
    );
    // "alert me" alone, and searches, are not taken for it.
    expect(personalAlertRequest('alert me about rent jvc')).toBeUndefined();
    expect(personalAlertRequest('rent 2br in marina')).toBeUndefined();
    expect(parseAlertCommand(personalAlertRequest('DM me rent 2br in marina')!)).toEqual(
      add('rent 2br in marina', 'me'),
    );
  });
});
