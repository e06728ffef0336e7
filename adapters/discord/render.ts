// The neutral Reply as a Discord message that Discord accepts: a short content (the summary and notes), one embed per
// card,
// text and table (at most 10, 6,000 characters across them), and buttons in at most 5 rows of 5. Every text is clamped
// to DISCORD_LIMITS; a card's buttons are numbered, since components sit under all the embeds, never beside one.
import {
  ButtonStyle,
  ComponentType,
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIEmbed,
  type APIEmbedField,
} from 'discord.js';
import {
  imageFallback,
  type Block,
  type Button,
  type Card,
  type Field,
  type ImageFile,
  type LinkButton,
  type Reply,
} from '../../src/views/model.js';
import { fallbackText } from '../shared/fallback.js';
import { inertCode } from '../shared/links.js';
import { tableCell, tableText } from '../shared/table.js';
import { clampPlain, orElse } from '../shared/text.js';
import { DISCORD_LIMITS as L } from './limits.js';
import { BLANK, clampMarkdown, codeSafe, escapeText, imageUrl, linkUrl, markdown } from './render-text.js';

export type DiscordRow = APIActionRowComponent<APIButtonComponent>;

export interface DiscordMessage {
  content: string;
  embeds: APIEmbed[];
  components: DiscordRow[];
  /** Nothing in a listing may ping a channel: no @everyone, no roles, no users. */
  allowed_mentions: { parse: [] };
  /**
   * The files sent with the message (multipart `files[id]`), with their alt text: charts, see renderDiscordWithFiles.
   */
  attachments?: { id: number; filename: string; description?: string }[];
}

/** A file to send with a message, as discord.js's REST `files` option takes it. */
export interface DiscordFile {
  name: string;
  data: Buffer;
}

/** Manzil's colour on the left edge of its embeds. */
export const COLOR = 0x0e7c66;
/** A card's description (subtitle, text, badges): short, so a page of cards stays within 6,000 characters. */
const CARD_DESCRIPTION_MAX = 600;
const FIELD_VALUE_MAX = 300;
/** Field values up to this long sit side by side. */
const INLINE_MAX = 40;
/** A table leaves room for the other embeds of the message. */
const TABLE_MAX = 3_000;
/** Text goes into `content` while it stays this short; longer text becomes an embed's description. */
const CONTENT_TEXT_MAX = 1_800;
/** Link buttons: Discord allows 512 characters in a button's URL. */
const BUTTON_URL_MAX = 512;

/** The custom_id of a button: `manzil:<action>:<token>`, read back by the listener. */
export function customId(action: string, token: string): string {
  return `manzil:${action}:${token}`;
}

/** `manzil:page:abc.n` -> { action: 'page', token: 'abc.n' }; undefined for any other custom_id. */
export function readCustomId(id: string): { action: string; token: string } | undefined {
  const m = /^manzil:([a-z]+):(.*)$/s.exec(id);
  return m ? { action: m[1]!, token: m[2]! } : undefined;
}

/** One embed of the message, and what it came from. */
interface Unit {
  embed: APIEmbed;
  card?: Card;
  /** A chart attached to the message and shown in this embed. */
  file?: { name: string; image: ImageFile };
}

/** Attachment descriptions (alt text) are at most this long. */
const ATTACHMENT_DESCRIPTION_MAX = 1_024;

/**
 * A chart's file name as Discord keeps it, so `attachment://` finds it: letters, digits, `.`, `_` and `-` only, ending
 * in .png, never the same twice in one message.
 */
function attachmentName(name: string, taken: Set<string>): string {
  const base =
    name
      .replace(/\.png$/i, '')
      .replace(/[^\w.-]+/g, '_')
      .replace(/^[._]+/, '')
      .slice(0, 80) || 'chart';
  let candidate = `${base}.png`;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${base}-${n}.png`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

/** Characters Discord counts towards the 6,000 of a message. */
export function embedLength(e: APIEmbed): number {
  return (
    (e.title?.length ?? 0) +
    (e.description?.length ?? 0) +
    (e.footer?.text.length ?? 0) +
    (e.author?.name.length ?? 0) +
    (e.fields ?? []).reduce((n, f) => n + f.name.length + f.value.length, 0)
  );
}

/**
 * A field's value as markdown. An inert one (an address the core does not trust) goes in inline code, where Discord
 * makes no link of it; a backtick inside it is percent-encoded, since inline code has no escape.
 */
export function fieldValue(f: Field, max: number): string {
  return f.inert ? inertCode(f.value, { encode: /`/g, max }) : markdown(orElse(f.value, '—'), max);
}

