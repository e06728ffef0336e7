// The fake Slack's modals (views.open, views.update, views.push): a trigger is valid once and for 3 s, as Slack's, and a
// view is held to Slack's modal rules (a title and its buttons of 24 characters at most, 100 blocks, input blocks with a
// label and one element, a callback_id, an external select's action id). Self-contained: slack-api.ts routes the
// methods here and exposes what was opened.

export interface FakeView {
  id: string;
  method: string;
  view: Record<string, unknown>;
}

const TRIGGER_MS = 3_000;
const INPUT_ELEMENTS = new Set([
  'plain_text_input',
  'static_select',
  'multi_static_select',
  'external_select',
  'multi_external_select',
  'timepicker',
  'datepicker',
  'checkboxes',
  'radio_buttons',
  'number_input',
]);

/** Slack's refusals of a modal, as its `response_metadata.messages` would say them; empty when valid. */
export function modalErrors(view: Record<string, unknown>): string[] {
  const errors: string[] = [];
  const text = (v: unknown) => (v as { text?: string } | undefined)?.text;
  if (view.type !== 'modal') errors.push('view.type must be modal');
  const title = text(view.title);
  if (!title || title.length > 24) errors.push(`title must be 1-24 characters: "${title}"`);
  for (const k of ['submit', 'close'] as const) {
    const t = text(view[k]);
    if (t !== undefined && t.length > 24) errors.push(`${k} must be at most 24 characters`);
  }
  if (typeof view.callback_id !== 'string' || view.callback_id.length > 255) errors.push('callback_id is required');
  if (typeof view.private_metadata === 'string' && view.private_metadata.length > 3000)
    errors.push('private_metadata is over 3000 characters');
  const blocks = (view.blocks ?? []) as Record<string, unknown>[];
  if (blocks.length > 100) errors.push('more than 100 blocks');
  const ids = new Set<string>();
  let inputs = 0;
  for (const b of blocks) {
    if (typeof b.block_id === 'string') {
      if (ids.has(b.block_id)) errors.push(`block_id ${b.block_id} is repeated`);
      ids.add(b.block_id);
    }
    if (b.type !== 'input') continue;
    inputs++;
    const label = text(b.label);
    if (!label || label.length > 2000) errors.push(`input ${String(b.block_id)} needs a label`);
    const e = b.element as Record<string, unknown> | undefined;
    if (!e || !INPUT_ELEMENTS.has(String(e.type))) errors.push(`input ${String(b.block_id)} has no input element`);
    if (e?.type === 'external_select' && typeof e.action_id !== 'string')
      errors.push('an external_select needs an action_id');
    if (e && Array.isArray(e.options) && e.options.length > 100) errors.push('more than 100 options');
  }
  if (inputs > 0 && view.submit === undefined) errors.push('a modal with inputs needs a submit button');
  return errors;
}

/** The triggers Slack gave out (with the interaction that carried them) and the views opened with them. */
export function fakeViews(clock: () => number = Date.now) {
  const triggers = new Map<string, number>();
  const views: FakeView[] = [];
  let seq = 0;
  return {
    /** A fresh trigger_id, as Slack puts in a slash command or a click: valid once, for 3 s from now. */
    trigger(): string {
      const id = `${++seq}.${clock()}.trigger`;
      triggers.set(id, clock());
      return id;
    },
    views,
    /** views.open, views.update, views.push: [ok, answer]. */
    call(method: string, args: Record<string, unknown>): Record<string, unknown> {
      const view = (typeof args.view === 'string' ? JSON.parse(args.view) : args.view) as Record<string, unknown>;
      if (method !== 'views.update') {
        const trigger = String(args.trigger_id ?? '');
        const at = triggers.get(trigger);
        if (at === undefined) return { ok: false, error: 'invalid_trigger_id' };
        triggers.delete(trigger);
        if (clock() - at > TRIGGER_MS) return { ok: false, error: 'expired_trigger_id' };
      } else if (!views.some((v) => v.id === args.view_id)) return { ok: false, error: 'not_found' };
      const errors = view ? modalErrors(view) : ['no view'];
      if (errors.length) return { ok: false, error: 'invalid_arguments', response_metadata: { messages: errors } };
      const id = method === 'views.update' ? String(args.view_id) : `V${++seq}`;
      views.push({ id, method, view });
      return { ok: true, view: { id, ...view } };
    },
  };
}
