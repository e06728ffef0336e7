// The neutral Reply as a Block Kit message that Slack accepts: every text clamped, at most 50 blocks, a fallback
// always.
import type { KnownBlock } from '@slack/types';
import {
  imageFallback,
  type Block,
  type Button,
  type Card,
  type ImageFile,
  type Reply,
} from '../../src/views/model.js';
import { fallbackText } from '../shared/fallback.js';
import { tableText } from '../shared/table.js';
import { SLACK_LIMITS as L } from './limits.js';
import { ActionIds, actionsBlock, button, mrkdwn, plain, renderCard } from './render-card.js';
import { carousels } from './render-carousel.js';
import { chartBlock, type DataVisualizationBlock } from './render-chart.js';
import { dataTable } from './render-table.js';
import { clampMrkdwn, escapeMrkdwn } from './render-text.js';

/** A block of a message: what @slack/types knows, and the chart block it does not type yet. */
export type SlackBlock = KnownBlock | DataVisualizationBlock;

export interface SlackMessage {
  text: string;
  blocks: SlackBlock[];
}

/** What one model block (or one run of tiled cards) became, so whole cards can be dropped when it is too long. */
interface Unit {
  kind: Block['kind'];
  blocks: SlackBlock[];
}

/** A run of cards with tiles, shown as one carousel; other blocks one by one. */
type Part = Block | { readonly kind: 'carousel'; readonly cards: readonly Card[] };

function parts(blocks: readonly Block[]): Part[] {
  const out: Part[] = [];
  for (const b of blocks) {
    const last = out.at(-1);
    if (b.kind === 'card' && b.card.tile && last?.kind === 'carousel')
      out[out.length - 1] = { ...last, cards: [...last.cards, b.card] };
    else out.push(b.kind === 'card' && b.card.tile ? { kind: 'carousel', cards: [b.card] } : b);
  }
  return out;
}

/** The reply's Save as alert button, which each card of a carousel offers too. */
const saveButton = (reply: Reply): Button | undefined =>
  reply.blocks.flatMap((b) => (b.kind === 'actions' ? b.buttons : [])).find((b) => b.action === 'save');

const section = (text: string): KnownBlock => ({ type: 'section', text: mrkdwn(clampMrkdwn(text, L.sectionText)) });
const context = (text: string): KnownBlock => ({
  type: 'context',
  elements: [mrkdwn(clampMrkdwn(text, L.sectionText))],
});

/** A table's line: leaves room in the section for the header, the rule and at least one row. */
const TABLE_LINE_MAX = 900;
/** A table as monospaced mrkdwn: padded columns in a code block, as many rows as fit in one section. */
const table = (columns: readonly string[], rows: readonly (readonly string[])[]) =>
  tableText(columns, rows, {
    max: L.sectionText,
    fence: true,
    escape: (line) => clampMrkdwn(escapeMrkdwn(line), TABLE_LINE_MAX),
  });

class Renderer {
  private readonly ids = new ActionIds();
  private readonly blockIds = new Set<string>();
  private picker = false;
  /** Table characters left in this message: Slack counts every data_table's cells together. */
  private tableBudget: number = L.tableCharacters;
  /** The last header, a table's caption. */
  private heading = '';

  /** Each picture's block, so its chart can be put before it once the message is fitted (drawCharts). */
  readonly images = new Map<SlackBlock, ImageFile>();

  constructor(private readonly save: Button | undefined) {}

  render(block: Part): SlackBlock[] {
    switch (block.kind) {
      case 'carousel':
        return carousels(block.cards, this.save, this.ids);
      case 'header':
        this.heading = block.text;
        return block.text.trim() ? [{ type: 'header', text: plain(block.text, L.headerText, '') }] : [];
      case 'text':
        return block.text.trim() ? [section(escapeMrkdwn(block.text))] : [];
      case 'context':
        return block.text.trim() ? [context(escapeMrkdwn(block.text))] : [];
      case 'divider':
        return [{ type: 'divider' }];
      case 'card':
        return renderCard(block.card, this.ids);
      case 'table':
        return this.table(block.columns, block.rows);
      case 'actions':
        return actionsBlock(block.buttons.map((b) => button(b, this.ids)));
      case 'location-picker':
        return this.locationPicker(block.token, block.placeholder);
      case 'image': {
        const shown = section(escapeMrkdwn(imageFallback(block.image)));
        this.images.set(shown, block.image);
        return [shown];
      }
    }
  }

  /** A data_table with a count of the rows left out; as monospaced text when not one row fits the block. */
  private table(columns: readonly string[], rows: readonly (readonly string[])[]): KnownBlock[] {
    const native = dataTable(this.heading, columns, rows, this.tableBudget);
    if (native) {
      this.tableBudget -= native.characters;
      const left = native.left > 0 ? [context(`…and ${native.left} more row${native.left === 1 ? '' : 's'}`)] : [];
      return [native.block, ...left];
    }
    const text = table(columns, rows);
    return text === undefined ? [] : [{ type: 'section', text: mrkdwn(text) }];
  }