function cardEmbed(card: Card): APIEmbed {
  const fields = card.fields.filter((f) => f.label.trim() || f.value.trim());
  const shown = fields.slice(0, L.embedFields);
  const part = (text: string) => markdown(text, CARD_DESCRIPTION_MAX);
  const description = [
    card.subtitle?.trim() ? part(card.subtitle) : undefined,
    card.body?.trim() ? part(card.body) : undefined,
    card.badges?.some((b) => b.trim()) ? `*${part(card.badges.filter((b) => b.trim()).join(' · '))}*` : undefined,
    // Fields beyond Discord's 25 go into the text rather than vanish.
    ...fields
      .slice(L.embedFields, L.embedFields + 20)
      .map((f) => `**${markdown(f.label, 100)}**: ${fieldValue(f, 200)}`),
  ]
    .filter((s) => s !== undefined)
    .join('\n');
  const embed: APIEmbed = { color: COLOR, title: markdown(orElse(card.title, 'Untitled'), L.embedTitle) };
  const url = linkUrl(card.url);
  if (url) embed.url = url;
  if (description) embed.description = clampMarkdown(description, CARD_DESCRIPTION_MAX);
  if (shown.length) {
    embed.fields = shown.map((f): APIEmbedField => {
      const value = fieldValue(f, FIELD_VALUE_MAX);
      return {
        name: f.label.trim() ? markdown(f.label, L.fieldName) : BLANK,
        value,
        inline: value.length <= INLINE_MAX,
      };
    });
  }
  const image = imageUrl(card.imageUrl);
  if (image) embed.image = { url: image };
  return embed;
}

/** Text longer than one description is split at line ends into several embeds. */
function textEmbeds(text: string): APIEmbed[] {
  // More than the characters a message's embeds may hold could never be shown.
  const escaped = markdown(text, L.embedTotal);
  const parts: string[] = [];
  let rest = escaped;
  while (rest.length > L.embedDescription) {
    const cut = rest.lastIndexOf('\n', L.embedDescription);
    let at = cut > L.embedDescription / 2 ? cut : L.embedDescription - 1;
    // Never between a backslash and the character it escapes.
    while (at > 0 && (/\\+$/.exec(rest.slice(0, at))?.[0].length ?? 0) % 2 === 1) at--;
    parts.push(rest.slice(0, at));
    rest = rest.slice(at).replace(/^\n/, '');
  }
  if (rest.trim()) parts.push(rest.trimEnd());
  return parts.map((description) => ({ color: COLOR, description }));
}

/** Shrinks one embed to `max` characters: fields go from the end first, then the description is cut. */
function fitEmbed(embed: APIEmbed, max: number): APIEmbed {
  const e: APIEmbed = { ...embed, ...(embed.fields ? { fields: [...embed.fields] } : {}) };
  while (embedLength(e) > max && e.fields?.length) e.fields.pop();
  if (e.fields?.length === 0) delete e.fields;
  if (embedLength(e) > max && e.description) {
    const room = max - (embedLength(e) - e.description.length);
    if (room > 1) e.description = clampMarkdown(e.description, room);
    else delete e.description;
  }
  if (embedLength(e) > max && e.title)
    e.title = clampMarkdown(e.title, Math.max(1, max - (embedLength(e) - e.title.length)));
  return e;
}

function style(b: Button): ButtonStyle.Primary | ButtonStyle.Secondary | ButtonStyle.Danger {
  return b.style === 'primary'
    ? ButtonStyle.Primary
    : b.style === 'danger'
      ? ButtonStyle.Danger
      : ButtonStyle.Secondary;
}

/** Hands out components, never two with one custom_id in a message, never one Discord would refuse. */
export class Buttons {
  private readonly ids = new Set<string>();

