// Cards that carry a tile (a search's listings) as Slack's carousel of card blocks: the photo as hero image, the tile's
// title, subtitle and body clamped to the card block's limits, and at most three buttons (Details, Save, the link).
import type { Button as SlackButton, CardBlock, CarouselBlock } from '@slack/types';
import type { Button, Card } from '../../src/views/model.js';
import { clampPlain, orElse } from '../shared/text.js';
import { SLACK_LIMITS as L } from './limits.js';
import { button, linkButton, mrkdwn, type ActionIds } from './render-card.js';
import { clampMrkdwn, escapeMrkdwn, imageUrl } from './render-text.js';

/** A tile's text as a card's mrkdwn field, escaped, then clamped so no entity is cut. */
const cardText = (text: string, max: number) => mrkdwn(clampMrkdwn(escapeMrkdwn(text), max));

/**
 * The card's buttons, best first, within the card block's three: its Details, the page's Save, its link, then the rest
 * (a person's listings), which the card's fields name by command anyway.
 */
function cardActions(card: Card, save: Button | undefined, ids: ActionIds): SlackButton[] {
  const own = card.buttons ?? [];
  const details = own.filter((b) => b.action === 'details');
  const others = own.filter((b) => b.action !== 'details');
  const chosen: (SlackButton | undefined)[] = [
    ...details.map((b) => button(b, ids)),
    save && button(save, ids),
    ...(card.links ?? []).map((l) => linkButton(l, ids)),
    ...others.map((b) => button(b, ids)),
  ];
  return chosen.filter((b) => b !== undefined).slice(0, L.cardButtons);
}

export function cardBlock(card: Card, save: Button | undefined, ids: ActionIds): CardBlock {
  const tile = card.tile ?? { title: card.title, subtitle: card.subtitle, body: card.body };
  const block: CardBlock = {
    type: 'card',
    title: cardText(orElse(tile.title, orElse(card.title, 'Listing')), L.cardTitle),
  };
  if (tile.subtitle?.trim()) block.subtitle = cardText(tile.subtitle, L.cardSubtitle);
  if (tile.body?.trim()) block.body = cardText(tile.body, L.cardBody);
  const image = imageUrl(card.imageUrl);
  if (image)
    block.hero_image = {
      type: 'image',
      image_url: image,
      alt_text: clampPlain(orElse(card.title, 'Photo'), L.imageAltText),
    };
  const actions = cardActions(card, save, ids);
  if (actions.length) block.actions = actions;
  return block;
}

/** Cards as carousels of at most ten. */
export function carousels(cards: readonly Card[], save: Button | undefined, ids: ActionIds): CarouselBlock[] {
  const out: CarouselBlock[] = [];
  for (let i = 0; i < cards.length; i += L.carouselCards)
    out.push({ type: 'carousel', elements: cards.slice(i, i + L.carouselCards).map((c) => cardBlock(c, save, ids)) });
  return out;
}
