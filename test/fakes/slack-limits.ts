// An independent check of a message payload against Slack's documented Block Kit rules, written from the docs
// (https://api.slack.com/reference/block-kit), not from our renderer, so the fake refuses what Slack would refuse.
// Lengths are UTF-16 code units: never fewer than the characters Slack counts, so passing here is safe there.

const MAX = {
  blocks: 50,
  text: 3_000,
  fields: 10,
  field: 2_000,
  header: 150,
  contextElements: 10,
  actionsElements: 25,
  buttonText: 75,
  buttonValue: 2_000,
  url: 3_000,
  id: 255,
  placeholder: 150,
  altText: 2_000,
  messageText: 40_000,
  // carousel-block, card-block
  carouselCards: 10,
  cardTitle: 150,
  cardSubtitle: 150,
  cardBody: 200,
  cardButtons: 3,
  // data-table-block: a header and 1 to 100 rows, 1 to 20 columns, 10,000 characters of cells a table and a message
  tableRows: 101,
  tableColumns: 20,
  tableCharacters: 10_000,
  // data-visualization-block
  chartTitle: 50,
  chartSeries: 6,
  chartName: 20,
  chartPoints: 20,
  chartAxis: 50,
  charts: 2,
  // app-home: a Home tab's view holds at most 100 blocks
  homeBlocks: 100,
} as const;

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

class Checker {
  readonly errors: string[] = [];
  /** Characters in the cells of every data_table of the message, and its charts. */
  tableCharacters = 0;
  charts = 0;
  private readonly actionIds = new Set<string>();
  private readonly blockIds = new Set<string>();

  /** A view's action ids need only be unique within their block (a message's, here, across it). */
  nextBlock(): void {
    this.actionIds.clear();
  }

  fail(where: string, message: string): void {
    this.errors.push(`${where}: ${message}`);
  }

  /** A string that must be present, not blank, and within `max`. */
  string(where: string, value: unknown, max: number): void {
    if (typeof value !== 'string') return this.fail(where, 'must be a string');
    if (value.trim() === '') return this.fail(where, 'must not be empty');
    if (value.length > max) this.fail(where, `must be at most ${max} characters (got ${value.length})`);
  }

  textObject(where: string, value: unknown, max: number, types: readonly string[] = ['plain_text', 'mrkdwn']): void {
    if (!isObject(value)) return this.fail(where, 'must be a text object');
    if (typeof value.type !== 'string' || !types.includes(value.type))
      this.fail(`${where}.type`, `must be one of ${types.join(', ')}`);
    this.string(`${where}.text`, value.text, max);
  }

  id(where: string, value: unknown, seen: Set<string>): void {
    if (value === undefined) return;
    this.string(where, value, MAX.id);
    if (typeof value !== 'string') return;
    if (seen.has(value)) this.fail(where, `duplicate id ${JSON.stringify(value.slice(0, 60))}`);
    seen.add(value);
  }

  url(where: string, value: unknown, protocols: readonly string[]): URL | undefined {
    this.string(where, value, MAX.url);
    if (typeof value !== 'string') return undefined;
    try {
      const url = new URL(value);
      if (protocols.includes(url.protocol)) return url;
      this.fail(where, `must be ${protocols.join(' or ')}`);
    } catch {
      this.fail(where, 'must be a valid URL');
    }
    return undefined;
  }

  /** Slack fetches images itself; only https, and not WebP, are safe to send. */
  image(where: string, el: Json): void {
    const url = this.url(`${where}.image_url`, el.image_url, ['https:']);
    if (url?.pathname.toLowerCase().endsWith('.webp')) this.fail(`${where}.image_url`, 'WebP images are not supported');
    this.string(`${where}.alt_text`, el.alt_text, MAX.altText);
  }