  action(b: Button, suffix = ''): APIButtonComponent | undefined {
    const id = customId(b.action, b.token);
    // A token is opaque: a cut one would lead nowhere, so a button whose id is too long is left out.
    if (!b.token.trim() || id.length > L.customId || this.ids.has(id)) return undefined;
    this.ids.add(id);
    const label = clampPlain(orElse(b.label, b.action || 'Open'), L.buttonLabel - suffix.length) + suffix;
    return { type: ComponentType.Button, style: style(b), label, custom_id: id };
  }

  link(l: LinkButton, suffix = ''): APIButtonComponent | undefined {
    const url = linkUrl(l.url, BUTTON_URL_MAX);
    if (!url) return undefined;
    return {
      type: ComponentType.Button,
      style: ButtonStyle.Link,
      label: clampPlain(orElse(l.label, 'Open'), L.buttonLabel - suffix.length) + suffix,
      url,
    };
  }
}

export function rows(components: readonly (APIButtonComponent | undefined)[]): DiscordRow[] {
  const kept = components.filter((c) => c !== undefined);
  const out: DiscordRow[] = [];
  for (let i = 0; i < kept.length; i += L.buttonsPerRow) {
    out.push({ type: ComponentType.ActionRow, components: kept.slice(i, i + L.buttonsPerRow) });
  }
  return out;
}

export const subtext = (text: string) => `-# ${markdown(text.replace(/\s*\n\s*/g, ' '), 500)}`;

/**
 * The reply as a message that carries its charts as files: each image block becomes an embed showing its attachment
 * (`attachment://name`), and `files` holds the PNGs of the charts kept (a chart whose embed did not fit is not sent).
 * For channel posts; an interaction's answer (renderDiscord) shows a chart's text fallback.
 */
export function renderDiscordWithFiles(reply: Reply): { message: DiscordMessage; files: DiscordFile[] } {
  return render(reply, true);
}

export function renderDiscord(reply: Reply): DiscordMessage {
  return render(reply, false).message;
}

