// Discord's message limits, in one table the renderer clamps to
// (https://discord.com/developers/docs/resources/message).
// Lengths are in characters; we count UTF-16 code units (string.length), which is never fewer than Discord's count.
import type { Surface } from '../../src/bot/index.js';

export const DISCORD_LIMITS = {
  /** Message `content`. */
  content: 2_000,
  /** Embeds in one message, and the characters across all of them (title, description, fields, footer, author). */
  embedsPerMessage: 10,
  embedTotal: 6_000,
  embedTitle: 256,
  embedDescription: 4_096,
  embedFields: 25,
  fieldName: 256,
  fieldValue: 1_024,
  footerText: 2_048,
  authorName: 256,
  /** Embed and image URLs: Discord documents none, but refuses very long ones; our own cap. */
  url: 2_048,
  /** Action rows in one message, buttons in one row. */
  actionRows: 5,
  buttonsPerRow: 5,
  buttonLabel: 80,
  customId: 100,
  /** Autocomplete: choices in one answer, and each choice's name and value. */
  autocompleteChoices: 25,
  choiceName: 100,
  choiceValue: 100,
  /** A message nonce: an integer or a string of at most 25 characters. */
  nonce: 25,
  /** Discord waits 3 s for an autocomplete answer; we answer within this, with what we have. */
  autocompleteDeadlineMs: 2_500,
} as const;

/**
 * What one Discord reply holds, told to the core with every request. Components sit under all the embeds, never beside
 * a
 * card, so a card's buttons are numbered ("Details 3") and packed into the rows left after the message's own controls:
 * 8 cards × 2 buttons = 16 fit in 4 rows of 5, the 5th row keeps Previous / Next / Save as alert. The core keeps a
 * card's link first, then its Details button; the renderer shows the link as the embed's title URL when they match, so
 * usually only the Details buttons take room. 8 embeds also leave two for text and tables and keep a page of listings
 * well inside the 6,000 characters Discord allows across a message's embeds.
 */
export const DISCORD_SURFACE: Surface = { cardsPerPage: 8, buttonsPerCard: 2 };
