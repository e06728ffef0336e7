// Slack's Block Kit limits, in one table the renderer clamps to (https://api.slack.com/reference/block-kit).
// Lengths are in characters; we count UTF-16 code units (string.length), which is never fewer than Slack's count.
import type { Surface } from '../../src/bot/index.js';

export const SLACK_LIMITS = {
  /** Blocks in one message. */
  blocksPerMessage: 50,
  /** Text of a section block, and of any mrkdwn/plain_text object without a tighter limit. */
  sectionText: 3_000,
  /** Fields in one section block, and the length of each. */
  sectionFields: 10,
  sectionFieldText: 2_000,
  /** Header blocks take plain_text only. */
  headerText: 150,
  /** Elements in one context block. */
  contextElements: 10,
  /** Elements in one actions block. */
  actionsElements: 25,
  buttonText: 75,
  buttonValue: 2_000,
  buttonUrl: 3_000,
  actionId: 255,
  blockId: 255,
  /** Placeholder of a select menu (plain_text). */
  placeholderText: 150,
  /** Options an external_select's options request may answer with. */
  externalSelectOptions: 100,
  imageUrl: 3_000,
  imageAltText: 2_000,
  /** The top-level `text` of a message; Slack truncates longer messages. */
  fallbackText: 40_000,
  /** A carousel holds 1 to 10 card blocks (https://docs.slack.dev/reference/block-kit/blocks/carousel-block). */
  carouselCards: 10,
  /** A card block: title and subtitle (mrkdwn), body (mrkdwn), and up to 3 buttons under it (card-block). */
  cardTitle: 150,
  cardSubtitle: 150,
  cardBody: 200,
  cardButtons: 3,
  /**
   * A data_table block (data-table-block): a header row and 1 to 100 rows, 1 to 20 columns, every row as long, at most
   * 10,000 characters across all cells, and across all the tables of one message.
   */
  tableRows: 100,
  tableColumns: 20,
  tableCharacters: 10_000,
  tablePageSize: 100,
  /**
   * A data_visualization block (data-visualization-block): a title of 50 characters; a line chart of 1 to 6 series,
   * each named in 20 characters, with 1 to 20 points labelled in 20 characters, the labels those of the axis's
   * categories; axis titles of 50. At most two charts in one message.
   */
  chartTitle: 50,
  chartSeries: 6,
  chartSeriesName: 20,
  chartPoints: 20,
  chartLabel: 20,
  chartAxisLabel: 50,
  chartsPerMessage: 2,
  /** Blocks in a Home tab's view (views.publish; https://docs.slack.dev/surfaces/app-home). */
  blocksPerHomeView: 100,
} as const;

/** What one Slack reply holds, told to the core with every request: 10 cards fit in 50 blocks with their buttons. */
export const SLACK_SURFACE: Surface = { cardsPerPage: 10, buttonsPerCard: 5 };
