// Replies as plain text for a terminal. Buttons are numbered so a person can type the number to press one.
// Every piece of text may come from the property service, so it is made inert before it reaches the terminal:
// an escape sequence in a listing title could otherwise clear the screen, retitle the window or forge a link.
import type { Reply } from '../../src/bot/index.js';
import type { Block, Button } from '../../src/views/model.js';

export interface TextRender {
  text: string;
  /** Button number (from 1) -> the button. */
  buttons: Button[];
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
/** CRLF and Unicode line separators count as line breaks; a lone CR (it would overwrite the line) and NEL are dropped as controls. */
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

function table(columns: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const head = columns.map(inert);
  const body = rows.map((r) => head.map((_, i) => inert(r[i] ?? '')));
  const widths = head.map((c, i) => Math.max(c.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)];
}

export function renderText(reply: Reply): TextRender {
  const out: string[] = [];
  const buttons: Button[] = [];
  const press = (list: readonly Button[]) => list.map((b) => `[${buttons.push(b)}] ${inert(b.label)}`).join('  ');
  const render = (block: Block) => {
    switch (block.kind) {
      case 'header':
        out.push(`== ${inert(block.text)} ==`);
        break;
      case 'text':
      case 'context':
        out.push(inertLines(block.text));
        break;
      case 'divider':
        out.push('');
        break;
      case 'card': {
        const c = block.card;
        out.push(`* ${inert(c.title)}${c.badges?.length ? `  (${c.badges.map(inert).join(', ')})` : ''}`);
        if (c.subtitle) out.push(`  ${inert(c.subtitle)}`);
        if (c.body) out.push(...inertLines(c.body).split('\n').map((l) => `  ${l}`));
        if (c.fields.length) out.push(`  ${c.fields.map((f) => `${inert(f.label)}: ${inert(f.value)}`).join(' | ')}`);
        if (c.url) out.push(`  ${inert(c.url)}`);
        // Link buttons have no number to press: show their address (the card's own URL is already above).
        for (const link of c.links ?? []) if (link.url !== c.url) out.push(`  ${inert(link.label)}: ${inert(link.url)}`);
        if (c.buttons?.length) out.push(`  ${press(c.buttons)}`);
        break;
      }
      case 'table':
        out.push(...table(block.columns, block.rows));
        break;
      case 'actions':
        out.push(press(block.buttons));
        break;
      case 'location-picker':
        out.push('(To try another location, type the command again with the new place.)');
        break;
    }
  };
  reply.blocks.forEach(render);
  if (reply.footer) out.push(`-- ${inert(reply.footer)}`);
  return { text: out.join('\n'), buttons };
}
