// The terminal chat prints upstream text: none of it may drive the terminal (clear the screen, retitle the window,
// hide or reorder text), wherever it sits in a reply.
import { describe, expect, it } from 'vitest';
import { renderText } from '../../adapters/console/render.js';
import type { Reply } from '../../src/bot/index.js';
import type { Button } from '../../src/views/model.js';

const HOSTILE = [
  '\x1b[2J', // clear screen (CSI)
  '\x1b]0;pwned\x07', // set window title (OSC, BEL-terminated)
  '\x1b]8;;https://evil.example/\x1b\\', // hyperlink (OSC, ST-terminated)
  '\x9b31m', // 8-bit CSI
  '\x1bc', // full reset
  '\x00\x08\x7f\x85\x9c', // NUL, backspace, DEL, C1
  '\u202e', // right-to-left override
  '\u2066', // left-to-right isolate
];
const dirty = (text: string) => `${HOSTILE.join('')}${text}\r\x1b[0m`;

/** Nothing a terminal would act on: no ESC, no C0 but the newlines we lay out, no C1, no bidi controls. */
function expectInert(text: string): void {
  // eslint-disable-next-line no-control-regex -- the control characters are what is looked for
  expect(text).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
  expect(text).not.toContain('pwned');
  expect(text).not.toContain('evil.example');
}

const button = (label: string): Button => ({ label, action: 'page', token: 't1' });

describe('renderText', () => {
  it('strips escape sequences and control characters from every piece of a card', () => {
    const reply: Reply = {
      text: 'fallback',
      blocks: [
        { kind: 'header', text: dirty('Homes in Dubai Marina') },
        {
          kind: 'card',
          card: {
            title: dirty('Sea view 2BR'),
            subtitle: dirty('Apartment'),
            body: dirty('Bright\tand\nspacious'),
            badges: [dirty('Verified')],
            fields: [{ label: dirty('Price'), value: dirty('AED 120,000/yr') }],
            url: 'https://www.propertyfinder.ae/en/plp/1.html\x1b[2J',
            links: [{ label: dirty('Map'), url: 'https://www.google.com/maps?q=25.08,55.14' }],
            buttons: [button(dirty('Details'))],
          },
        },
      ],
      footer: dirty('Sample data'),
    };
    const { text, buttons } = renderText(reply);
    expectInert(text);
    expect(text).toContain('== Homes in Dubai Marina ==');
    expect(text).toContain('* AED 120,000/yr  Sea view 2BR  (Verified)');
    expect(text).toContain('  Apartment');
    expect(text).toContain('  Bright and\n  spacious');
    expect(text).toContain('  https://www.propertyfinder.ae/en/plp/1.html');
    expect(text).toContain('  Map: https://www.google.com/maps?q=25.08,55.14');
    expect(text).toContain('[1] Details');
    expect(text).toContain('-- Sample data');
    expect(buttons).toHaveLength(1);
  });

  it('keeps table cells on one line and aligned once the escapes are gone', () => {
    const { text } = renderText({
      text: '',
      blocks: [
        {
          kind: 'table',
          columns: ['Date', dirty('Type')],
          rows: [
            ['1 Mar 2026', dirty('Villa\nwith pool')],
            ['2 Mar 2026', 'Flat'],
          ],
        },
      ],
    });
    expectInert(text);
    expect(text.split('\n')).toEqual([
      'Date        Type',
      '----------  ---------------',
      '1 Mar 2026  Villa with pool',
      '2 Mar 2026  Flat',
    ]);
  });

  it('keeps the line layout of our own text blocks and button rows', () => {
    const { text } = renderText({
      text: '',
      blocks: [
        { kind: 'text', text: `Verbs:\n  rent\n  buy${HOSTILE.join('')}` },
        { kind: 'actions', buttons: [button('Next ▶'), button(dirty('Save as alert'))] },
      ],
    });
    expectInert(text);
    expect(text).toBe('Verbs:\n  rent\n  buy\n[1] Next ▶  [2] Save as alert');
  });

  it('leaves ordinary text alone, Arabic and emoji included', () => {
    const { text } = renderText({
      text: '',
      blocks: [{ kind: 'card', card: { title: 'برج خليفة — Burj Khalifa 🏙️', fields: [] } }],
    });
    expect(text).toBe('* برج خليفة — Burj Khalifa 🏙️');
  });
});
