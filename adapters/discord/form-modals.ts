// The Discord modals of the alert and digest forms (src/forms holds what they mean). A Discord modal takes at most five
// top-level components, each a Label around one text input or string select, so the alert form folds its filters:
// the search as one text (rent or buy, area, beds, type, furnished, size, +words, -words, read as a typed search is),
// the price range as a text of its own (so a price upside down is refused on its field), how often with the weekly
// day folded in (one select), the time, and where it posts (a new alert only). The digest form: its areas, how often
// (the day folded in as for alerts) and the time. Drawn with discord.js's builders, whose validators run at toJSON,
// within DISCORD_MODAL_LIMITS; a submission's fields are read back by custom_id, the core's field names.
import {
  LabelBuilder,
  ModalBuilder,
  StringSelectMenuBuilder,
  TextInputBuilder,
  TextInputStyle,
  type APIModalInteractionResponseCallbackData,
} from 'discord.js';
import {
  priceRangeText,
  readPriceRange,
  type AlertField,
  type AlertFormValues,
  type DigestField,
  type DigestFormValues,
} from '../../src/bot/index.js';
import { DISCORD_MODAL_LIMITS as L } from './limits.js';

export type FormKind = 'alert' | 'digest';

/** What a modal's custom_id carries: its kind and the order it edits (a personal alert's "mine" too). */
export interface FormTarget {
  kind: FormKind;
  editing?: { number: number; to?: 'me' };
}

/** Every modal and form button of Manzil starts so (`manzil:form:alert:new`, `manzil:form:digest:edit:2`). */
export const FORM_PREFIX = 'manzil:form:';

export function formCustomId(t: FormTarget): string {
  const edit = t.editing ? `edit:${t.editing.number}${t.editing.to === 'me' ? ':me' : ''}` : 'new';
  return `${FORM_PREFIX}${t.kind}:${edit}`;
}

export function readFormCustomId(id: string): FormTarget | undefined {
  const m = /^manzil:form:(alert|digest):(?:new|edit:(\d{1,6})(:me)?)$/.exec(id);
  if (!m) return undefined;
  const kind = m[1] as FormKind;
  if (m[2] === undefined) return { kind };
  return { kind, editing: { number: Number(m[2]), ...(m[3] && kind === 'alert' ? { to: 'me' as const } : {}) } };
}

/** The modal's fields by custom_id, with the label each is shown by (a refusal names it). */
export const FIELD_LABELS: Readonly<Record<string, string>> = {
  search: 'Search',
  price: 'Price (AED)',
  every: 'How often',
  time: 'Time of day',
  to: 'Post to',
  areas: 'Areas',
};

/** The modal field a core field is read from (the price's two ends from one text, the day from how often). */
export function fieldOf(field: AlertField | DigestField): string {
  if (field === 'priceMin' || field === 'priceMax') return 'price';
  if (field === 'day') return 'every';
  return field;
}

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const clamp = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);

/** How often as one select: the weekly day folded in (`weekly:friday`), since a modal has no room for a day field. */
function everyOptions(kind: FormKind): { label: string; value: string }[] {
  const weekly = DAYS.map((d) => ({ label: `Weekly, on ${cap(d)}`, value: `weekly:${d}` }));
  return kind === 'alert'
    ? [{ label: 'Instant: each new listing', value: 'instant' }, { label: 'Daily', value: 'daily' }, ...weekly]
    : [...weekly, { label: 'Daily', value: 'daily' }, { label: 'Monthly (the 1st)', value: 'monthly' }];
}

const everyValue = (every: string | undefined, day: string | undefined) =>
  every === 'weekly' ? `weekly:${day ?? 'monday'}` : every;

function text(
  id: string,
  label: string,
  o: { value?: string | undefined; placeholder: string; max: number; required?: boolean; long?: boolean },
  description: string,
): LabelBuilder {
  const input = new TextInputBuilder()
    .setCustomId(id)
    .setStyle(o.long ? TextInputStyle.Paragraph : TextInputStyle.Short)
    .setRequired(o.required ?? false)
    .setMaxLength(o.max)
    .setPlaceholder(clamp(o.placeholder, L.placeholder));
  // A value longer than the input's own maximum is refused by Discord: an edit form's text is cut to fit.
  if (o.value) input.setValue(o.value.slice(0, o.max));
  return new LabelBuilder()
    .setLabel(clamp(label, L.label))
    .setDescription(clamp(description, L.description))
    .setTextInputComponent(input);
}

