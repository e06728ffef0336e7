// The neutral Reply as a Components V2 message (the IS_COMPONENTS_V2 flag): a search's listings each in a container
// (a section with the photo as thumbnail, its text, a row with Details and the link), the rest as text displays,
// separators and rows of buttons. Discord takes no `content` or embeds beside them, at most 40 components counted
// nested, and 4,000 characters across the text displays: whole units go from the end to keep within both, and the
// message says how many. Built with discord.js's builders, which check each component's own rules.
import {
  ContainerBuilder,
  MessageFlags,
  SectionBuilder,
  SeparatorBuilder,
  TextDisplayBuilder,
  ThumbnailBuilder,
  type APIButtonComponent,
  type APIMessageTopLevelComponent,
} from 'discord.js';
import { imageFallback, type Block, type Card, type Reply } from '../../src/views/model.js';
import { fallbackText } from '../shared/fallback.js';
import { tableCell, tableText } from '../shared/table.js';
import { clampPlain, orElse } from '../shared/text.js';
import { DISCORD_LIMITS, DISCORD_V2_LIMITS as L } from './limits.js';
import { Buttons, COLOR, fieldValue, rows, subtext, type DiscordRow } from './render.js';
import { clampMarkdown, codeSafe, imageUrl, markdown } from './render-text.js';

export interface DiscordV2Message {
  flags: MessageFlags.IsComponentsV2;
  components: APIMessageTopLevelComponent[];
  /** Nothing in a listing may ping a channel: no @everyone, no roles, no users. */
  allowed_mentions: { parse: [] };
}

/** A listing's text: a title, a line or two, a short body; a page of four stays well inside the 4,000. */
const CARD_TEXT_MAX = 700;
/** A card shown whole (a Details answer in a V2 message): its fields too. */
const WHOLE_CARD_TEXT_MAX = 1_500;
/** A table's text leaves room for the rest of the message. */
const TABLE_MAX = 2_000;
/** A card's buttons: Details, the link, and one more at most (a row holds five; the page's budget wants fewer). */
const CARD_BUTTONS = 3;

/** Whether the reply goes as Components V2: a search's listings, which carry a tile (views/listing.ts). */
export const prefersComponentsV2 = (reply: Reply): boolean =>
  reply.blocks.some((b) => b.kind === 'card' && b.card.tile !== undefined);

/** One part of the message, and what it costs. */
interface Unit {
  components: APIMessageTopLevelComponent[];
  card: boolean;
}

/** Components in a tree, nested ones counted, as Discord counts them. */
export function componentCount(components: readonly unknown[]): number {
  let n = 0;
  for (const c of components) {
    if (typeof c !== 'object' || c === null) continue;
    n++;
    const { components: inner, accessory } = c as { components?: unknown; accessory?: unknown };
    if (Array.isArray(inner)) n += componentCount(inner);
    if (accessory) n += componentCount([accessory]);
  }
  return n;
}

/** Characters across the text displays of a tree. */
export function textLength(components: readonly unknown[]): number {
  let n = 0;
  for (const c of components) {
    if (typeof c !== 'object' || c === null) continue;
    const { type, content, components: inner } = c as { type?: number; content?: unknown; components?: unknown };
    if (type === 10 && typeof content === 'string') n += content.length;
    if (Array.isArray(inner)) n += textLength(inner);
  }
  return n;
}

const text = (content: string) => new TextDisplayBuilder().setContent(content);

/** A listing's words: its tile's (price and beds, area and size, the market line), else the card whole. */
function cardText(card: Card): string {
  const tile = card.tile;
  if (tile) {
    const lines = [
      `### ${markdown(orElse(tile.title, orElse(card.title, 'Listing')), 150)}`,
      tile.subtitle?.trim() ? markdown(tile.subtitle, 150) : undefined,
      tile.body?.trim() ? markdown(tile.body, 300) : undefined,
    ];
    return clampMarkdown(lines.filter((l) => l !== undefined).join('\n'), CARD_TEXT_MAX);
  }
  const lines = [
    `### ${markdown(orElse(card.title, 'Untitled'), 200)}`,
    card.subtitle?.trim() ? markdown(card.subtitle, 300) : undefined,
    card.body?.trim() ? markdown(card.body, 500) : undefined,
    card.badges?.some((b) => b.trim())
      ? `*${markdown(card.badges.filter((b) => b.trim()).join(' · '), 200)}*`
      : undefined,
    ...card.fields
      .filter((f) => f.label.trim() || f.value.trim())
      .map((f) => `**${markdown(orElse(f.label, '·'), 100)}**: ${fieldValue(f, 200)}`),
  ];
  return clampMarkdown(lines.filter((l) => l !== undefined).join('\n'), WHOLE_CARD_TEXT_MAX);
}

