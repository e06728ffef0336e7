// How often an alert posts, read from `/alerts add` and `/alerts edit` words, terse and as sentences (issue 40), and
// quiet hours read and placed in a time zone.
import { describe, expect, it } from 'vitest';
import { parseFrequency, parseQuiet, quietUntil, readFrequency } from '../../src/alerts/frequency.js';
import { alertCommandText, parseAlertCommand } from '../../src/alerts/language.js';
import { alertsRig, ctx } from './helpers.js';

const DAILY_9 = { every: 'day', time: '09:00' };
const SUNDAY_8 = { every: 'week', day: 0, time: '08:00' };

describe("an alert's frequency", () => {
  it.each([
    ['rent marina 2br daily at 9:00', DAILY_9, 'rent marina 2br'],
    ['rent marina 2br weekly on sunday at 8:00', SUNDAY_8, 'rent marina 2br'],
    ['rent marina 2br, send me a daily summary at 9', DAILY_9, 'rent marina 2br'],
    ['buy jvc villa every sunday at 8am', SUNDAY_8, 'buy jvc villa'],
    ['rent marina as a weekly summary on sunday at 8', SUNDAY_8, 'rent marina'],
    ['rent marina daily', DAILY_9, 'rent marina'],
    ['rent "Business Bay" instant', { every: 'run' }, 'rent "Business Bay"'],
    ['rent marina 2br under 120k', undefined, 'rent marina 2br under 120k'],
  ])('%s', (text, frequency, rest) => {
    expect(readFrequency(text)).toEqual({ ok: true, frequency, rest });
  });

  it('refuses an impossible time, and an edit that says no frequency', () => {
    expect(readFrequency('rent marina daily at 25:00')).toMatchObject({
      ok: false,
      error: expect.stringContaining('"25:00" is not a time of day'),
    });
    expect(parseFrequency('sometimes')).toMatchObject({ ok: false, error: expect.stringContaining('`instant`') });
    expect(parseFrequency('weekly on sunday at 8:00')).toEqual({ ok: true, frequency: SUNDAY_8 });
    expect(parseFrequency('instant')).toEqual({ ok: true, frequency: { every: 'run' } });
  });

  it('reads the commands', () => {
    expect(parseAlertCommand('edit 3 weekly on sunday at 8:00')).toEqual({
      kind: 'alert',
      sub: 'edit',
      number: 3,
      every: 'weekly on sunday at 8:00',
    });
    expect(parseAlertCommand('edit me 2 daily at 9')).toEqual({
      kind: 'alert',
      sub: 'edit',
      number: 2,
      every: 'daily at 9',
      to: 'me',
    });
    expect(alertCommandText({ kind: 'alert', sub: 'edit', number: 2, every: 'instant', to: 'me' })).toBe(
      '/alerts edit me 2 instant',
    );
    expect(parseAlertCommand('edit me 2')).toMatchObject({
      refused: expect.stringContaining('`/alerts edit me 2 daily at 9:00`'),
    });
    expect(parseAlertCommand('edit 3')).toMatchObject({
      refused: expect.stringContaining('How often should alert #3 post?'),
    });
    expect(parseAlertCommand('quiet 22:00-07:00')).toEqual({ kind: 'alert', sub: 'quiet', hours: '22:00-07:00' });
    expect(parseAlertCommand('timezone Asia/Dubai')).toEqual({ kind: 'alert', sub: 'timezone', zone: 'Asia/Dubai' });
    expect(parseAlertCommand('more 2 page 3')).toEqual({ kind: 'alert', sub: 'more', which: 2, page: 3 });
    expect(parseAlertCommand('more quiet')).toEqual({ kind: 'alert', sub: 'more', which: 'quiet', page: 1 });
  });
});

describe('quiet hours', () => {
  it('are read, and end at their local end, over midnight', () => {
    expect(parseQuiet('22:00-07:00')).toEqual({ ok: true, from: '22:00', to: '07:00' });
    expect(parseQuiet('10pm to 7am')).toEqual({ ok: true, from: '22:00', to: '07:00' });
    expect(parseQuiet('late')).toMatchObject({ ok: false });
    const q = { from: '22:00', to: '07:00' };
    // 00:00 in Dubai is 20:00 UTC: quiet until 07:00 Dubai, 03:00 UTC.
    expect(quietUntil(q, 'Asia/Dubai', Date.parse('2026-12-02T20:00:00Z'))).toBe(Date.parse('2026-12-03T03:00:00Z'));
    expect(quietUntil(q, 'Asia/Dubai', Date.parse('2026-12-02T18:30:00Z'))).toBe(Date.parse('2026-12-03T03:00:00Z'));
    expect(quietUntil(q, 'Asia/Dubai', Date.parse('2026-12-02T08:00:00Z'))).toBeUndefined();
  });
});

describe('editing how often a personal alert posts', () => {
  it('`edit me 1 …` changes the asker’s own alert; nobody else reaches it, and a channel’s #1 is another alert', async () => {
    const rig = await alertsRig();
    const reply = (r: { text?: string }) => r.text ?? '';
    await rig.commands.handle(ctx('slack:T1:C1', 'U1'), 'add me rent marina 2br');
    await rig.commands.handle(ctx('slack:T1:C1', 'U1'), 'add rent jvc');
    const [mine] = await rig.repo.listByChannel('slack:T1:@U1');
    const [channels] = await rig.repo.listByChannel('slack:T1:C1');

    const edited = reply(await rig.commands.handle(ctx('slack:T1:C1', 'U1'), 'edit me 1 daily at 9:00'));
    expect(edited).toMatch(/^Your alert #1 \(.*Dubai Marina.*\) now posts one daily summary at 09:00/);
    expect((await rig.repo.byNumber('slack:T1:@U1', 1))?.schedule).toBe(JSON.stringify(DAILY_9));
    // The channel's alert #1 is untouched.
    expect((await rig.repo.byNumber('slack:T1:C1', 1))?.schedule).toBe(channels!.schedule);

    // Another person, an admin too, has no alert of their own of that number: U1's stays as it is.
    expect(reply(await rig.commands.handle(ctx('slack:T1:C1', 'U2', true), 'edit me 1 instant'))).toBe(
      'You have no alert #1 of your own. See `/alerts list`.',
    );
    expect((await rig.repo.byNumber('slack:T1:@U1', 1))?.schedule).toBe(JSON.stringify(DAILY_9));
    expect(reply(await rig.commands.handle(ctx('slack:T1:C1', 'U1'), 'edit me 1 instant'))).toMatch(
      /^Your alert #1 .* now posts each new listing as it is found\.$/,
    );
    expect((await rig.repo.byNumber('slack:T1:@U1', 1))?.schedule).toBe(mine!.schedule);
  });
});
