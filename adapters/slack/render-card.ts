// Cards and buttons as Block Kit: a section (title, text, fields, image) and an actions block for its buttons.
import type {
  ActionsBlockElement,
  Button as SlackButton,
  KnownBlock,
  MrkdwnElement,
  PlainTextElement,
  SectionBlock,
} from '@slack/types';
import type { Button, Card, Field, LinkButton } from '../../src/views/model.js';
import { SLACK_LIMITS as L } from './limits.js';
import { inertCode } from '../shared/links.js';
import { clampPlain, cutValue, orElse } from '../shared/text.js';
import { clampMrkdwn, escapeMrkdwn, imageUrl, linkUrl, mrkdwnLink } from './render-text.js';

/** Hands out action_ids unique within one message. */
export class ActionIds {
  private n = 0;
  next(kind: string): string {
    const safe = cutValue(kind.replace(/[^\w-]/g, ''), 40) || 'button';
    return `manzil:${safe}:${++this.n}`;
  }
}

const TITLE_MAX = 600;
/** Longer card URLs are left unlinked so the title line cannot crowd out the rest of the section. */
const TITLE_URL_MAX = 1_500;
const FIELD_LABEL_MAX = 300;

export const plain = (text: string, max: number, fallback: string): PlainTextElement => ({
  type: 'plain_text',
  text: clampPlain(orElse(text, fallback), max),
  emoji: true,
});

export const mrkdwn = (text: string): MrkdwnElement => ({ type: 'mrkdwn', text });
/** mrkdwn that Slack shows as written: no auto-linking of URLs, channel names or mentions. */
const verbatimMrkdwn = (text: string): MrkdwnElement => ({ type: 'mrkdwn', text, verbatim: true });

export function button(b: Button, ids: ActionIds): SlackButton {
  const el: SlackButton = {
    type: 'button',
    text: plain(b.label, L.buttonText, b.action || 'Open'),
    action_id: ids.next(b.action),
  };
  const value = cutValue(b.token, L.buttonValue);
  if (value.trim()) el.value = value;
  if (b.style) el.style = b.style;
  return el;
}

/** A link button, or undefined when its URL is not one Slack accepts. */
export function linkButton(link: LinkButton, ids: ActionIds): SlackButton | undefined {
  const url = linkUrl(link.url);
  return url === undefined
    ? undefined
    : { type: 'button', text: plain(link.label, L.buttonText, 'Open'), url, action_id: ids.next('link') };
}

export function actionsBlock(elements: readonly (ActionsBlockElement | undefined)[]): KnownBlock[] {
  const kept = elements.filter((e) => e !== undefined).slice(0, L.actionsElements);
  return kept.length ? [{ type: 'actions', elements: kept }] : [];
}

function titleLine(card: Card): string {
  const title = orElse(card.title, 'Untitled');
  const url = linkUrl(card.url, TITLE_URL_MAX);
  if (url === undefined) return `*${clampMrkdwn(escapeMrkdwn(title), TITLE_MAX)}*`;
  // Clamp before mrkdwnLink escapes, so the cut cannot land inside the link syntax.
  return `*${mrkdwnLink(url, clampPlain(title, TITLE_MAX / 5))}*`;
}

/**
 * An address to read, not follow: inline code (Slack links nothing inside it), with the characters that would end the
 * code span or start a link percent-encoded. The text object carrying it is also sent with `verbatim: true`.
 */
const inertText = (value: string) => inertCode(value, { encode: /[`<>|\s]/g, escape: escapeMrkdwn });

const fieldText = (field: Field, separator = '\n') => {
  const head = field.label.trim() ? `*${clampMrkdwn(escapeMrkdwn(field.label), FIELD_LABEL_MAX)}*${separator}` : '';
  return head + (field.inert ? inertText(field.value) : escapeMrkdwn(orElse(field.value, '—')));
};

export function renderCard(card: Card, ids: ActionIds): KnownBlock[] {
  const fields = card.fields.filter((f) => f.label.trim() || f.value.trim());
  const shown = fields.slice(0, L.sectionFields);
  // Fields beyond Slack's ten go into the text rather than vanish.
  const extra = fields.slice(L.sectionFields).map((f) => fieldText(f, ': '));
  const rest = [
    card.subtitle?.trim() ? escapeMrkdwn(card.subtitle) : undefined,
    card.body?.trim() ? escapeMrkdwn(card.body) : undefined,
    card.badges?.some((b) => b.trim())
      ? `_${escapeMrkdwn(card.badges.filter((b) => b.trim()).join(' · '))}_`
      : undefined,
    ...extra,
  ]
    .filter((s) => s !== undefined)
    .join('\n');
  const head = titleLine(card);
  const text = rest ? `${head}\n${clampMrkdwn(rest, L.sectionText - head.length - 1)}` : head;

  const inertExtra = fields.slice(L.sectionFields).some((f) => f.inert);
  const section: SectionBlock = { type: 'section', text: inertExtra ? verbatimMrkdwn(text) : mrkdwn(text) };
  if (shown.length) {
    section.fields = shown.map((f) =>
      (f.inert ? verbatimMrkdwn : mrkdwn)(clampMrkdwn(fieldText(f), L.sectionFieldText)),
    );
  }
  const image = imageUrl(card.imageUrl);
  if (image)
    section.accessory = {
      type: 'image',
      image_url: image,
      alt_text: clampPlain(orElse(card.title, 'Photo'), L.imageAltText),
    };

  // Buttons first, then links, numbered in the order they appear.
  const buttons = (card.buttons ?? []).map((b) => button(b, ids));
  const links = (card.links ?? []).map((l) => linkButton(l, ids));
  return [section, ...actionsBlock([...buttons, ...links])];
}