function render(reply: Reply, attach: boolean): { message: DiscordMessage; files: DiscordFile[] } {
  const names = new Set<string>();
  const content: string[] = [];
  const units: Unit[] = [];
  const controls: Button[][] = [];
  const footnote = (text: string) => {
    // A note after an embed belongs to it: its footer, under the card it speaks of.
    const last = units.at(-1)!.embed;
    last.footer = { text: clampPlain([last.footer?.text, text].filter(Boolean).join('\n'), L.footerText) };
  };

  for (const block of reply.blocks) renderBlock(block);
  function renderBlock(block: Block): void {
    switch (block.kind) {
      case 'header':
        if (block.text.trim()) content.push(`**${markdown(block.text, 400)}**`);
        return;
      case 'context':
        if (!block.text.trim()) return;
        if (units.length === 0) content.push(subtext(block.text));
        else footnote(block.text);
        return;
      case 'text': {
        if (!block.text.trim()) return;
        // Escaping only lengthens: text already longer than the room never fits, and is not escaped in vain.
        const escaped = block.text.length <= CONTENT_TEXT_MAX ? escapeText(block.text) : undefined;
        const used = content.join('\n').length;
        if (units.length === 0 && escaped !== undefined && used + escaped.length <= CONTENT_TEXT_MAX)
          content.push(escaped);
        else units.push(...textEmbeds(block.text).map((embed) => ({ embed })));
        return;
      }
      case 'table': {
        const description = tableText(block.columns, block.rows, {
          max: TABLE_MAX,
          fence: true,
          cell: (c) => codeSafe(tableCell(c)),
        });
        if (description) units.push({ embed: { color: COLOR, description } });
        return;
      }
      case 'card':
        units.push({ embed: cardEmbed(block.card), card: block.card });
        return;
      case 'actions':
        if (block.buttons.length) controls.push([...block.buttons]);
        return;
      case 'divider':
        return;
      case 'image': {
        if (!attach || !block.image.pngBase64) {
          units.push(...textEmbeds(imageFallback(block.image)).map((embed) => ({ embed })));
          return;
        }
        const name = attachmentName(block.image.name, names);
        const embed: APIEmbed = { color: COLOR, image: { url: `attachment://${name}` } };
        if (block.image.title.trim()) embed.title = markdown(block.image.title, L.embedTitle);
        units.push({ embed, file: { name, image: block.image } });
        return;
      }
      case 'location-picker':
        // Discord has no select menu that searches as you type inside a message: a search is refined with the
        // `location` option of the command, which does.
        return;
    }
  }

  // At most 10 embeds and 6,000 characters across them; the footer line is kept room for. Whole units go from the end.
  const footer = reply.footer?.trim() ? clampPlain(reply.footer.trim(), 500) : undefined;
  let budget = L.embedTotal - (footer ? footer.length + 1 : 0);
  const kept: Unit[] = [];
  const urls = new Set<string>();
  for (const unit of units) {
    if (kept.length === L.embedsPerMessage) break;
    // Room for the number a card's title may get ("10. ").
    const numberRoom = unit.card ? 4 : 0;
    const embed = kept.length === 0 ? fitEmbed(unit.embed, budget - numberRoom) : { ...unit.embed };
    if (embedLength(embed) + numberRoom > budget) break;
    // Discord merges embeds that share a URL into one gallery: a repeated link is left off the later card.
    if (embed.url !== undefined && urls.has(embed.url)) delete embed.url;
    if (embed.url !== undefined) urls.add(embed.url);
    kept.push({ ...unit, embed });
    budget -= embedLength(embed) + numberRoom;
  }
  // Notes end the content whatever its length: the text before them is cut to leave them room.
  const notes: string[] = [];
  const dropped = units.length - kept.length;
  if (dropped > 0) {
    const cards = units.slice(kept.length).filter((u) => u.card).length;
    notes.push(`-# …${cards || dropped} more not shown`);
  }
  if (footer) {
    if (kept.length > 0) {
      const last = kept.at(-1)!.embed;
      last.footer = { text: clampPlain([last.footer?.text, footer].filter(Boolean).join('\n'), L.footerText) };
    } else {
      notes.push(subtext(footer));
    }
  }

  // Buttons: the message's own (paging, save, "which one?") keep their rows; the cards' share what is left.
  const buttons = new Buttons();
  const controlRows = controls.flatMap((group) => rows(group.map((b) => buttons.action(b)))).slice(0, L.actionRows);
  const cards = kept.filter((u) => u.card);
  const numbered = cards.length > 1 && cards.some((u) => u.card!.buttons?.length || u.card!.links?.length);
  const cardButtons: (APIButtonComponent | undefined)[] = [];
  cards.forEach((unit, i) => {
    const n = numbered ? ` ${i + 1}` : '';
    if (numbered) unit.embed.title = clampMarkdown(`${i + 1}. ${unit.embed.title ?? ''}`, L.embedTitle);
    for (const b of unit.card!.buttons ?? []) cardButtons.push(buttons.action(b, n));
    // The card's own link is already its title's URL.
    for (const l of unit.card!.links ?? []) if (linkUrl(l.url) !== unit.embed.url) cardButtons.push(buttons.link(l, n));
  });
  const cardRows = rows(cardButtons).slice(0, L.actionRows - controlRows.length);

  const tail = notes.join('\n');
  const room = L.content - (tail ? tail.length + 1 : 0);
  let body = clampMarkdown(content.join('\n'), room);
  if (!body.trim() && kept.length === 0) body = markdown(fallbackText(reply), room);
  const text = [body, tail].filter((t) => t.trim()).join('\n');
  const attached = kept.flatMap((u) => (u.file ? [u.file] : []));
  const message: DiscordMessage = {
    content: text,
    embeds: kept.map((u) => u.embed),
    components: [...cardRows, ...controlRows],
    allowed_mentions: { parse: [] },
  };
  if (attached.length) {
    message.attachments = attached.map((f, id) => ({
      id,
      filename: f.name,
      ...(f.image.alt.trim() ? { description: clampPlain(f.image.alt.trim(), ATTACHMENT_DESCRIPTION_MAX) } : {}),
    }));
  }
  return { message, files: attached.map((f) => ({ name: f.name, data: Buffer.from(f.image.pngBase64, 'base64') })) };
}

/** The reply as plain text only: the last resort. */
export function plainText(reply: Reply): DiscordMessage {
  return {
    content: markdown(fallbackText(reply), L.content),
    embeds: [],
    components: [],
    allowed_mentions: { parse: [] },
  };
}
