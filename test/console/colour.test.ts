// The terminal chat's cards: price and beds at a glance on the first line, the title in bold, secondary text dim;
// colour only for a terminal, never with NO_COLOR; and upstream text made inert before our own colour is added.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { colorFor, renderText } from '../../adapters/console/render.js';
import type { Reply } from '../../src/bot/index.js';
import type { Card } from '../../src/views/model.js';

const BOLD = '\x1b[1m';
const DIM = '\x1b[2m';
/* eslint-disable-next-line no-control-regex -- SGR sequences are what is looked for */
const SGR = /\x1b\[[0-9;]*m/g;

const listing = (title: string, price: string, beds: string): Card => ({
  title,
  subtitle: 'Apartment',
  fields: [
    { label: 'Price', value: price },
    { label: 'Beds', value: beds },
    { label: 'Baths', value: '2 baths' },
    { label: 'Size', value: '1,100 sqft' },
    { label: 'Location', value: 'Dubai Marina, Dubai' },
  ],
  url: 'https://www.sandbox-manzil.example/property/1',
  buttons: [{ label: 'Details', action: 'details', token: 't1' }],
});

const results: Reply = {
  text: 'results',
  blocks: [
    { kind: 'header', text: 'Homes for rent in Dubai Marina' },
    { kind: 'card', card: listing('Sea view 2BR', 'AED 120,000/yr', '2 beds') },
    { kind: 'card', card: listing('Cosy studio', 'AED 54,500/yr', 'Studio') },
    {
      kind: 'actions',
      buttons: [
        { label: 'Next ▶', action: 'page', token: 'p' },
        { label: 'Save as alert', action: 'save', token: 's', style: 'primary' },
      ],
    },
  ],
  footer: 'Sample data from the local sandbox.',
};

describe('cards in the terminal', () => {
  it('put price and beds first, titles lined up after them, the rest on a second line', () => {
    const lines = renderText(results).text.split('\n');
    expect(lines).toContain('* AED 120,000/yr · 2 beds  Sea view 2BR');
    expect(lines).toContain('* AED 54,500/yr · Studio   Cosy studio');
    // A label is left out where the value already says it ("2 baths"), kept where it does not ("Size").
    expect(lines).toContain('  Apartment · 2 baths · Size: 1,100 sqft · Location: Dubai Marina, Dubai');
    expect(lines).toContain('[1] Next ▶  [2] Save as alert');
  });

  it("number buttons on from a given number: an alert's after those of the reply still on screen", () => {
    const alert: Reply = {
      text: 'New listing',
      blocks: [{ kind: 'card', card: listing('Sea view 2BR', 'AED 120,000/yr', '2 beds') }],
    };
    const { text, buttons } = renderText(alert, { firstNumber: 5 });
    expect(text).toContain('  [5] Details');
    expect(buttons).toHaveLength(1);
  });

  it('in colour: bold title, price and beds stand out, secondary text dim, numbered buttons', () => {
    const { text, buttons } = renderText(results, { color: true });
    const first = text.split('\n').find((l) => l.includes('Sea view'))!;
    expect(first).toContain(`${BOLD}Sea view 2BR`);
    expect(first).toMatch(/\x1b\[\d+m.*AED 120,000\/yr · 2 beds/); // eslint-disable-line no-control-regex
    expect(text).toContain(`${DIM}Apartment · 2 baths`);
    expect(text).toMatch(/\[2\].*Save as alert/);
    expect(buttons.map((b) => b.label)).toEqual(['Next ▶', 'Save as alert', 'Details', 'Details']);
    // Without its colour codes, the text is exactly the plain rendering.
    expect(text.replace(SGR, '')).toBe(renderText(results).text);
  });

  it('strips escape sequences from upstream text before adding its own colour', () => {
    const hostile: Reply = {
      text: '',
      blocks: [
        {
          kind: 'card',
          card: listing('\x1b[2J\x1b]0;pwned\x07Sea \x1b[31mview\x1b[0m', 'AED \x9b31m1', '\x1b[8m2 beds'),
        },
      ],
    };
    const { text } = renderText(hostile, { color: true });
    // Only our own SGR codes remain: none from upstream (no red 31, no hidden 8, no clear screen, no title).
    const codes = text.match(SGR) ?? [];
    expect(codes.length).toBeGreaterThan(0);
    expect(
      codes.every((c) =>
        ['\x1b[1m', '\x1b[22m', '\x1b[2m', '\x1b[32m', '\x1b[39m', '\x1b[36m', '\x1b[33m'].includes(c),
      ),
    ).toBe(true);
    // eslint-disable-next-line no-control-regex -- control characters are what is looked for
    expect(text.replace(SGR, '')).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
    expect(text).not.toContain('pwned');
    expect(text.replace(SGR, '')).toContain('Sea view');
  });
});

describe('when there is colour', () => {
  const terminal = () => Object.assign(new PassThrough(), { isTTY: true });

  it('only on a terminal, never for a pipe or a file', () => {
    expect(colorFor(terminal(), {})).toBe(true);
    expect(colorFor(new PassThrough(), {})).toBe(false);
  });

  it('never with NO_COLOR, whatever its value, nor on a dumb terminal', () => {
    expect(colorFor(terminal(), { NO_COLOR: '1' })).toBe(false);
    expect(colorFor(terminal(), { NO_COLOR: '' })).toBe(false);
    expect(colorFor(terminal(), { TERM: 'dumb' })).toBe(false);
  });
});
