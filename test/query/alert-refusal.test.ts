// `/alerts add` words that do not parse (issue 38): the refusal names only what can be an alert, and the commands it
// offers read as alerts; a listing verb's own mistake is the parser's to say. (Each offered command is typed against
// the sandbox on every platform in test/contract/chat.contract.test.ts.)
import { describe, expect, it } from 'vitest';
import { ALERTABLE, alertRefusal, notAlertable, parseCommand } from '../../src/query/index.js';

describe('alertRefusal', () => {
  it('offers rent and buy for words without a verb, each one a search that can be an alert', () => {
    for (const words of ['marina', 'jvc 2br', 'business bay studio', 'office dmcc']) {
      const refusal = alertRefusal(words)!;
      expect(refusal).toMatch(/^An alert watches listings to rent or to buy, homes or commercial: say which, /);
      const offered = [...refusal.matchAll(/`\/alerts add ([^`]+)`/g)].map((m) => m[1]!);
      expect(offered).toEqual([`rent ${words}`, `buy ${words}`]);
      for (const search of offered) {
        const parsed = parseCommand(search);
        if (!parsed.ok) throw new Error(`${search}: ${parsed.error}`);
        expect(ALERTABLE.has(parsed.query.operation)).toBe(true);
        expect(notAlertable(parsed.query)).toBeUndefined();
      }
    }
  });

  it('without a place there is nothing to offer but the example, which saves', () => {
    expect(alertRefusal('2br')).toBe(
      'An alert watches listings to rent or to buy, homes or commercial: start with one of them, for example `/alerts add rent marina 2br under 120k`.',
    );
  });

  it("a verb whose searches cannot be alerts is told which can; a listing verb keeps the parser's own reason", () => {
    for (const words of ['transactions marina', 'trend jvc', 'projects downtown', 'agent 12345'])
      expect(alertRefusal(words)).toMatch(/^Only listing searches can be alerts: rent or buy, homes or commercial/);
    expect(alertRefusal('rent marina under')).toBeUndefined();
    expect(alertRefusal('buy villa over')).toBeUndefined();
  });
});
