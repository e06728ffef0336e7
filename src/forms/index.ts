// Forms (modals) for alerts and digests, platform-free: a form's fields read into the same OrderCommand a typed command
// is (toOrder), an existing order read back into them for an edit form (fromOrder), and the typed command that would
// save the same (commandText), which a form's confirmation shows. The adapters draw the fields (Slack's modal,
// Discord's); a submission is run by the kind's `run`, as Discord's options are, with no text in between.
import { alertCommandText } from '../alerts/language.js';
import { digestCommandText } from '../digests/language.js';
import type { AlertDraft, ExistingOrder, OrderCommand } from '../ports/order-command.js';
import type { Reply } from '../views/model.js';
import { fromAlert, toAlertOrder, type AlertFormValues } from './alert-form.js';
import { fromDigest, toDigestOrder, type DigestFormValues } from './digest-form.js';

export { ALERT_TYPES, priceRangeText, readPriceRange, type AlertField, type AlertFormValues } from './alert-form.js';
export type { DigestField, DigestFormValues } from './digest-form.js';
export { decodeArea, type FormResult } from './values.js';
export { KeptForms } from './kept.js';
export { fromAlert, fromDigest, toAlertOrder, toDigestOrder };

/** The typed command that saves what `order` saves: `/alerts add rent "Dubai Marina" 2 br under 120000 instant`. */
export const commandText = (order: OrderCommand): string =>
  order.kind === 'alert' ? alertCommandText(order) : digestCommandText(order);

/** An existing order as its edit form's values. */
export function fromOrder(existing: ExistingOrder | AlertDraft): AlertFormValues | DigestFormValues {
  return existing.kind === 'alert' ? fromAlert(existing) : fromDigest(existing);
}

/**
 * What a submitted form answers: the kind's reply, and the command that would have saved the same, so a team learns
 * the typed form (said once: a reply from `run` that says it already keeps its own line).
 */
export function formConfirmation(reply: Reply, order: OrderCommand): Reply {
  const typed = `Typed, this form is: \`${commandText(order)}\``;
  if (reply.text.includes('Typed: `')) return reply;
  return { ...reply, text: `${reply.text}\n${typed}`, blocks: [...reply.blocks, { kind: 'context', text: typed }] };
}