  element(where: string, el: unknown): void {
    if (!isObject(el)) return this.fail(where, 'must be an object');
    if (el.type !== 'image') this.id(`${where}.action_id`, el.action_id, this.actionIds);
    switch (el.type) {
      case 'button':
        this.textObject(`${where}.text`, el.text, MAX.buttonText, ['plain_text']);
        if (el.value !== undefined) this.string(`${where}.value`, el.value, MAX.buttonValue);
        if (el.url !== undefined) this.url(`${where}.url`, el.url, ['https:', 'http:']);
        if (el.style !== undefined && el.style !== 'primary' && el.style !== 'danger')
          this.fail(`${where}.style`, 'must be primary or danger');
        return;
      case 'image':
        return this.image(where, el);
      case 'static_select':
      case 'external_select':
      case 'users_select':
      case 'conversations_select':
      case 'channels_select':
        if (el.placeholder !== undefined)
          this.textObject(`${where}.placeholder`, el.placeholder, MAX.placeholder, ['plain_text']);
        if (el.min_query_length !== undefined && (typeof el.min_query_length !== 'number' || el.min_query_length < 0)) {
          this.fail(`${where}.min_query_length`, 'must be a non-negative number');
        }
        return;
      case 'overflow':
      case 'datepicker':
        return;
      default:
        return this.fail(`${where}.type`, `unsupported element ${String(el.type)}`);
    }
  }

  block(where: string, block: unknown): void {
    if (!isObject(block)) return this.fail(where, 'must be an object');
    this.id(`${where}.block_id`, block.block_id, this.blockIds);
    switch (block.type) {
      case 'section': {
        if (block.text === undefined && block.fields === undefined) this.fail(where, 'needs text or fields');
        if (block.text !== undefined) this.textObject(`${where}.text`, block.text, MAX.text);
        if (block.fields !== undefined) {
          if (!Array.isArray(block.fields) || block.fields.length === 0)
            this.fail(`${where}.fields`, 'must be a non-empty array');
          else {
            if (block.fields.length > MAX.fields)
              this.fail(`${where}.fields`, `at most ${MAX.fields} fields (got ${block.fields.length})`);
            block.fields.forEach((f, i) => this.textObject(`${where}.fields[${i}]`, f, MAX.field));
          }
        }
        if (block.accessory !== undefined) this.element(`${where}.accessory`, block.accessory);
        return;
      }
      case 'header':
        return this.textObject(`${where}.text`, block.text, MAX.header, ['plain_text']);
      case 'divider':
        return;
      case 'image':
        return this.image(where, block);
      case 'context':
      case 'actions': {
        const max = block.type === 'context' ? MAX.contextElements : MAX.actionsElements;
        if (!Array.isArray(block.elements) || block.elements.length === 0)
          return this.fail(`${where}.elements`, 'must be a non-empty array');
        if (block.elements.length > max)
          this.fail(`${where}.elements`, `at most ${max} elements (got ${block.elements.length})`);
        block.elements.forEach((el: unknown, i) => {
          const at = `${where}.elements[${i}]`;
          if (block.type === 'actions') return this.element(at, el);
          if (isObject(el) && el.type === 'image') return this.image(at, el);
          this.textObject(at, el, MAX.text);
        });
        return;
      }
      case 'carousel': {
        if (!Array.isArray(block.elements) || block.elements.length === 0)
          return this.fail(`${where}.elements`, 'must be a non-empty array');
        if (block.elements.length > MAX.carouselCards)
          this.fail(`${where}.elements`, `at most ${MAX.carouselCards} cards (got ${block.elements.length})`);
        block.elements.forEach((card: unknown, i) => {
          const at = `${where}.elements[${i}]`;
          if (!isObject(card) || card.type !== 'card') return this.fail(at, 'a carousel holds card blocks only');
          this.block(at, card);
        });
        return;
      }
      case 'card':
        return this.card(where, block);
      case 'data_table':
        return this.dataTable(where, block);
      case 'data_visualization':
        return this.chart(where, block);
      default:
        return this.fail(`${where}.type`, `unsupported block ${String(block.type)}`);
    }
  }

