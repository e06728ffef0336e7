// Replies as text for a terminal. Buttons are numbered so a person can type the number to press one.
// Every piece of text may come from the property service, so it is made inert before it reaches the terminal:
// an escape sequence in a listing title could otherwise clear the screen, retitle the window or forge a link.
// Our own colour codes are added only afterwards, around text that is already inert.
import pc from 'picocolors';
import type { Reply } from '../../src/bot/index.js';
import { imageFallback, type Block, type Button, type Card } from '../../src/views/model.js';
import { tableText } from '../shared/table.js';

export interface TextRender {
  text: string;
  /** The buttons in the order they are numbered (from `firstNumber`, 1 by default). */
  buttons: Button[];
}

export interface RenderOptions {
  /** ANSI colour and weight (default off: plain text, as for a pipe or a file). */
  color?: boolean;
  /** The number of the first button: an alert's buttons are numbered after those of the reply still on screen. */
  firstNumber?: number;
}

/**
 * Colour only for a terminal, and never when NO_COLOR is set (to any value, see no-color.org) or TERM is `dumb`:
 * piped or redirected output stays plain text.
 */
export function colorFor(
  output: NodeJS.WritableStream,
  env: Record<string, string | undefined> = process.env,
): boolean {
  return env.NO_COLOR === undefined && env.TERM !== 'dumb' && (output as { isTTY?: boolean }).isTTY === true;
}