  /**
   * The block_id is the picker's token: the pick handler reads it back. One picker per message (its action_id is
   * fixed).
   */
  private locationPicker(token: string, placeholder: string): KnownBlock[] {
    if (this.picker || !token.trim() || token.length > L.blockId || this.blockIds.has(token)) return [];
    this.picker = true;
    this.blockIds.add(token);
    return [
      {
        type: 'actions',
        block_id: token,
        elements: [
          {
            type: 'external_select',
            action_id: 'manzil:location',
            placeholder: plain(placeholder, L.placeholderText, 'Choose a location'),
            min_query_length: 2,
          },
        ],
      },
    ];
  }
}

const isControl = (kind: Block['kind']) => kind === 'actions' || kind === 'location-picker';

/**
 * Keeps within 50 blocks: drops whole units (cards first, as they come last) from the end of the body, says how many,
 * and keeps the controls at the end of the reply (paging buttons) and the footer.
 */
function fit(units: Unit[], footer: SlackBlock[]): SlackBlock[] {
  const all = units.flatMap((u) => u.blocks);
  if (all.length + footer.length <= L.blocksPerMessage) return [...all, ...footer];

  let split = units.length;
  while (split > 0 && isControl(units[split - 1]!.kind)) split--;
  const room = L.blocksPerMessage - footer.length - 1;
  const controls = units.slice(split).flatMap((u) => u.blocks);
  const tail = controls.slice(-room);
  const body: SlackBlock[] = [];
  let kept = 0;
  for (const unit of units.slice(0, split)) {
    if (body.length + unit.blocks.length + tail.length > room) break;
    body.push(...unit.blocks);
    kept++;
  }
  const dropped = units.slice(kept, split).filter((u) => u.blocks.length > 0);
  const cards = dropped.filter((u) => u.kind === 'card').length;
  const note = context(`…${cards || dropped.length + controls.length - tail.length} more not shown`);
  return [...body, note, ...tail, ...footer];
}

/** The message's top-level text (notifications, and the text-only form): the reply's text, else its first words. */
const fallback = (reply: Reply): string =>
  clampMrkdwn(escapeMrkdwn(fallbackText(reply, { fromBlocks: true })), L.fallbackText);

/**
 * Slack's own chart before each picture (or its text), with the PNG's values, where the fitted message has room: at
 * most two a message and never past 50 blocks, so a chart never pushes the message's text out. The charts left out
 * are handed back (a poster sends them in a follow-up message); their pictures stay in the message.
 */
function drawCharts(
  blocks: SlackBlock[],
  images: ReadonlyMap<SlackBlock, ImageFile>,
): Pick<RenderedSlack, 'blocks' | 'undrawn'> {
  const out: SlackBlock[] = [];
  const undrawn: DataVisualizationBlock[] = [];
  let room = L.blocksPerMessage - blocks.length;
  let drawn = 0;
  const kept = new Set(blocks);
  for (const b of blocks) {
    const image = images.get(b);
    const chart = image && chartBlock(image);
    if (chart && room > 0 && drawn < L.chartsPerMessage) {
      out.push(chart);
      room--;
      drawn++;
    } else if (chart) undrawn.push(chart);
    out.push(b);
  }
  // A picture the fitting dropped still has its chart drawn in the follow-up.
  for (const [b, image] of images) {
    const chart = kept.has(b) ? undefined : chartBlock(image);
    if (chart) undrawn.push(chart);
  }
  return { blocks: out, undrawn };
}

/** A rendered message, the charts it had no room for, and the block that shows each picture (as its text). */
interface RenderedSlack extends SlackMessage {
  undrawn: DataVisualizationBlock[];
  pictures: ReadonlyMap<SlackBlock, ImageFile>;
}

/** The reply as Block Kit, the charts that did not fit in it (see drawCharts), and where its pictures are. */
export function renderSlackWithCharts(reply: Reply): RenderedSlack {
  const renderer = new Renderer(saveButton(reply));
  const units = parts(reply.blocks).map((b): Unit => ({
    kind: b.kind === 'carousel' ? 'card' : b.kind,
    blocks: renderer.render(b),
  }));
  const footer = reply.footer?.trim() ? [context(escapeMrkdwn(reply.footer))] : [];
  const { blocks, undrawn } = drawCharts(fit(units, footer), renderer.images);
  return { text: fallback(reply), blocks, undrawn, pictures: renderer.images };
}

export function renderSlack(reply: Reply): SlackMessage {
  const { text, blocks } = renderSlackWithCharts(reply);
  return { text, blocks };
}

/** Charts as follow-up messages of two each (Slack's most in one message), each saying whose charts they are. */
export function chartMessages(charts: readonly DataVisualizationBlock[], of: string): SlackMessage[] {
  const out: SlackMessage[] = [];
  for (let i = 0; i < charts.length; i += L.chartsPerMessage) {
    const some = charts.slice(i, i + L.chartsPerMessage);
    const text = clampMrkdwn(escapeMrkdwn(`Charts of ${of}: ${some.map((c) => c.title).join(', ')}`), L.fallbackText);
    out.push({ text, blocks: [context(escapeMrkdwn(`Charts of ${of}`)), ...some] });
  }
  return out;
}