  /** A card: at least one of hero_image, title, actions or body; mrkdwn texts of 150/150/200; up to 3 buttons. */
  private card(where: string, card: Json): void {
    const { hero_image, title, subtitle, body, actions, icon } = card;
    if (hero_image === undefined && title === undefined && actions === undefined && body === undefined)
      this.fail(where, 'a card needs one of hero_image, title, actions or body');
    if (hero_image !== undefined) this.imageElement(`${where}.hero_image`, hero_image);
    if (icon !== undefined) this.imageElement(`${where}.icon`, icon);
    if (title !== undefined) this.textObject(`${where}.title`, title, MAX.cardTitle, ['mrkdwn']);
    if (subtitle !== undefined) this.textObject(`${where}.subtitle`, subtitle, MAX.cardSubtitle, ['mrkdwn']);
    if (body !== undefined) this.textObject(`${where}.body`, body, MAX.cardBody, ['mrkdwn']);
    if (actions === undefined) return;
    if (!Array.isArray(actions) || actions.length === 0)
      return this.fail(`${where}.actions`, 'must be a non-empty array');
    if (actions.length > MAX.cardButtons)
      this.fail(`${where}.actions`, `at most ${MAX.cardButtons} buttons (got ${actions.length})`);
    actions.forEach((b: unknown, i) => {
      const at = `${where}.actions[${i}]`;
      if (!isObject(b) || b.type !== 'button') return this.fail(at, 'a card holds buttons only');
      this.element(at, b);
    });
  }

  private imageElement(where: string, el: unknown): void {
    if (!isObject(el) || el.type !== 'image') return this.fail(where, 'must be an image element');
    this.image(where, el);
  }

  /** A data_table: caption, a raw_text header, 1 to 100 rows as wide as it, 1 to 20 columns, 10,000 characters. */
  private dataTable(where: string, table: Json): void {
    if (typeof table.caption !== 'string' || table.caption.trim() === '') this.fail(`${where}.caption`, 'is required');
    if (table.page_size !== undefined) {
      const n = table.page_size;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 100)
        this.fail(`${where}.page_size`, 'must be a whole number from 1 to 100');
    }
    const rows = table.rows;
    if (!Array.isArray(rows) || rows.length < 2)
      return this.fail(`${where}.rows`, 'needs a header and at least one row');
    if (rows.length > MAX.tableRows) this.fail(`${where}.rows`, `at most ${MAX.tableRows} rows (got ${rows.length})`);
    const width = Array.isArray(rows[0]) ? rows[0].length : 0;
    if (width < 1 || width > MAX.tableColumns)
      this.fail(`${where}.rows[0]`, `must have 1 to ${MAX.tableColumns} cells`);
    let characters = 0;
    rows.forEach((row: unknown, r) => {
      const at = `${where}.rows[${r}]`;
      if (!Array.isArray(row)) return this.fail(at, 'must be an array');
      if (row.length !== width) this.fail(at, `every row must have ${width} cells (got ${row.length})`);
      row.forEach((c: unknown, k) => {
        const cellAt = `${at}[${k}]`;
        if (!isObject(c)) return this.fail(cellAt, 'must be a cell');
        if (c.type === 'rich_text' && r === 0) return this.fail(cellAt, 'a header cell may not be rich_text');
        if (c.type === 'raw_number' && (typeof c.value !== 'number' || !Number.isFinite(c.value)))
          this.fail(`${cellAt}.value`, 'must be a number');
        if (c.type !== 'raw_text' && c.type !== 'raw_number' && c.type !== 'rich_text')
          return this.fail(`${cellAt}.type`, 'must be raw_text, raw_number or rich_text');
        if (c.type === 'rich_text') return;
        if (typeof c.text !== 'string' || c.text.length < 1) return this.fail(`${cellAt}.text`, 'must not be empty');
        characters += c.text.length;
      });
    });
    if (characters > MAX.tableCharacters)
      this.fail(where, `at most ${MAX.tableCharacters} characters across its cells (got ${characters})`);
    this.tableCharacters += characters;
  }

  /** A data_visualization line chart: its title, 1 to 6 uniquely named series, their points on the axis's categories. */
  private chart(where: string, block: Json): void {
    this.charts++;
    this.string(`${where}.title`, block.title, MAX.chartTitle);
    const chart = block.chart;
    if (!isObject(chart)) return this.fail(`${where}.chart`, 'is required');
    if (!['line', 'bar', 'area', 'pie'].includes(String(chart.type)))
      return this.fail(`${where}.chart.type`, 'must be pie, bar, area or line');
    if (chart.type === 'pie') return;
    const axis = chart.axis_config;
    if (!isObject(axis) || !Array.isArray(axis.categories) || axis.categories.length === 0)
      return this.fail(`${where}.chart.axis_config.categories`, 'is required');
    const categories = axis.categories as unknown[];
    categories.forEach((c, i) => this.string(`${where}.chart.axis_config.categories[${i}]`, c, MAX.chartName));
    for (const key of ['x_label', 'y_label'] as const)
      if (axis[key] !== undefined) this.string(`${where}.chart.axis_config.${key}`, axis[key], MAX.chartAxis);
    const series = chart.series;
    if (!Array.isArray(series) || series.length === 0) return this.fail(`${where}.chart.series`, 'is required');
    if (series.length > MAX.chartSeries)
      this.fail(`${where}.chart.series`, `at most ${MAX.chartSeries} series (got ${series.length})`);
    const names = new Set<unknown>();
    series.forEach((s: unknown, i) => {
      const at = `${where}.chart.series[${i}]`;
      if (!isObject(s)) return this.fail(at, 'must be an object');
      this.string(`${at}.name`, s.name, MAX.chartName);
      if (names.has(s.name)) this.fail(`${at}.name`, 'series names must be unique');
      names.add(s.name);
      if (!Array.isArray(s.data) || s.data.length === 0) return this.fail(`${at}.data`, 'needs at least one point');
      if (s.data.length > MAX.chartPoints)
        this.fail(`${at}.data`, `at most ${MAX.chartPoints} points (got ${s.data.length})`);
      s.data.forEach((p: unknown, k) => {
        if (!isObject(p)) return this.fail(`${at}.data[${k}]`, 'must be a point');
        this.string(`${at}.data[${k}].label`, p.label, MAX.chartName);
        if (!categories.includes(p.label)) this.fail(`${at}.data[${k}].label`, 'must be one of the axis categories');
        if (typeof p.value !== 'number' || !Number.isFinite(p.value))
          this.fail(`${at}.data[${k}].value`, 'must be a number');
      });
    });
  }
}