/* eslint-disable no-control-regex -- finding control characters is what these expressions are for */
/** OSC, DCS, SOS, PM and APC strings (ESC ] … BEL or ST), terminated or not, and their 8-bit C1 forms. */
const ESCAPE_STRING = /(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?/g;
/** CSI sequences (ESC [ … final byte), including the 8-bit CSI. */
const CSI = /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?/g;
/** Any other escape: ESC and the character after it (charset switches, keypad modes, a lone ESC). */
const OTHER_ESCAPE = /\x1b[\s\S]?/g;
/** C0 controls but tab and newline, DEL and C1 controls. */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
/** Bidi embeddings, overrides and isolates: they can make text read in an order other than its characters'. */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;
/**
 * CRLF and Unicode line separators count as line breaks; a lone CR (it would overwrite the line) and NEL are dropped as
 * controls.
 */
const LINE_BREAK = /\r\n|[\n\u2028\u2029]/g;
/* eslint-enable no-control-regex */

/** Text made safe for a terminal, kept on one line: breaks and tabs become spaces. */
export function inert(text: string): string {
  return inertLines(text).replace(/\n/g, ' ');
}

/** Text made safe for a terminal; line breaks are kept (as `\n`) for text that is laid out in lines. */
export function inertLines(text: string): string {
  return text
    .replace(LINE_BREAK, '\n')
    .replace(ESCAPE_STRING, '')
    .replace(CSI, '')
    .replace(OTHER_ESCAPE, '')
    .replace(CONTROL, '')
    .replace(BIDI, '')
    .replace(/\t/g, ' ');
}

/** The fields a person scans a list by: shown first on a card's top line, without their labels (the values say it). */
const GLANCE = new Set(['Price', 'Beds', 'Bedrooms']);

/** `Baths: 3 baths` says "bath" twice: the label is dropped when the value already names it. */
function field(label: string, value: string): string {
  const stem = label.toLowerCase().replace(/s$/, '');
  return value.toLowerCase().includes(stem) ? value : `${label}: ${value}`;
}

/** The top line's price and beds, inert and uncoloured (so they can be measured and padded). */
function glanceOf(card: Card): string {
  return card.fields
    .filter((f) => GLANCE.has(inert(f.label)))
    .map((f) => inert(f.value))
    .join(' · ');
}

/**
 * A table in full (a terminal scrolls): cells inert and whole, a row's cells past the columns left out, the header
 * bold.
 */
function table(columns: readonly string[], rows: readonly (readonly string[])[], c: Colors): string[] {
  const body = rows.map((r) => columns.map((_, i) => r[i] ?? ''));
  const text = tableText(columns, body, {
    cell: (s) => inert(s ?? ''),
    measure: (s) => s.length,
    style: { head: c.bold, rule: c.dim },
  });
  return text === undefined ? [] : [text];
}

type Colors = ReturnType<typeof pc.createColors>;

export function renderText(reply: Reply, options: RenderOptions = {}): TextRender {
  const c = pc.createColors(options.color === true);
  const first = options.firstNumber ?? 1;
  const out: string[] = [];
  const buttons: Button[] = [];
  // The reply's own buttons (Next, Save as alert, Previous last) take the first numbers, the cards' after: Next is the
  // same number on every page however many buttons the cards have, so typing it again goes on, never back (issue 38).
  for (const b of reply.blocks) if (b.kind === 'actions') buttons.push(...stableOrder(b.buttons));
  const numberOf = (b: Button) => {
    const held = buttons.indexOf(b);
    return first + (held === -1 ? buttons.push(b) - 1 : held);
  };
  const press = (list: readonly Button[]) =>
    list
      .map((b) => {
        const label = inert(b.label);
        return `${c.bold(c.cyan(`[${numberOf(b)}]`))} ${b.style === 'primary' ? c.bold(c.green(label)) : label}`;
      })
      .join('  ');
  // Cards in one reply line their titles up after the widest price-and-beds.
  const glanceWidth = Math.max(0, ...reply.blocks.map((b) => (b.kind === 'card' ? glanceOf(b.card).length : 0)));
  const card = (card: Card) => {
    const glance = glanceOf(card);
    const badges = card.badges?.length ? `  ${c.yellow(`(${card.badges.map(inert).join(', ')})`)}` : '';
    const top = glance
      ? `${c.bold(c.green(glance))}${' '.repeat(glanceWidth - glance.length + 2)}${c.bold(inert(card.title))}`
      : c.bold(inert(card.title));
    out.push(`* ${top}${badges}`);
    const secondary = [
      ...(card.subtitle ? [inert(card.subtitle)] : []),
      ...card.fields.filter((f) => !GLANCE.has(inert(f.label))).map((f) => field(inert(f.label), inert(f.value))),
    ];
    if (secondary.length) out.push(`  ${c.dim(secondary.join(' · '))}`);
    if (card.body)
      out.push(
        ...inertLines(card.body)
          .split('\n')
          .map((l) => `  ${l}`),
      );
    if (card.url) out.push(`  ${c.dim(inert(card.url))}`);
    // Link buttons have no number to press: show their address (the card's own URL is already above).
    for (const link of card.links ?? [])
      if (link.url !== card.url) out.push(`  ${c.dim(`${inert(link.label)}: ${inert(link.url)}`)}`);
    if (card.buttons?.length) out.push(`  ${press(card.buttons)}`);
  };
  const render = (block: Block) => {
    switch (block.kind) {
      case 'header':
        out.push(c.bold(c.cyan(`== ${inert(block.text)} ==`)));
        break;
      case 'text':
      case 'context':
        out.push(inertLines(block.text));
        break;
      case 'divider':
        out.push('');
        break;
      case 'card':
        card(block.card);
        break;
      case 'table':
        out.push(...table(block.columns, block.rows, c));
        break;
      case 'actions':
        out.push(press(stableOrder(block.buttons)));
        break;
      case 'location-picker':
        out.push(c.dim('(To try another location, type the command again with the new place.)'));
        break;
      case 'image':
        out.push(inertLines(imageFallback(block.image)));
        break;
    }
  };
  reply.blocks.forEach(render);
  if (reply.footer) out.push(c.dim(`-- ${inert(reply.footer)}`));
  return { text: out.join('\n'), buttons };
}

/** A page's buttons with Previous last, so Next and Save as alert are numbered alike with or without it. */
function stableOrder(buttons: readonly Button[]): Button[] {
  const back = (b: Button) => b.action === 'page' && /Previous/.test(b.label);
  return [...buttons.filter((b) => !back(b)), ...buttons.filter(back)];
}
