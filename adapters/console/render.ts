// Replies as plain text for a terminal. Buttons are numbered so a person can type the number to press one.
import type { Reply } from '../../src/bot/index.js';
import type { Block, Button } from '../../src/views/model.js';

export interface TextRender {
  text: string;
  /** Button number (from 1) -> the button. */
  buttons: Button[];
}

function table(columns: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = columns.map((c, i) => Math.max(c.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  return [line(columns), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)];
}

export function renderText(reply: Reply): TextRender {
  const out: string[] = [];
  const buttons: Button[] = [];
  const press = (list: readonly Button[]) => list.map((b) => `[${buttons.push(b)}] ${b.label}`).join('  ');
  const render = (block: Block) => {
    switch (block.kind) {
      case 'header':
        out.push(`== ${block.text} ==`);
        break;
      case 'text':
      case 'context':
        out.push(block.text);
        break;
      case 'divider':
        out.push('');
        break;
      case 'card': {
        const c = block.card;
        out.push(`* ${c.title}${c.badges?.length ? `  (${c.badges.join(', ')})` : ''}`);
        if (c.subtitle) out.push(`  ${c.subtitle}`);
        if (c.body) out.push(`  ${c.body}`);
        if (c.fields.length) out.push(`  ${c.fields.map((f) => `${f.label}: ${f.value}`).join(' | ')}`);
        if (c.url) out.push(`  ${c.url}`);
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
  if (reply.footer) out.push(`-- ${reply.footer}`);
  return { text: out.join('\n'), buttons };
}