function select(id: string, label: string, options: { label: string; value: string }[], chosen: string | undefined) {
  const picked = options.some((o) => o.value === chosen) ? chosen : options[0]!.value;
  return new LabelBuilder().setLabel(clamp(label, L.label)).setStringSelectMenuComponent(
    new StringSelectMenuBuilder()
      .setCustomId(id)
      .setRequired(true)
      .setMinValues(1)
      .setMaxValues(1)
      .addOptions(
        options
          .slice(0, L.selectOptions)
          .map((o) => ({ label: clamp(o.label, L.optionLabel), value: o.value, default: o.value === picked })),
      ),
  );
}

function modal(target: FormTarget, title: string, labels: LabelBuilder[]): APIModalInteractionResponseCallbackData {
  return new ModalBuilder()
    .setCustomId(formCustomId(target))
    .setTitle(clamp(title, L.title))
    .addLabelComponents(labels.slice(0, L.components))
    .toJSON();
}

const TIME = (value: string | undefined, what: string) =>
  text('time', FIELD_LABELS.time!, { value, placeholder: '09:00', max: L.time }, `HH:MM ${what}; 09:00 when empty`);

/**
 * The alert form: empty, or filled from the alert it edits (`values` from fromOrder), or with what was typed in a
 * refused one (`price` then as it was typed).
 */
export function alertModal(
  values: AlertFormValues,
  target: FormTarget,
  price = priceRangeText(values),
): APIModalInteractionResponseCallbackData {
  const labels = [
    text(
      'search',
      FIELD_LABELS.search!,
      {
        value: values.search,
        placeholder: 'rent dubai marina 2br furnished -shared',
        max: L.search,
        required: true,
        long: true,
      },
      'Rent or buy, the area; then beds, type, furnished, size, +word to have, -word to leave out',
    ),
    text(
      'price',
      FIELD_LABELS.price!,
      { value: price, placeholder: '90k-120k', max: L.price },
      'A range (90k-120k), up to 120k, or from 90k; empty for any',
    ),
    select('every', FIELD_LABELS.every!, everyOptions('alert'), everyValue(values.every, values.day)),
    TIME(values.time, 'for a daily or weekly one, in the channel’s time zone'),
    ...(target.editing ? [] : [select('to', FIELD_LABELS.to!, TO_OPTIONS, values.to ?? 'channel')]),
  ];
  return modal(target, target.editing ? `Edit alert #${target.editing.number}` : 'New alert', labels);
}

/** The digest form: empty, or filled from the digest it edits. */
export function digestModal(values: DigestFormValues, target: FormTarget): APIModalInteractionResponseCallbackData {
  const areas = typeof values.areas === 'string' ? values.areas : (values.areas ?? []).join(', ');
  const labels = [
    text(
      'areas',
      FIELD_LABELS.areas!,
      { value: areas, placeholder: 'dubai marina, business bay', max: L.areas, required: true },
      'Up to 5, separated by commas',
    ),
    select('every', FIELD_LABELS.every!, everyOptions('digest'), everyValue(values.every ?? 'weekly', values.day)),
    TIME(values.time, 'in the channel’s time zone'),
  ];
  return modal(target, target.editing ? `Edit digest #${target.editing.number}` : 'New digest', labels);
}

const TO_OPTIONS = [
  { label: 'This channel', value: 'channel' },
  { label: 'Me (direct messages)', value: 'me' },
];

/** A field's value as the person saw it: a select's chosen option by its label (`Weekly, on Friday`), a text as is. */
export function shownValue(kind: FormKind, field: string, value: string): string {
  const options = field === 'every' ? everyOptions(kind) : field === 'to' ? TO_OPTIONS : [];
  return options.find((o) => o.value === value)?.label ?? value;
}

/** What was typed and chosen, by field (custom_id): what the form reads, and what a refusal quotes back. */
export type Typed = Record<string, string>;

/** A submission's fields as the core's form values. */
export function formValues(kind: FormKind, typed: Typed): AlertFormValues | DigestFormValues {
  const [every, day] = (typed.every ?? '').split(':') as [string, string | undefined];
  const when = {
    ...(every ? { every } : {}),
    ...(day ? { day } : {}),
    ...(typed.time?.trim() ? { time: typed.time.trim() } : {}),
  };
  if (kind === 'digest') return { areas: typed.areas ?? '', ...when } as DigestFormValues;
  return {
    search: typed.search ?? '',
    ...readPriceRange(typed.price),
    ...when,
    ...(typed.to === 'me' ? { to: 'me' } : {}),
  } as AlertFormValues;
}

/** A refused form opened again with what was typed in it. */
export function retypedModal(target: FormTarget, typed: Typed): APIModalInteractionResponseCallbackData {
  const values = formValues(target.kind, typed);
  return target.kind === 'alert'
    ? alertModal(values as AlertFormValues, target, typed.price)
    : digestModal(values as DigestFormValues, target);
}
