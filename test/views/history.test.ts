// A listing's history line (issue 40): said only when there is something worth saying, as people say it.
import { describe, expect, it } from 'vitest';
import { spanText, storyLine } from '../../src/views/history.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-12-03T10:00:00Z');

describe("a listing's history line", () => {
  it('says nothing of a listing first seen today at one price', () => {
    expect(storyLine({ firstSeenAt: NOW - 3_600_000, prices: [[NOW, 100_000]], timesBack: 0, awayMs: null }, NOW)).toBe(
      undefined,
    );
  });

  it('says how long it has been known, its cuts since and the change, and a return', () => {
    const prices: [number, number][] = [
      [NOW - 41 * DAY, 100_000],
      [NOW - 20 * DAY, 97_000],
      [NOW - 5 * DAY, 93_000],
    ];
    expect(storyLine({ firstSeenAt: NOW - 41 * DAY, prices, timesBack: 0, awayMs: null }, NOW)).toBe(
      'first seen 41 days ago · price cut twice since, −7 %',
    );
    expect(storyLine({ firstSeenAt: NOW - 41 * DAY, prices, timesBack: 1, awayMs: 21 * DAY }, NOW)).toBe(
      'first seen 41 days ago · price cut twice since, −7 % · back on the market after 3 weeks',
    );
    // A price raised is no cut.
    expect(
      storyLine(
        {
          firstSeenAt: NOW - 2 * DAY,
          prices: [
            [0, 100],
            [1, 110],
          ],
          timesBack: 0,
          awayMs: null,
        },
        NOW,
      ),
    ).toBe('first seen 2 days ago');
  });

  it('says spans as people do', () => {
    expect(spanText(DAY)).toBe('1 day');
    expect(spanText(10 * DAY)).toBe('10 days');
    expect(spanText(21 * DAY)).toBe('3 weeks');
    expect(spanText(120 * DAY)).toBe('4 months');
    expect(spanText(800 * DAY)).toBe('2 years');
  });
});
