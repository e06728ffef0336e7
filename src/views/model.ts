// The platform-neutral message model. Views build it; each adapter renders it within its own limits.
// Text is plain (no platform markup): renderers escape it and add their own emphasis.

/** A button. `action` names the handler; `token` is an opaque key to the state stored behind it. */
export interface Button {
  readonly label: string;
  readonly action: ButtonAction;
  readonly token: string;
  readonly style?: 'primary' | 'danger';
}

export type ButtonAction = 'page' | 'save' | 'details' | 'choose' | 'value';

/** A link button that opens a URL and needs no handler. */
export interface LinkButton {
  readonly label: string;
  readonly url: string;
}

export interface Field {
  readonly label: string;
  readonly value: string;
  /**
   * The value is an address to be read, not followed (an untrusted or plain-http listing link): renderers must show it
   * as inert text that the platform will not turn into a link (Slack: verbatim inline code; Discord: inline code).
   */
  readonly inert?: true;
}

/** One record shown as a card: a listing, a project, an agent... */
export interface Card {
  readonly title: string;
  readonly url?: string;
  readonly subtitle?: string;
  /** Short free text under the title (a description, an address). */
  readonly body?: string;
  readonly fields: readonly Field[];
  readonly imageUrl?: string;
  /** Small labels such as "Super agent" or "Verified". */
  readonly badges?: readonly string[];
  readonly buttons?: readonly Button[];
  readonly links?: readonly LinkButton[];
  /**
   * The card in a few words, for a platform that shows it as a tile (Slack's card block in a carousel, a Discord
   * section): a listing's price and beds, its area and size, its market line. Absent: the card is shown whole.
   */
  readonly tile?: Tile;
}

/** A card's tile: a title, a line under it, a short body; the renderer clamps each to its platform's limits. */
export interface Tile {
  readonly title: string;
  readonly subtitle?: string;
  readonly body?: string;
}

export type Block =
  | { readonly kind: 'header'; readonly text: string }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'context'; readonly text: string }
  | { readonly kind: 'divider' }
  | { readonly kind: 'card'; readonly card: Card }
  /** A compact table; renderers may draw it as monospaced text. */
  | { readonly kind: 'table'; readonly columns: readonly string[]; readonly rows: readonly (readonly string[])[] }
  | { readonly kind: 'actions'; readonly buttons: readonly Button[] }
  /** A location picker that searches as the person types (Slack external_select, Discord autocomplete). */
  | { readonly kind: 'location-picker'; readonly token: string; readonly placeholder: string }
  /**
   * A picture made by Manzil (a chart) as a file. Where the platform or the way of answering cannot carry a file, the
   * renderer shows `imageFallback(block)` instead: the core owns that text.
   */
  | { readonly kind: 'image'; readonly image: ImageFile };

/** A PNG made by Manzil, with its words. */
export interface ImageFile {
  /** The file name, e.g. `digest-dubai-marina.png`. */
  readonly name: string;
  readonly title: string;
  /** A short description (alt text). */
  readonly alt: string;
  /** What stands in for the picture as text: a sparkline per series, say. */
  readonly fallback: string;
  /** The PNG, base64. */
  readonly pngBase64: string;
  /** The values the PNG draws, for a platform that can draw the chart itself (Slack's data_visualization). */
  readonly data?: ChartData;
}

/** A line chart's values: one line per series, a value per month (YYYY-MM), each month in `months` (the x axis). */
export interface ChartData {
  readonly months: readonly string[];
  readonly series: readonly { readonly name: string; readonly points: readonly { month: string; value: number }[] }[];
  readonly yLabel?: string;
  readonly xLabel?: string;
}

/** The text that stands in for an image where no file can be shown. */
export const imageFallback = (image: ImageFile): string =>
  [`📈 ${image.title}`, image.fallback].filter(Boolean).join('\n');

/** What the bot answers to one request or one button press. */
export interface Reply {
  /** Plain-text fallback and notification text; always present. */
  readonly text: string;
  readonly blocks: readonly Block[];
  /** Visible only to the person who asked (errors, hints). */
  readonly ephemeral?: boolean;
  /** For a button press: replace the message the button belongs to, rather than posting a new one. */
  readonly replaceOriginal?: boolean;
  /** A line shown at the bottom, e.g. "Sample data from the local sandbox". */
  readonly footer?: string;
  /** The ask found nothing to look up (no area of a compare was found): it spends nothing of the person's limits. */
  readonly foundNothing?: boolean;
  /**
   * Nothing was done: the request was refused (a duplicate, a limit, a place not found, an order not theirs). A form
   * that sent it is offered again as typed; a private confirmation alone cannot say so.
   */
  readonly refused?: boolean;
  /**
   * Posted as a reply in the thread of this earlier message of the channel (issue 40: a price drop under its listing's
   * first card): the platform's own reference as its poster answered it, opaque to the core. A poster that cannot
   * reply there posts in the channel.
   */
  readonly thread?: string;
}
