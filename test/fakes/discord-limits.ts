// Discord's limits on what a bot sends, checked the way Discord checks them: messages (content, embeds, components),
// autocomplete choices and application commands. The builders' own validators (@discordjs/builders, re-exported by
// discord.js) decide what they cover (embed title, description, field, footer and author lengths, field count, URLs,
// colours, button rules); the numbers Discord enforces across a whole message
// (6,000 characters over all embeds, 10 embeds, 5 rows of 5 buttons, unique custom_ids) are counted here.
// Errors are what Discord refuses with 400; warnings are what it accepts but shows badly (embeds sharing a URL are
// merged into one, an http image is not shown by every client).
import { ComponentAssertions, EmbedAssertions, embedLength } from 'discord.js';

export interface Findings {
  errors: string[];
  warnings: string[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const MAX = {
  content: 2_000,
  embeds: 10,
  embedTotal: 6_000,
  title: 256,
  description: 4_096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1_024,
  footer: 2_048,
  author: 256,
  rows: 5,
  perRow: 5,
  label: 80,
  customId: 100,
  choices: 25,
  choiceText: 100,
  componentsV2: 40,
  textV2: 4_000,
  mediaDescription: 1_024,
  commands: 100,
  commandOptions: 25,
  commandDescription: 100,
  commandTotal: 4_000,
} as const;

/** IS_COMPONENTS_V2: the message is made of layout components only (no content, no embeds). */
const COMPONENTS_V2 = 1 << 15;

/** Whether one of the builders' validators refuses a value (they throw). */
function refused(check: () => unknown): boolean {
  try {
    check();
    return false;
  } catch {
    return true;
  }
}

class Checker implements Findings {
  readonly errors: string[] = [];
  readonly warnings: string[] = [];

  error(where: string, message: string): void {
    this.errors.push(`${where}: ${message}`);
  }

  warn(where: string, message: string): void {
    this.warnings.push(`${where}: ${message}`);
  }

  /** An optional string within `max` characters (and not empty when `nonEmpty`). */
  text(where: string, value: unknown, max: number, { required = false, nonEmpty = true } = {}): void {
    if (value === undefined || value === null) {
      if (required) this.error(where, 'is required');
      return;
    }
    if (typeof value !== 'string') return this.error(where, 'must be a string');
    if (nonEmpty && value.length === 0) return this.error(where, 'must not be empty');
    if (value.length > max) this.error(where, `${value.length} characters, over Discord's limit of ${max}`);
  }

  /**
   * A text one of the builders' validators checks (a string of 1 to `max` characters): the validator decides, `max`
   * only names Discord's limit in the finding.
   */
  validated(
    where: string,
    value: unknown,
    validator: { parse(value: unknown): unknown },
    max: number,
    { required = false } = {},
  ): void {
    if (value === undefined || value === null) {
      if (required) this.error(where, 'is required');
      return;
    }
    // Discord refuses an empty text where some of the builders' validators let it pass (a field name).
    if (value === '') return this.error(where, 'must not be empty');
    if (!refused(() => validator.parse(value))) return;
    if (typeof value !== 'string') this.error(where, 'must be a string');
    else if (value.length === 0) this.error(where, 'must not be empty');
    else this.error(where, `${value.length} characters, over Discord's limit of ${max}`);
  }

  /** A link (embed url, author url): http or https, well formed. */
  link(where: string, value: unknown): void {
    if (value === undefined || value === null) return;
    if (refused(() => EmbedAssertions.urlPredicate.parse(value)))
      this.error(where, `not a valid http(s) URL: ${short(value)}`);
  }

  /** An image: https (or an uploaded attachment); http is accepted by Discord but not shown everywhere. */
  image(where: string, value: unknown): void {
    if (value === undefined || value === null) return;
    if (typeof value === 'string' && value.startsWith('attachment://')) return;
    if (refused(() => EmbedAssertions.imageURLPredicate.parse(value)))
      return this.error(where, `not a valid image URL: ${short(value)}`);
    if (!String(value).startsWith('https://'))
      this.warn(where, `image URL is not https, Discord may not show it: ${short(value)}`);
  }
}

const short = (v: unknown) => JSON.stringify(typeof v === 'string' && v.length > 80 ? `${v.slice(0, 77)}...` : v);

function checkEmbed(c: Checker, where: string, embed: unknown): void {
  if (!isObject(embed)) return c.error(where, 'must be an object');
  c.validated(`${where}.title`, embed.title, EmbedAssertions.titlePredicate, MAX.title);
  c.validated(`${where}.description`, embed.description, EmbedAssertions.descriptionPredicate, MAX.description);
  c.link(`${where}.url`, embed.url);
  if (
    embed.color !== undefined &&
    embed.color !== null &&
    refused(() => EmbedAssertions.colorPredicate.parse(embed.color))
  ) {
    c.error(`${where}.color`, `must be an integer from 0 to 0xFFFFFF, got ${short(embed.color)}`);
  }
  if (embed.timestamp !== undefined && embed.timestamp !== null && Number.isNaN(Date.parse(String(embed.timestamp)))) {
    c.error(`${where}.timestamp`, `not an ISO 8601 timestamp: ${short(embed.timestamp)}`);
  }
  if (embed.footer !== undefined) {
    if (!isObject(embed.footer)) c.error(`${where}.footer`, 'must be an object');
    else {
      c.validated(`${where}.footer.text`, embed.footer.text, EmbedAssertions.footerTextPredicate, MAX.footer, {
        required: true,
      });
      c.image(`${where}.footer.icon_url`, embed.footer.icon_url);
    }
  }
  if (embed.author !== undefined) {
    if (!isObject(embed.author)) c.error(`${where}.author`, 'must be an object');
    else {
      c.validated(`${where}.author.name`, embed.author.name, EmbedAssertions.authorNamePredicate, MAX.author, {
        required: true,
      });
      c.link(`${where}.author.url`, embed.author.url);
      c.image(`${where}.author.icon_url`, embed.author.icon_url);
    }
  }
  for (const key of ['image', 'thumbnail'] as const) {
    const media = embed[key];
    if (media === undefined) continue;
    if (!isObject(media)) c.error(`${where}.${key}`, 'must be an object');
    else c.image(`${where}.${key}.url`, media.url);
  }
  if (embed.fields !== undefined) {
    const fields = embed.fields;
    if (!Array.isArray(fields)) return c.error(`${where}.fields`, 'must be an array');
    if (refused(() => EmbedAssertions.fieldLengthPredicate.parse(fields.length))) {
      c.error(`${where}.fields`, `${fields.length} fields, over Discord's limit of ${MAX.fields}`);
    }
    fields.forEach((field: unknown, i) => {
      const at = `${where}.fields[${i}]`;
      if (!isObject(field)) return c.error(at, 'must be an object');
      c.validated(`${at}.name`, field.name, EmbedAssertions.fieldNamePredicate, MAX.fieldName, { required: true });
      c.validated(`${at}.value`, field.value, EmbedAssertions.fieldValuePredicate, MAX.fieldValue, { required: true });
      if (field.inline !== undefined && refused(() => EmbedAssertions.fieldInlinePredicate.parse(field.inline)))
        c.error(`${at}.inline`, 'must be a boolean');
    });
  }
}

/** Characters Discord counts towards the 6,000 across a message's embeds; robust to malformed embeds. */
function countedLength(embed: unknown): number {
  if (!isObject(embed)) return 0;
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const fields = Array.isArray(embed.fields)
    ? embed.fields.filter(isObject).map((f) => ({ name: str(f.name), value: str(f.value) }))
    : undefined;
  return embedLength({
    title: str(embed.title),
    description: str(embed.description),
    fields,
    footer: isObject(embed.footer) ? { text: str(embed.footer.text) } : undefined,
    author: isObject(embed.author) ? { name: str(embed.author.name) } : undefined,
  });
}

function checkEmbeds(c: Checker, where: string, embeds: unknown): void {
  if (embeds === undefined || embeds === null) return;
  if (!Array.isArray(embeds)) return c.error(`${where}.embeds`, 'must be an array');
  if (embeds.length > MAX.embeds)
    c.error(`${where}.embeds`, `${embeds.length} embeds, over Discord's limit of ${MAX.embeds}`);
  embeds.forEach((embed, i) => checkEmbed(c, `${where}.embeds[${i}]`, embed));
  const total = embeds.reduce((sum: number, e) => sum + countedLength(e), 0);
  if (total > MAX.embedTotal)
    c.error(`${where}.embeds`, `${total} characters across all embeds, over Discord's limit of ${MAX.embedTotal}`);
  const firstWithUrl = new Map<string, number>();
  embeds.forEach((embed, i) => {
    if (!isObject(embed) || typeof embed.url !== 'string') return;
    const first = firstWithUrl.get(embed.url);
    if (first === undefined) firstWithUrl.set(embed.url, i);
    else
      c.warn(
        `${where}.embeds[${i}].url`,
        `same URL as embeds[${first}]: Discord merges embeds that share a URL into one`,
      );
  });
}

function checkButton(c: Checker, where: string, button: Json): void {
  const label = button.label;
  if (label !== undefined && refused(() => ComponentAssertions.buttonLabelValidator.parse(label))) {
    c.error(
      `${where}.label`,
      typeof label === 'string' ? `${label.length} characters, Discord wants 1 to ${MAX.label}` : 'must be a string',
    );
  }
  try {
    ComponentAssertions.validateRequiredButtonParameters(
      button.style as never,
      label as never,
      button.emoji as never,
      button.custom_id as never,
      button.sku_id as never,
      button.url as never,
    );
  } catch (e) {
    c.error(where, (e as Error).message);
  }
  if (button.url !== undefined && refused(() => ComponentAssertions.urlValidator.parse(button.url)))
    c.error(`${where}.url`, `not a valid URL: ${short(button.url)}`);
}

/** Every custom_id anywhere in the tree: at most 100 characters and unique within the message. */
function checkCustomId(c: Checker, where: string, component: Json, customIds: Set<string>): void {
  if (component.custom_id === undefined) return;
  const id = component.custom_id;
  if (refused(() => ComponentAssertions.customIdValidator.parse(id))) {
    c.error(
      `${where}.custom_id`,
      typeof id === 'string' ? `${id.length} characters, Discord wants 1 to ${MAX.customId}` : 'must be a string',
    );
  }
  if (typeof id === 'string') {
    if (customIds.has(id)) c.error(`${where}.custom_id`, `duplicate custom_id ${short(id)} in one message`);
    customIds.add(id);
  }
}

/** Component types (https://discord.com/developers/docs/components/reference#component-object-component-types). */
const T = {
  row: 1,
  button: 2,
  section: 9,
  text: 10,
  thumbnail: 11,
  gallery: 12,
  file: 13,
  separator: 14,
  container: 17,
};
const SELECTS = [3, 5, 6, 7, 8];
/** Where each layout component may sit in a V2 message. */
const TOP_LEVEL = [T.row, T.section, T.text, T.gallery, T.file, T.separator, T.container];
const IN_CONTAINER = [T.row, T.section, T.text, T.gallery, T.file, T.separator];

/** What a V2 message's tree holds, counted as Discord counts it. */
interface V2Count {
  components: number;
  text: number;
}

/** A media item (thumbnail, gallery item, file): an http(s) or attachment:// URL. */
function checkMedia(c: Checker, where: string, media: unknown): void {
  if (!isObject(media)) return c.error(where, 'is required (an unfurled media item)');
  c.image(`${where}.url`, media.url);
  if (media.url === undefined) c.error(`${where}.url`, 'is required');
}

function checkV2Component(
  c: Checker,
  at: string,
  component: unknown,
  allowed: readonly number[],
  customIds: Set<string>,
  count: V2Count,
): void {
  if (!isObject(component)) return c.error(at, 'must be an object');
  count.components++;
  const type = component.type as number;
  if (!allowed.includes(type)) return c.error(`${at}.type`, `component type ${short(type)} is not allowed here`);
  checkCustomId(c, at, component, customIds);
  const inner = component.components;
  const children = (where: string, list: unknown, types: readonly number[], min: number, max: number) => {
    if (!Array.isArray(list) || list.length < min || list.length > max)
      return c.error(where, `needs ${min} to ${max} components (got ${Array.isArray(list) ? list.length : 'none'})`);
    list.forEach((x, k) => checkV2Component(c, `${where}[${k}]`, x, types, customIds, count));
  };
  switch (type) {
    case T.container:
      if (
        component.accent_color !== undefined &&
        component.accent_color !== null &&
        !(
          Number.isInteger(component.accent_color) &&
          Number(component.accent_color) >= 0 &&
          Number(component.accent_color) <= 0xffffff
        )
      )
        c.error(`${at}.accent_color`, 'must be an integer from 0 to 0xFFFFFF');
      return children(`${at}.components`, inner, IN_CONTAINER, 1, MAX.componentsV2);
    case T.section:
      children(`${at}.components`, inner, [T.text], 1, 3);
      if (!isObject(component.accessory)) return c.error(`${at}.accessory`, 'a section needs a thumbnail or a button');
      return checkV2Component(c, `${at}.accessory`, component.accessory, [T.thumbnail, T.button], customIds, count);
    case T.text: {
      const content = component.content;
      if (typeof content !== 'string' || content.length === 0)
        return c.error(`${at}.content`, 'a text display needs 1 to 4,000 characters');
      count.text += content.length;
      return;
    }
    case T.thumbnail:
      checkMedia(c, `${at}.media`, component.media);
      return c.text(`${at}.description`, component.description, MAX.mediaDescription);
    case T.gallery: {
      const items = component.items;
      if (!Array.isArray(items) || items.length < 1 || items.length > 10)
        return c.error(`${at}.items`, 'a media gallery needs 1 to 10 items');
      items.forEach((item: unknown, k) => {
        if (!isObject(item)) return c.error(`${at}.items[${k}]`, 'must be an object');
        checkMedia(c, `${at}.items[${k}].media`, item.media);
        c.text(`${at}.items[${k}].description`, item.description, MAX.mediaDescription);
      });
      return;
    }
    case T.file:
      return checkMedia(c, `${at}.file`, component.file);
    case T.separator:
      if (component.spacing !== undefined && component.spacing !== 1 && component.spacing !== 2)
        c.error(`${at}.spacing`, 'must be 1 (small) or 2 (large)');
      return;
    case T.row: {
      if (!Array.isArray(inner) || inner.length === 0)
        return c.error(`${at}.components`, 'an action row needs 1 to 5 components');
      const selects = inner.filter((x: unknown) => isObject(x) && SELECTS.includes(x.type as number)).length;
      if (selects > 0 && inner.length > 1) c.error(`${at}.components`, 'a select menu must be alone in its action row');
      if (inner.length > MAX.perRow)
        c.error(`${at}.components`, `${inner.length} components in one row, over Discord's limit of ${MAX.perRow}`);
      inner.forEach((x: unknown, k) =>
        checkV2Component(c, `${at}.components[${k}]`, x, [T.button, ...SELECTS], customIds, count),
      );
      return;
    }
    case T.button:
      return checkButton(c, at, component);
  }
}

/**
 * A Components V2 message as Discord checks it: layout components only, each where it may sit; at most 40 components
 * counted nested; at most 4,000 characters across its text displays.
 */
function checkComponentsV2(c: Checker, where: string, components: unknown[], customIds: Set<string>): void {
  const count: V2Count = { components: 0, text: 0 };
  if (components.length === 0) c.error(where, 'a message flagged IS_COMPONENTS_V2 needs at least one component');
  components.forEach((x, i) => checkV2Component(c, `${where}[${i}]`, x, TOP_LEVEL, customIds, count));
  if (count.components > MAX.componentsV2)
    c.error(where, `${count.components} components, over Discord's limit of ${MAX.componentsV2}`);
  if (count.text > MAX.textV2)
    c.error(where, `${count.text} characters across text displays, over Discord's limit of ${MAX.textV2}`);
}

function checkComponents(c: Checker, where: string, components: unknown, flags: number): void {
  if (components === undefined || components === null) return;
  if (!Array.isArray(components)) return c.error(`${where}.components`, 'must be an array');
  const customIds = new Set<string>();
  if (flags & COMPONENTS_V2) return checkComponentsV2(c, `${where}.components`, components, customIds);
  if (components.length > MAX.rows)
    c.error(`${where}.components`, `${components.length} action rows, over Discord's limit of ${MAX.rows}`);
  components.forEach((row, r) => {
    const at = `${where}.components[${r}]`;
    if (!isObject(row) || row.type !== 1) return c.error(at, 'top-level components must be action rows (type 1)');
    if (!Array.isArray(row.components) || row.components.length === 0)
      return c.error(`${at}.components`, 'an action row needs 1 to 5 components');
    if (row.components.length > MAX.perRow)
      c.error(
        `${at}.components`,
        `${row.components.length} components in one row, over Discord's limit of ${MAX.perRow}`,
      );
    const selects = row.components.filter(
      (x: unknown) => isObject(x) && [3, 5, 6, 7, 8].includes(x.type as number),
    ).length;
    if (selects > 0 && row.components.length > 1)
      c.error(`${at}.components`, 'a select menu must be alone in its action row');
    row.components.forEach((component: unknown, i: number) => {
      const cat = `${at}.components[${i}]`;
      if (!isObject(component)) return c.error(cat, 'must be an object');
      checkCustomId(c, cat, component, customIds);
      if (component.type === 2) checkButton(c, cat, component);
    });
  });
}

export interface MessageCheckOptions {
  /** Where the payload went, to prefix findings (`POST /channels/1/messages`). */
  where: string;
  /** An edit: only the fields present are checked and an empty body is fine. */
  partial?: boolean;
  /** Files uploaded with the payload (multipart). */
  files?: number;
}

/** Checks a message payload (create, edit, interaction response or follow-up). */
export function checkMessage(body: unknown, options: MessageCheckOptions): Findings {
  const c = new Checker();
  const where = options.where;
  if (!isObject(body)) {
    c.error(where, 'the message body must be a JSON object');
    return c;
  }
  const flags = typeof body.flags === 'number' ? body.flags : 0;
  c.text(`${where}.content`, body.content, MAX.content, { nonEmpty: false });
  if (
    flags & COMPONENTS_V2 &&
    ((typeof body.content === 'string' && body.content) ||
      (Array.isArray(body.embeds) && body.embeds.length) ||
      body.poll !== undefined ||
      (Array.isArray(body.sticker_ids) && body.sticker_ids.length))
  ) {
    c.error(where, 'a message flagged IS_COMPONENTS_V2 cannot have content, embeds, stickers or a poll');
  }
  if (flags & COMPONENTS_V2 && (body.components === undefined || body.components === null))
    c.error(`${where}.components`, 'a message flagged IS_COMPONENTS_V2 needs its components');
  checkEmbeds(c, where, body.embeds);
  checkComponents(c, where, body.components, flags);
  const hasSomething =
    (typeof body.content === 'string' && body.content.length > 0) ||
    (Array.isArray(body.embeds) && body.embeds.length > 0) ||
    (Array.isArray(body.components) && body.components.length > 0) ||
    (Array.isArray(body.sticker_ids) && body.sticker_ids.length > 0) ||
    (Array.isArray(body.attachments) && body.attachments.length > 0) ||
    body.poll !== undefined ||
    (options.files ?? 0) > 0;
  if (!options.partial && !hasSomething)
    c.error(where, 'Cannot send an empty message (no content, embeds, components or files)');
  return c;
}

/** Checks the choices of an autocomplete answer (callback type 8). */
export function checkChoices(choices: unknown, where: string): Findings {
  const c = new Checker();
  if (!Array.isArray(choices)) {
    c.error(`${where}.choices`, 'must be an array');
    return c;
  }
  if (choices.length > MAX.choices)
    c.error(`${where}.choices`, `${choices.length} choices, over Discord's limit of ${MAX.choices}`);
  choices.forEach((choice: unknown, i) => {
    const at = `${where}.choices[${i}]`;
    if (!isObject(choice)) return c.error(at, 'must be an object');
    c.text(`${at}.name`, choice.name, MAX.choiceText, { required: true });
    if (typeof choice.value === 'number') return;
    c.text(`${at}.value`, choice.value, MAX.choiceText, { required: true, nonEmpty: false });
  });
  return c;
}

const COMMAND_NAME = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

function checkOptions(c: Checker, where: string, options: unknown, depth: number, total: { n: number }): void {
  if (options === undefined) return;
  if (!Array.isArray(options)) return c.error(`${where}.options`, 'must be an array');
  if (options.length > MAX.commandOptions)
    c.error(`${where}.options`, `${options.length} options, over Discord's limit of ${MAX.commandOptions}`);
  const names = new Set<string>();
  let optionalSeen = false;
  options.forEach((option: unknown, i) => {
    const at = `${where}.options[${i}]`;
    if (!isObject(option)) return c.error(at, 'must be an object');
    checkName(c, at, option.name, true, total);
    if (typeof option.name === 'string') {
      if (names.has(option.name)) c.error(`${at}.name`, `duplicate option name ${short(option.name)}`);
      names.add(option.name);
    }
    c.text(`${at}.description`, option.description, MAX.commandDescription, { required: true });
    total.n += typeof option.description === 'string' ? option.description.length : 0;
    const type = option.type;
    if (typeof type !== 'number' || type < 1 || type > 11)
      return c.error(`${at}.type`, `unknown option type ${short(type)}`);
    const isGroup = type === 1 || type === 2;
    if (isGroup) {
      if (depth >= (type === 2 ? 1 : 2)) c.error(at, 'subcommands nest at most: command > group > subcommand');
      checkOptions(c, at, option.options, depth + 1, total);
      return;
    }
    if (option.required === true && optionalSeen)
      c.error(`${at}.required`, 'required options must come before optional ones');
    if (option.required !== true) optionalSeen = true;
    if (option.autocomplete === true && Array.isArray(option.choices) && option.choices.length > 0) {
      c.error(at, 'an option cannot have both autocomplete and choices');
    }
    if (option.choices !== undefined) {
      const found = checkChoices(option.choices, at);
      c.errors.push(...found.errors);
      if (Array.isArray(option.choices))
        for (const ch of option.choices)
          total.n += isObject(ch) ? String(ch.name ?? '').length + String(ch.value ?? '').length : 0;
    }
  });
}

function checkName(c: Checker, where: string, name: unknown, lowercase: boolean, total: { n: number }): void {
  if (typeof name !== 'string' || !COMMAND_NAME.test(name))
    return c.error(`${where}.name`, `${short(name)} is not a valid name (1 to 32 letters, digits, - or _)`);
  if (lowercase && name !== name.toLowerCase()) c.error(`${where}.name`, `${short(name)} must be lower case`);
  total.n += name.length;
}

/** Checks the commands of a bulk overwrite (PUT) or one created with POST. */
export function checkCommands(commands: unknown, where: string): Findings {
  const c = new Checker();
  if (!Array.isArray(commands)) {
    c.error(where, 'the body must be an array of commands');
    return c;
  }
  if (commands.length > MAX.commands)
    c.error(where, `${commands.length} commands, over Discord's limit of ${MAX.commands}`);
  const seen = new Set<string>();
  commands.forEach((command: unknown, i) => {
    const at = `${where}[${i}]`;
    if (!isObject(command)) return c.error(at, 'must be an object');
    const type = typeof command.type === 'number' ? command.type : 1;
    const total = { n: 0 };
    checkName(c, at, command.name, type === 1, total);
    const key = `${type}:${String(command.name)}`;
    if (seen.has(key)) c.error(`${at}.name`, `duplicate command name ${short(command.name)}`);
    seen.add(key);
    if (type === 1) {
      c.text(`${at}.description`, command.description, MAX.commandDescription, { required: true });
      total.n += typeof command.description === 'string' ? command.description.length : 0;
      checkOptions(c, at, command.options, 0, total);
    }
    if (total.n > MAX.commandTotal)
      c.error(
        at,
        `${total.n} characters in names, descriptions and choices, over Discord's limit of ${MAX.commandTotal}`,
      );
  });
  return c;
}
