// Discord's modals in the fake: a modal a bot shows (interaction callback type 9) checked as Discord checks it, and a
// person's submission of it built as Discord sends it (MODAL_SUBMIT, interaction type 5), from what they typed and
// chose; a field they left alone keeps what the bot filled in, as in Discord's client.
// https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object-modal and
// https://discord.com/developers/docs/components/reference#label
import type { Findings } from './discord-limits.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export const MODAL_MAX = {
  title: 45,
  customId: 100,
  components: 5,
  label: 45,
  description: 100,
  textValue: 4_000,
  placeholder: 100,
  options: 25,
  optionText: 100,
} as const;

const T = { row: 1, stringSelect: 3, textInput: 4, text: 10, label: 18, fileUpload: 19 } as const;
/** What a Label may wrap: a text input, a select of any kind, a file upload. */
const IN_LABEL: readonly number[] = [T.textInput, T.stringSelect, 5, 6, 7, 8, T.fileUpload];

class Check implements Findings {
  readonly errors: string[] = [];
  readonly warnings: string[] = [];
  error(where: string, message: string) {
    this.errors.push(`${where}: ${message}`);
  }
  /** A string of `min` to `max` characters; absent is fine unless required. */
  text(where: string, v: unknown, max: number, { required = false, min = 1 } = {}) {
    if (v === undefined || v === null) return required ? this.error(where, 'is required') : undefined;
    if (typeof v !== 'string') return this.error(where, 'must be a string');
    if (v.length < min || v.length > max) this.error(where, `${v.length} characters, Discord wants ${min} to ${max}`);
  }
  int(where: string, v: unknown, min: number, max: number) {
    if (v === undefined || v === null) return;
    if (!Number.isInteger(v) || (v as number) < min || (v as number) > max)
      this.error(where, `must be an integer from ${min} to ${max}, got ${JSON.stringify(v)}`);
  }
}

function checkTextInput(c: Check, at: string, x: Json) {
  if (x.style !== 1 && x.style !== 2) c.error(`${at}.style`, 'must be 1 (short) or 2 (paragraph)');
  c.int(`${at}.min_length`, x.min_length, 0, MODAL_MAX.textValue);
  c.int(`${at}.max_length`, x.max_length, 1, MODAL_MAX.textValue);
  c.text(`${at}.placeholder`, x.placeholder, MODAL_MAX.placeholder);
  c.text(`${at}.value`, x.value, MODAL_MAX.textValue, { min: 0 });
  const max = typeof x.max_length === 'number' ? x.max_length : MODAL_MAX.textValue;
  if (typeof x.value === 'string' && x.value.length > max)
    c.error(`${at}.value`, `${x.value.length} characters, over the input's own max_length of ${max}`);
  // Inside a Label the label is the Label's: a text input's own belongs to the deprecated action row form.
  if (x.label !== undefined) c.warnings.push(`${at}.label: deprecated inside a Label, which has the label`);
}

function checkStringSelect(c: Check, at: string, x: Json) {
  const options = x.options;
  if (!Array.isArray(options) || options.length < 1 || options.length > MODAL_MAX.options)
    return c.error(`${at}.options`, `needs 1 to ${MODAL_MAX.options} options`);
  const values = new Set<string>();
  options.forEach((o: unknown, k) => {
    const w = `${at}.options[${k}]`;
    if (!isObject(o)) return c.error(w, 'must be an object');
    c.text(`${w}.label`, o.label, MODAL_MAX.optionText, { required: true });
    c.text(`${w}.value`, o.value, MODAL_MAX.optionText, { required: true });
    c.text(`${w}.description`, o.description, MODAL_MAX.optionText);
    if (typeof o.value === 'string' && values.has(o.value)) c.error(`${w}.value`, 'duplicate option value');
    if (typeof o.value === 'string') values.add(o.value);
  });
  c.int(`${at}.min_values`, x.min_values, 0, MODAL_MAX.options);
  c.int(`${at}.max_values`, x.max_values, 1, MODAL_MAX.options);
  const max = typeof x.max_values === 'number' ? x.max_values : 1;
  if (max > options.length) c.error(`${at}.max_values`, `${max} is more than its ${options.length} options`);
  const defaults = options.filter((o: unknown) => isObject(o) && o.default === true).length;
  if (defaults > max) c.error(`${at}.options`, `${defaults} options by default, over max_values ${max}`);
}

/**
 * A modal as Discord checks it: a custom_id of 1 to 100, a title of 1 to 45, 1 to 5 components, each a Label (type
 * 18: a label of 1 to 45, a description within 100, one component it may wrap) or a text display; custom_ids unique.
 */
