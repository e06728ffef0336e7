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
} as const;

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

class Checker {
  readonly errors: string[] = [];
  private readonly actionIds = new Set<string>();
  private readonly blockIds = new Set<string>();

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
      default:
        return this.fail(`${where}.type`, `unsupported block ${String(block.type)}`);
    }
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
  return c.errors;
}
