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
 * What one Discord reply holds, told to the core with every request. A search's page goes as Components V2
 * (render-v2.ts): a container per listing (the container, its section, the section's text and thumbnail, a row with
 * Details and the link: 7 components), so four listings take 28 of the 40 a message may hold, leaving room for the
 * page's text, its Previous / Next / Save row and the footer. The core keeps a card's link first, then its Details
 * button: two buttons a card.
 */
export const DISCORD_SURFACE: Surface = { cardsPerPage: 4, buttonsPerCard: 2 };

/**
 * Components V2 (the IS_COMPONENTS_V2 flag, https://discord.com/developers/docs/components/reference): at most 40
 * components in a message, nested ones counted (a container, its section, the section's text and thumbnail, a row and
 * its buttons each count one), at most 4,000 characters across its text displays, and no `content` or embeds beside
 * them. A section holds 1 to 3 text displays and one accessory; a thumbnail's description is at most 1,024.
 */
export const DISCORD_V2_LIMITS = {
  components: 40,
  text: 4_000,
  sectionTexts: 3,
  thumbnailDescription: 1_024,
} as const;

/**
 * A modal (interaction callback type 9, https://discord.com/developers/docs/components/reference#label): a title of at
 * most 45 characters, a custom_id of at most 100, 1 to 5 top-level components, each a Label (type 18: a label of at
 * most 45, a description of at most 100) around one text input or string select; a text input's value and its
 * max_length at most 4,000, its placeholder 100; a select's options at most 25, each label at most 100. Our own
 * caps on what each field may hold: a search as the command language reads one (500), a price range, a time.
 */
export const DISCORD_MODAL_LIMITS = {
  components: 5,
  title: 45,
  customId: 100,
  label: 45,
  description: 100,
  placeholder: 100,
  textValue: 4_000,
  selectOptions: 25,
  optionLabel: 100,
  search: 500,
  areas: 500,
  price: 40,
  time: 10,
} as const;