export function checkModal(data: unknown, where: string): Findings {
  const c = new Check();
  if (!isObject(data)) {
    c.error(where, 'a modal needs its data');
    return c;
  }
  c.text(`${where}.custom_id`, data.custom_id, MODAL_MAX.customId, { required: true });
  c.text(`${where}.title`, data.title, MODAL_MAX.title, { required: true });
  const components = data.components;
  if (!Array.isArray(components) || components.length < 1 || components.length > MODAL_MAX.components) {
    c.error(
      `${where}.components`,
      `a modal needs 1 to ${MODAL_MAX.components} components (got ${Array.isArray(components) ? components.length : 'none'})`,
    );
    return c;
  }
  const ids = new Set<string>();
  components.forEach((top: unknown, k) => {
    const at = `${where}.components[${k}]`;
    if (!isObject(top)) return c.error(at, 'must be an object');
    if (top.type === T.text) return c.text(`${at}.content`, top.content, 4_000, { required: true });
    if (top.type === T.row) return c.warnings.push(`${at}: an action row in a modal is deprecated; use a Label`);
    if (top.type !== T.label)
      return c.error(`${at}.type`, `component type ${String(top.type)} is not allowed in a modal`);
    c.text(`${at}.label`, top.label, MODAL_MAX.label, { required: true });
    c.text(`${at}.description`, top.description, MODAL_MAX.description);
    const inner = top.component;
    if (!isObject(inner)) return c.error(`${at}.component`, 'a Label wraps exactly one component');
    const w = `${at}.component`;
    if (!IN_LABEL.includes(inner.type as number))
      return c.error(`${w}.type`, `component type ${String(inner.type)} cannot sit in a Label`);
    c.text(`${w}.custom_id`, inner.custom_id, MODAL_MAX.customId, { required: true });
    if (typeof inner.custom_id === 'string') {
      if (ids.has(inner.custom_id)) c.error(`${w}.custom_id`, `duplicate custom_id ${inner.custom_id} in one modal`);
      ids.add(inner.custom_id);
    }
    if (inner.type === T.textInput) checkTextInput(c, w, inner);
    if (inner.type === T.stringSelect) checkStringSelect(c, w, inner);
  });
  return c;
}

/** What a person does to one field: types a text (a text input), or chooses values (a string select). */
export type ModalInput = Record<string, string | string[]>;

/**
 * The MODAL_SUBMIT data of `modal` as Discord sends it: `{ custom_id, components: [{ type: 18, id, component: { type:
 * 4, id, custom_id, value } | { type: 3, id, custom_id, values } }] }`. Throws as Discord's client refuses to send:
 * a field it does not have, a required one left empty, a text over its max_length, a choice not among the options.
 */
export function modalSubmission(modal: Json, input: ModalInput): Json {
  const labels = (modal.components as Json[]).filter((c) => c.type === T.label);
  const known = labels.map((l) => (l.component as Json).custom_id as string);
  for (const id of Object.keys(input))
    if (!known.includes(id)) throw new Error(`fake Discord: the modal has no field ${id} (it has ${known.join(', ')})`);
  let n = 0;
  const components = labels.map((label) => {
    const x = label.component as Json;
    const id = x.custom_id as string;
    const given = input[id];
    const labelId = ++n;
    const innerId = ++n;
    if (x.type === T.textInput) {
      const value = typeof given === 'string' ? given : typeof x.value === 'string' ? x.value : '';
      if (x.required !== false && value === '') throw new Error(`fake Discord: ${id} is required`);
      if (typeof x.max_length === 'number' && value.length > x.max_length)
        throw new Error(`fake Discord: ${id} takes at most ${x.max_length} characters`);
      return { type: T.label, id: labelId, component: { type: T.textInput, id: innerId, custom_id: id, value } };
    }
    const options = (x.options as Json[] | undefined) ?? [];
    const values =
      given === undefined
        ? options.filter((o) => o.default === true).map((o) => o.value as string)
        : Array.isArray(given)
          ? given
          : [given];
    for (const v of values)
      if (!options.some((o) => o.value === v)) throw new Error(`fake Discord: ${id} has no option ${v}`);
    if (x.required !== false && values.length === 0) throw new Error(`fake Discord: ${id} is required`);
    return { type: T.label, id: labelId, component: { type: x.type, id: innerId, custom_id: id, values } };
  });
  return { custom_id: modal.custom_id, components };
}
