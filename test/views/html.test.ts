import { describe, expect, it } from 'vitest';
import { developerCard } from '../../src/views/index.js';
import { HTML_INPUT_MAX, stripHtml } from '../../src/views/format.js';
import { developerRecord } from './fixtures.js';

// Timing on the 2-core dev machine (Node 20): 40 KB of unclosed `<a` took ~0.8 s with the old regular expressions and
// 200 KB took tens of seconds; with html-to-text and the cap, each case below takes a few milliseconds.
const PATHOLOGICAL: Record<string, string> = {
  'unclosed tags': '<a'.repeat(100_000),
  'unclosed comments': '<!--'.repeat(50_000),
  'deep nesting': '<div>'.repeat(40_000),
  'nested lists': '<ul><li>x'.repeat(25_000),
  'broken entities': '&#'.repeat(100_000),
  'plain words': 'word '.repeat(40_000),
};

describe('stripHtml on hostile input', () => {
  for (const [name, html] of Object.entries(PATHOLOGICAL)) {
    it(`converts 200 KB of ${name} quickly, without throwing, and caps the output`, () => {
      expect(html.length).toBeGreaterThanOrEqual(200_000);
      const started = performance.now();
      const text = stripHtml(html);
      const ms = performance.now() - started;
      expect(text.length).toBeLessThanOrEqual(HTML_INPUT_MAX);
      expect(text).not.toMatch(/<[a-z]/i);
      expect(ms).toBeLessThan(2_000); // generous: the point is "not quadratic", which took seconds
    });
  }

  it('applies the cap to long text: only the first HTML_INPUT_MAX characters are read', () => {
    const text = stripHtml(`<p>${'a'.repeat(HTML_INPUT_MAX)}</p><p>TAIL</p>`);
    expect(text).not.toContain('TAIL');
    expect(text.length).toBeLessThanOrEqual(HTML_INPUT_MAX);
  });

  it('keeps a description card short whatever the size of the description', () => {
    const card = developerCard(developerRecord({ description: '<p>Emaar' + '<b'.repeat(100_000) }));
    expect(card.title).toBe('Emaar Properties');
    expect((card.body ?? '').length).toBeLessThanOrEqual(300);
  });
});

describe('stripHtml on ordinary descriptions', () => {
  it('keeps link text without the address, drops images and does not shout headings', () => {
    const html =
      '<h2>Overview</h2><p>See <a href="https://www.emaar.com/en">our site</a><img src="https://x.example/logo.png" alt="logo"> today.</p>';
    expect(stripHtml(html)).toBe('Overview See our site today.');
  });

  it('joins ordered list items the way it joins bullet lists', () => {
    expect(stripHtml('<ol><li>Book a viewing</li><li>Sign</li></ol>')).toBe('Book a viewing; Sign');
  });
});