/** Every rule a message payload (`text` and `blocks`) breaks; empty when Slack would accept it. */
export function checkSlackMessage(payload: { text?: unknown; blocks?: unknown }): string[] {
  const c = new Checker();
  const { text, blocks } = payload;
  if (text === undefined || (typeof text === 'string' && text.trim() === '')) {
    c.fail('text', blocks === undefined ? 'no_text' : 'missing fallback text (always send text with blocks)');
  } else if (typeof text !== 'string') c.fail('text', 'must be a string');
  else if (text.length > MAX.messageText)
    c.fail('text', `must be at most ${MAX.messageText} characters (got ${text.length})`);
  if (blocks === undefined) return c.errors;
  if (!Array.isArray(blocks)) return [...c.errors, 'blocks: must be an array'];
  if (blocks.length > MAX.blocks) c.fail('blocks', `at most ${MAX.blocks} blocks (got ${blocks.length})`);
  blocks.forEach((b: unknown, i) => c.block(`blocks[${i}]`, b));
  if (c.tableCharacters > MAX.tableCharacters)
    c.fail('blocks', `at most ${MAX.tableCharacters} characters across all tables (got ${c.tableCharacters})`);
  if (c.charts > MAX.charts) c.fail('blocks', `at most ${MAX.charts} data_visualization blocks (got ${c.charts})`);
  return c.errors;
}

/** Every rule a Home tab's view (views.publish's `view`) breaks: `type: 'home'`, at most 100 blocks, each as above. */
export function checkSlackHomeView(view: unknown): string[] {
  const c = new Checker();
  if (!isObject(view)) return ['view: must be an object'];
  if (view.type !== 'home') c.fail('view.type', 'must be home');
  const { blocks } = view;
  if (!Array.isArray(blocks)) return [...c.errors, 'view.blocks: must be an array'];
  if (blocks.length > MAX.homeBlocks) c.fail('view.blocks', `at most ${MAX.homeBlocks} blocks (got ${blocks.length})`);
  blocks.forEach((b: unknown, i) => {
    c.nextBlock();
    c.block(`view.blocks[${i}]`, b);
  });
  return c.errors;
}
