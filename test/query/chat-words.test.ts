// Chat words in terse commands (issue 39): a mention of the bot, politeness and who the search is for are dropped, as
// sentences drop theirs, and the summary names them; they never become area words ("marina thanks").
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCommand, summarize, type Query } from '../../src/query/index.js';
import { parsed } from './helpers.js';

/** The query without its notes: what is searched. */
const searched = ({ corrections: _notes, ...rest }: Query) => rest;

describe('chat words in terse commands', () => {
  it.each([
    ['rent marina 2br thanks', 'thanks'],
    ['rent marina 2br please', 'please'],
    ['rent marina 2br pls 🙏', 'pls'],
    ['rent marina 2br asap', 'asap'],
    ['@manzil rent marina 2br', '@manzil'],
    ['<@U04ABCDEF> rent marina 2br', '<@U04ABCDEF>'],
    ['<@U04ABCDEF|manzil>: rent marina 2br', '<@U04ABCDEF|manzil>'],
    ['hey manzil rent marina 2br', 'hey manzil'],
    ['rent marina 2br for my family', 'for my family'],
    ['rent marina for a client 2br', 'for a client'],
  ])('%s searches what "rent marina 2br" does, and says it left out "%s"', (text, dropped) => {
    const query = parsed(text);
    expect(searched(query)).toEqual(searched(parsed('rent marina 2br')));
    expect(query.location).toBe('marina');
    expect(summarize(query)).toContain(`left out "${dropped}": chat words`);
  });

  it('drops who it is for from a sentence too: "looking for a 3bhk in al barsha for family"', () => {
    const result = parseCommand('looking for a 3bhk in al barsha for family');
    // No verb and no price: it asks rent or buy, and each button searches Al Barsha, not "al barsha family".
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toContain('`rent "al barsha" 3 br`');
    expect(result.choices?.map((c) => c.query.location)).toEqual(['al barsha', 'al barsha']);
    expect(result.choices?.[0]?.query.corrections).toEqual(['left out "for family": chat words']);
  });

  it('keeps a sentence\'s own politeness silent, as before: "… in marina thanks" has no note', () => {
    const query = parsed('/manzil can you find 2 bed flats to rent in marina thanks');
    expect(query.location).toBe('marina');
    expect(query.corrections).toBeUndefined();
  });

  it('never drops quoted words or the words of an area', () => {
    expect(parsed('rent "marina thanks" 2br').location).toBe('marina thanks');
    expect(parsed('rent "marina thanks" 2br').corrections).toBeUndefined();
  });

  const AREAS = ['marina', 'jvc', 'al barsha', 'business bay', 'downtown', 'palm jumeirah', '"Dubai Hills Estate"'];
  const FILTERS = ['2br', 'studio', 'under 120k', 'furnished', 'villa', 'pool', 'cheapest', '1-3 br', 'monthly'];
  const OPENING = ['', '@manzil', '<@U0123ABCD>', 'hey manzil', 'hi manzil,'];
  const FOR_WHOM = ['', 'for my family', 'for a family', 'for a client', 'for our clients', 'for family'];
  const CLOSING = ['', 'thanks', 'please', 'pls', 'asap', 'thank you', 'thanks a lot', 'please asap', 'cheers 🙏'];

  it('property: any terse command with chat words around it searches what it searches without them', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('rent', 'buy', '/rent', '/buy'),
        fc.constantFrom(...AREAS),
        fc.subarray(FILTERS, { maxLength: 3 }),
        fc.constantFrom(...OPENING),
        fc.constantFrom(...FOR_WHOM),
        fc.nat(3),
        fc.constantFrom(...CLOSING),
        (verb, area, filters, opening, whom, at, closing) => {
          const plain = [verb, area, ...filters];
          const chatty = [opening, ...plain.slice(0, 2 + Math.min(at, filters.length)), whom];
          chatty.push(...plain.slice(2 + Math.min(at, filters.length)), closing);
          const text = chatty.filter(Boolean).join(' ');
          const without = parseCommand(plain.join(' '));
          const withChat = parseCommand(text);
          expect(withChat.ok, text).toBe(without.ok);
          if (!without.ok || !withChat.ok) return;
          expect(searched(withChat.query), text).toEqual(searched(without.query));
          const said = [opening, whom, closing].filter(Boolean).length;
          if (said > 0) expect(summarize(withChat.query), text).toContain(': chat words');
        },
      ),
      { numRuns: 500 },
    );
  });
});
