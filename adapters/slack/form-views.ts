// The Slack modals of the alert and digest forms (src/forms holds what they mean): the fields drawn as input blocks,
// a block per field named as the core's field (so a refusal lands on its block), and the submitted state read back.
import type { View } from '@slack/types';
import { ALERT_TYPES, type AlertFormValues, type DigestFormValues } from '../../src/bot/index.js';

/** The external select of the area fields: its typing is answered by forms.ts's block_suggestion listener. */
export const FORM_AREA_ACTION = 'manzil:form:area';
export const ALERT_CALLBACK = 'manzil:form:alert';
export const DIGEST_CALLBACK = 'manzil:form:digest';
const VALUE = 'v';

type Option = { text: { type: 'plain_text'; text: string }; value: string };
const option = (value: string, text = value): Option => ({ text: { type: 'plain_text', text }, value });
const label = (text: string) => ({ type: 'plain_text' as const, text });
const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function input(block: string, title: string, element: Record<string, unknown>, optional = true, hint?: string) {
  return {
    type: 'input',
    block_id: block,
    optional,
    label: label(title),
    element: { action_id: VALUE, ...element },
    ...(hint ? { hint: label(hint) } : {}),
  };
}

function select(options: Option[], initial?: string, placeholder = 'Any') {
  const chosen = options.find((o) => o.value === initial);
  return {
    type: 'static_select',
    placeholder: label(placeholder),
    options,
    ...(chosen ? { initial_option: chosen } : {}),
  };
}

const text = (initial?: string, placeholder?: string) => ({
  type: 'plain_text_input',
  ...(initial ? { initial_value: initial } : {}),
  ...(placeholder ? { placeholder: label(placeholder) } : {}),
});

const areaOption = (value: string | undefined): Option | undefined => {
  const m = value ? /^(\d+):(.+)$/.exec(value) : null;
  return m ? option(value!, m[2]!.slice(0, 75)) : undefined;
};

/** What the modal carries unseen: where it was opened, what it edits, and an edited alert's other filters. */
export interface FormMetadata {
  channel: string;
  editing?: { number: number; to?: 'me' };
  keep?: Record<string, string>;
}

const timing = (every: string[], v: { every?: string; day?: string; time?: string }) => [
  input(
    'every',
    'How often',
    select(
      every.map((e) => option(e, cap(e))),
      v.every ?? every[0],
      'How often',
    ),
    false,
  ),
  input(
    'day',
    'Day (weekly)',
    select(
      DAYS.map((d) => option(d, cap(d))),
      v.day,
      'Monday',
    ),
  ),
  input(
    'time',
    'Time',
    { type: 'timepicker', ...(v.time ? { initial_time: v.time } : {}) },
    true,
    'HH:MM, in the channel’s time zone; 09:00 when empty',
  ),
];

export function alertView(values: AlertFormValues, meta: FormMetadata): View {
  const area = areaOption(values.area);
  const blocks = [
    input(
      'area',
      'Area',
      {
        type: 'external_select',
        action_id: FORM_AREA_ACTION,
        min_query_length: 2,
        placeholder: label('Start typing: marina, jvc…'),
        ...(area ? { initial_option: area } : {}),
      },
      false,
    ),
    input('deal', 'Rent or buy', select([option('rent', 'Rent'), option('buy', 'Buy')], values.deal ?? 'rent'), false),
    input(
      'type',
      'Property type',
      select(
        ALERT_TYPES.map((t) => option(t, cap(t.replace(/-/g, ' ')))),
        values.type,
      ),
    ),
    input('bedrooms', 'Bedrooms', {
      type: 'multi_static_select',
      placeholder: label('Any'),
      options: ['0', '1', '2', '3', '4', '5', '6', '7'].map((b) => option(b, b === '0' ? 'Studio' : b)),
      ...(values.bedrooms?.length
        ? {
            initial_options: values.bedrooms
              .filter((b) => Number(b) <= 7)
              .map((b) => option(b, b === '0' ? 'Studio' : b)),
          }
        : {}),
    }),
    input('priceMin', 'Price from (AED)', text(values.priceMin, '90k')),
    input('priceMax', 'Price up to (AED)', text(values.priceMax, '120k')),
    input('sizeMin', 'Size from (sqft)', text(values.sizeMin)),
    input('sizeMax', 'Size up to (sqft)', text(values.sizeMax)),
    input(
      'furnishing',
      'Furnished',
      select(
        [option('furnished', 'Furnished'), option('unfurnished', 'Unfurnished'), option('partly', 'Partly furnished')],
        values.furnishing,
      ),
    ),
    input('wordsIn', 'Words a listing must have', text(values.wordsIn, 'sea view, balcony')),
    input('wordsOut', 'Words that leave a listing out', text(values.wordsOut, 'shared, bed space')),
    ...timing(['instant', 'daily', 'weekly'], values),
    ...(meta.editing
      ? []
      : [
          input(
            'to',
            'Post to',
            select([option('channel', 'This channel'), option('me', 'Me (direct messages)')], values.to ?? 'channel'),
            false,
          ),
        ]),
  ];
  return {
    type: 'modal',
    callback_id: ALERT_CALLBACK,
    title: label(meta.editing ? `Edit alert #${meta.editing.number}` : 'New alert'),
    submit: label('Save'),
    close: label('Cancel'),
    private_metadata: JSON.stringify(meta),
    blocks,
  } as unknown as View;
}

export function digestView(values: DigestFormValues, meta: FormMetadata): View {
  const areas = typeof values.areas === 'string' ? values.areas : (values.areas ?? []).join(', ');
  return {
    type: 'modal',
    callback_id: DIGEST_CALLBACK,
    title: label(meta.editing ? `Edit digest #${meta.editing.number}` : 'New digest'),
    submit: label('Save'),
    close: label('Cancel'),
    private_metadata: JSON.stringify(meta),
    blocks: [
      input('areas', 'Areas', text(areas, 'dubai marina, business bay'), false, 'Up to 5, separated by commas'),
      ...timing(['weekly', 'daily', 'monthly'], { ...values, every: values.every ?? 'weekly' }),
    ],
  } as unknown as View;
}

interface StateValue {
  value?: string | null;
  selected_option?: { value: string } | null;
  selected_options?: { value: string }[];
  selected_time?: string | null;
}

/** A submitted modal's state as the form's values: each block's one element read by its type. */
export function readState(state: {
  values: Record<string, Record<string, StateValue>>;
}): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [block, elements] of Object.entries(state.values)) {
    const e = Object.values(elements)[0];
    if (!e) continue;
    const v =
      e.selected_options?.map((o) => o.value) ?? e.selected_option?.value ?? e.selected_time ?? e.value ?? undefined;
    if (v !== undefined && v !== null && v !== '') out[block] = v;
  }
  return out;
}