/** A listing as a container: its text beside the photo (a section with a thumbnail), then its buttons. */
function cardContainer(card: Card, buttons: Buttons): ContainerBuilder {
  const container = new ContainerBuilder().setAccentColor(COLOR);
  const words = text(cardText(card));
  const photo = imageUrl(card.imageUrl);
  if (photo) {
    const thumbnail = new ThumbnailBuilder()
      .setURL(photo)
      .setDescription(clampPlain(orElse(card.title, 'Photo'), L.thumbnailDescription));
    container.addSectionComponents(
      new SectionBuilder().addTextDisplayComponents(words).setThumbnailAccessory(thumbnail),
    );
  } else {
    // A section needs an accessory: without a photo the text stands alone.
    container.addTextDisplayComponents(words);
  }
  const own = card.buttons ?? [];
  const chosen: (APIButtonComponent | undefined)[] = [
    ...own.filter((b) => b.action === 'details').map((b) => buttons.action(b)),
    ...(card.links ?? []).map((l) => buttons.link(l)),
    ...own.filter((b) => b.action !== 'details').map((b) => buttons.action(b)),
  ];
  const row = rows(chosen.filter((b) => b !== undefined).slice(0, CARD_BUTTONS))[0];
  if (row) container.addActionRowComponents(row);
  return container;
}

/** Text longer than the room is cut at the message's text budget by the fitting; here one display a block. */
function blockUnit(block: Block, buttons: Buttons): Unit | undefined {
  const one = (content: string): Unit | undefined =>
    content.trim() ? { components: [text(clampMarkdown(content, L.text)).toJSON()], card: false } : undefined;
  switch (block.kind) {
    case 'header':
      return one(block.text.trim() ? `## ${markdown(block.text, 200)}` : '');
    case 'text':
      return one(block.text.trim() ? markdown(block.text, L.text) : '');
    case 'context':
      return one(block.text.trim() ? subtext(block.text) : '');
    case 'divider':
      return { components: [new SeparatorBuilder().toJSON()], card: false };
    case 'table':
      return one(
        tableText(block.columns, block.rows, { max: TABLE_MAX, fence: true, cell: (c) => codeSafe(tableCell(c)) }) ??
          '',
      );
    case 'image':
      // A chart in a V2 message goes as its words; channel posts (digests) keep embeds and attach the PNG.
      return one(markdown(imageFallback(block.image), 1_500));
    case 'card':
      return { components: [cardContainer(block.card, buttons).toJSON()], card: true };
    case 'actions':
    case 'location-picker':
      // Rows of buttons are the message's controls (see renderDiscordV2); Discord has no type-ahead in a message.
      return undefined;
  }
}

/** The reply as a Components V2 message within 40 components and 4,000 characters of text. */
export function renderDiscordV2(reply: Reply): DiscordV2Message {
  const buttons = new Buttons();
  const units = reply.blocks.map((b) => blockUnit(b, buttons)).filter((u) => u !== undefined);
  // The message's own buttons (Previous, Next, Save) are kept whatever else goes; rows of five, at most five rows.
  const controls: DiscordRow[] = reply.blocks
    .flatMap((b) => (b.kind === 'actions' ? rows(b.buttons.map((x) => buttons.action(x))) : []))
    .slice(0, DISCORD_LIMITS.actionRows);
  const footer = reply.footer?.trim() ? [text(subtext(reply.footer)).toJSON()] : [];
  const fixed = [...controls, ...footer];
  // One component and a line kept for the "…more not shown" note.
  let components = L.components - componentCount(fixed) - 1;
  let chars = L.text - textLength(fixed) - 40;
  const kept: APIMessageTopLevelComponent[] = [];
  let shown = 0;
  for (const unit of units) {
    const cost = componentCount(unit.components);
    const length = textLength(unit.components);
    if (cost > components || length > chars) break;
    kept.push(...unit.components);
    components -= cost;
    chars -= length;
    shown++;
  }
  const left = units.slice(shown);
  const note =
    left.length > 0 ? [text(`-# …${left.filter((u) => u.card).length || left.length} more not shown`).toJSON()] : [];
  let body = [...kept, ...note, ...controls, ...footer];
  if (!body.some((c) => c.type !== 1)) body = [text(markdown(fallbackText(reply), L.text)).toJSON(), ...body];
  return { flags: MessageFlags.IsComponentsV2, components: body, allowed_mentions: { parse: [] } };
}

/** The reply as one text display: the last resort, still V2 (a V2 message cannot be edited back into content). */
export function plainTextV2(reply: Reply): DiscordV2Message {
  return {
    flags: MessageFlags.IsComponentsV2,
    components: [text(markdown(fallbackText(reply), L.text)).toJSON()],
    allowed_mentions: { parse: [] },
  };
}
