// What a form or an option saves reads back as the command that would save it (issue 37): every standing-order
// command, written as text (orderText) and read again as typed text is (the bot's route, then the kind's parse), is
// the same command. Generated commands of both kinds; and the refusals of text that is no command.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alertCommandText, parseAlertCommand } from '../../src/alerts/language.js';
import { alertsRequest, digestsRequest } from '../../src/bot/requests.js';
import { digestCommandText, parseDigestCommand } from '../../src/digests/language.js';
import type { AlertCommand, DayName, DigestCommand } from '../../src/ports/index.js';
import { parseCommand } from '../../src/query/index.js';

const number = fc.integer({ min: 1, max: 999_999 });
/** A word as typed: anything without a space (quotes, slashes, digits and non-Latin letters included). */
const anyWord = fc.string({ minLength: 1, maxLength: 12 }).filter((w) => /^\S+$/.test(w));
const numbered = <K extends 'alert' | 'digest'>(kind: K) =>
  fc.oneof(
    fc.constantFrom({ kind, sub: 'help' as const }, { kind, sub: 'list' as const }, { kind, sub: 'resume' as const }),
    fc.record({
      kind: fc.constant(kind),
      sub: fc.constantFrom('pause' as const, 'remove' as const, 'resume' as const),
      number,
    }),
  );

const alertCommand: fc.Arbitrary<AlertCommand> = fc.oneof(
  numbered('alert'),
  fc.record({ kind: fc.constant('alert' as const), sub: fc.constant('test' as const), number }),
  fc
    .array(anyWord, { maxLength: 8 })
    .map((words): AlertCommand => ({ kind: 'alert', sub: 'add', search: words.join(' ') })),
);

// Place names as people type them: words that are no schedule word and no list separator (a name with those is typed
// in quotes or split; the areas autocomplete offers none).
const NOT_A_NAME = /^(and|at|on|every|daily|weekly|monthly|hourly|yearly|annually|fortnightly|biweekly|quarterly)$/i;
const nameWord = fc.stringMatching(/^[A-Za-z][a-z0-9]{0,9}$/).filter((w) => !NOT_A_NAME.test(w));
const place = fc.array(nameWord, { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));
const places = fc.array(place, { maxLength: 5 });
const DAYS: DayName[] = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const time = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
  .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
const when = fc
  .tuple(
    fc.oneof(
      fc.constant({}),
      fc.constantFrom({ every: 'day' as const }, { every: 'week' as const }, { every: 'month' as const }),
      fc.constantFrom(...DAYS).map((day) => ({ every: 'week' as const, day })),
    ),
    fc.option(time, { nil: undefined }),
  )
  .map(([w, t]) => (t ? { ...w, time: t } : w));

const digestCommand: fc.Arbitrary<DigestCommand> = fc.oneof(
  numbered('digest'),
  fc.record({ kind: fc.constant('digest' as const), sub: fc.constant('add' as const), areas: places, when }),
  fc.record({ kind: fc.constant('digest' as const), sub: fc.constant('now' as const), areas: places }),
);

describe('a command reads back as the text that says it', () => {
  it('every alert command: text, routed as typed, parsed, is the same command', () => {
    fc.assert(
      fc.property(alertCommand, (c) => {
        const text = alertCommandText(c);
        expect(text.startsWith('/alerts')).toBe(true);
        expect(parseAlertCommand(alertsRequest(text)!)).toEqual(c);
      }),
      { numRuns: 500 },
    );
  });

  it('every digest command: text, routed as typed, parsed, is the same command', () => {
    fc.assert(
      fc.property(digestCommand, (c) => {
        const text = digestCommandText(c);
        expect(text.startsWith('/digest')).toBe(true);
        expect(parseDigestCommand(digestsRequest(text)!)).toEqual(c);
      }),
      { numRuns: 500 },
    );
  });

  it('an alert saved from a search already parsed ("Save as alert") reads back as its canonical search', () => {
    for (const typed of [
      'rent marina 2br under 120k',
      'buy "downtown dubai" villa 3-4 br',
      'rent office marina under 200k',
    ]) {
      const parsed = parseCommand(typed);
      if (!parsed.ok) throw new Error(parsed.error);
      const c: AlertCommand = { kind: 'alert', sub: 'add', query: parsed.query };
      const back = parseAlertCommand(alertsRequest(alertCommandText(c))!);
      if (!('search' in back)) throw new Error(`not an add: ${JSON.stringify(back)}`);
      expect(parseCommand(back.search)).toEqual({ ok: true, query: parsed.query });
    }
  });

  it('a channel alert whose search starts with a personal word is written behind `here`, and reads back so', () => {
    // "dm" leads a personal alert ("dm me"); a channel's search may start with it too (Dubai Marina, as people say).
    for (const search of ['dm 2br', 'me', 'privately furnished', 'here marina', 'rent marina dm me']) {
      const c: AlertCommand = { kind: 'alert', sub: 'add', search };
      const text = alertCommandText(c);
      expect(text).toBe(`/alerts add here ${search}`);
      expect(parseAlertCommand(alertsRequest(text)!)).toEqual(c);
    }
    expect(alertCommandText({ kind: 'alert', sub: 'add', search: 'rent marina' })).toBe('/alerts add rent marina');
    expect(parseAlertCommand('add dm 2br')).toEqual({ kind: 'alert', sub: 'add', search: '2br', to: 'me' });
    expect(parseAlertCommand('add to this channel: rent jvc')).toEqual({
      kind: 'alert',
      sub: 'add',
      search: 'rent jvc',
    });
  });

  it('the other words for a subcommand read as it: rm and delete remove, save and new add, ls lists', () => {
    expect(parseAlertCommand('rm #3')).toEqual({ kind: 'alert', sub: 'remove', number: 3 });
    expect(parseDigestCommand('delete 2')).toEqual({ kind: 'digest', sub: 'remove', number: 2 });
    expect(parseAlertCommand('save rent jvc')).toEqual({ kind: 'alert', sub: 'add', search: 'rent jvc' });
    expect(parseDigestCommand('follow jvc and dubai hills monthly at 7am')).toEqual({
      kind: 'digest',
      sub: 'add',
      areas: ['jvc', 'dubai hills'],
      when: { every: 'month', time: '07:00' },
    });
    expect(parseAlertCommand('LS')).toEqual({ kind: 'alert', sub: 'list' });
  });

  it('text that is no command is refused with the words it had', () => {
    expect(parseAlertCommand('pause two')).toEqual({
      refused: 'Which alert? Give its number: `/alerts pause 2` (see `/alerts list`).',
    });
    expect(parseDigestCommand('rm')).toEqual({
      refused: 'Which digest? Give its number: `/digest rm 2` (see `/digest list`).',
    });
    expect(parseAlertCommand('Snooze 2')).toMatchObject({
      refused: expect.stringMatching(/^I don't know "\/alerts Snooze"\./),
    });
    expect(parseDigestCommand('add jvc hourly')).toEqual({
      refused: 'I can post a digest daily, weekly (on a day) or monthly, not "hourly". Nothing was saved.',
    });
  });
});
