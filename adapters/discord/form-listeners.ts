// The alert and digest forms on Discord: `/alerts new`, `/digest new`, and `/alerts edit number:3` (no `every`) or
// `/digest edit number:3` open a modal as the interaction's first answer (callback type 9, within the 3 s), an edit
// one filled from the order the core finds. A submission (MODAL_SUBMIT) is read by the core's forms (src/forms) into
// an OrderCommand and run through the same `run` as the slash commands' options; its confirmation shows the typed
// command that saves the same. A wrong field is answered in an ephemeral reply that names it and quotes back all that
// was typed, nothing saved, with a Try again button that opens the form again as it was (Discord cannot keep a modal
// open, nor answer a modal with one).
import {
  ButtonStyle,
  ComponentType,
  MessageFlags,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type Interaction,
  type ModalSubmitInteraction,
} from 'discord.js';
import {
  commandText,
  formConfirmation,
  fromOrder,
  KeptForms,
  toAlertOrder,
  toDigestOrder,
  type AlertFormValues,
  type DigestFormValues,
  type Reply,
} from '../../src/bot/index.js';
import type { ChatCore, FormFill } from '../../src/ports/index.js';
import { NO_CHANNEL_TEXT } from './channel.js';
import { sendWithCharts } from './charts.js';
import {
  FIELD_LABELS,
  FORM_PREFIX,
  alertModal,
  digestModal,
  fieldOf,
  formValues,
  readFormCustomId,
  retypedModal,
  shownValue,
  type FormKind,
  type FormTarget,
  type Typed,
} from './form-modals.js';
import { DISCORD_LIMITS, DISCORD_SURFACE } from './limits.js';
import { describeError, messageOptions, type SendLog } from './send.js';

export interface FormDeps {
  bot: ChatCore;
  warn: SendLog;
  /** The person's rights in the interaction's server (Manage Server). */
  isAdmin: (i: Interaction) => () => Promise<boolean>;
}

/** The subcommands that open a form rather than run: new, and edit with a number and nothing else. */
export function formOf(i: ChatInputCommandInteraction): { kind: FormKind; number?: number; mine: boolean } | undefined {
  const kind = i.commandName === 'alerts' ? 'alert' : i.commandName === 'digest' ? 'digest' : undefined;
  const sub = i.options.getSubcommand(false);
  if (!kind || !sub) return undefined;
  if (sub === 'new') return { kind, mine: false };
  const number = i.options.getInteger('number');
  if (sub !== 'edit' || number === null || i.options.getString('every') !== null) return undefined;
  return { kind, number, mine: i.options.getBoolean('mine') === true };
}

const RETRY = `${FORM_PREFIX}retry:`;

/** A submission's fields by custom_id: a text input's value, a select's one chosen value. */
function typedIn(i: ModalSubmitInteraction): Typed {
  const typed: Typed = {};
  for (const [id, field] of i.fields.fields) {
    if (field.type === ComponentType.TextInput) typed[id] = field.value;
    else if (field.type === ComponentType.StringSelect && field.values[0] !== undefined) typed[id] = field.values[0];
  }
  return typed;
}

/** `"rent marina"`: a value quoted as typed, on one line and without backticks that would end the quote. */
const quoted = (v: string) =>
  `\`${
    v
      .replace(/`/g, "'")
      .replace(/\s*\n\s*/g, ' ')
      .trim() || ' '
  }\``;

/** Why a form was not saved: on a field (the core's forms), or the core's own words (an area it cannot find). */
type Reason = { field?: string; why: string };

/** The refusal: each wrong field named with why, then everything typed, quoted back. */
function refusalText(kind: FormKind, reasons: Reason[], typed: Typed): string {
  const wrong = reasons.map(({ field, why }) => (field ? `**${FIELD_LABELS[field] ?? field}**: ${why}` : why));
  const said = Object.entries(typed)
    .filter(([, v]) => v.trim() !== '')
    .map(([field, v]) => `> ${FIELD_LABELS[field] ?? field}: ${quoted(shownValue(kind, field, v))}`);
  const text = [
    'Not saved, nothing changed:',
    ...[...new Set(wrong)].map((w) => `• ${w}`),
    '',
    'What you typed:',
    ...said,
    '',
    'Press **Try again** to open the form with it.',
  ].join('\n');
  return text.length <= DISCORD_LIMITS.content ? text : `${text.slice(0, DISCORD_LIMITS.content - 1)}…`;
}

/** The core's forms' refusals, one a modal field (a price's two ends are its price field, a weekly day how often). */
const fieldReasons = (errors: Record<string, string | undefined>): Reason[] =>
  Object.entries(errors)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([field, why]) => ({ field: fieldOf(field as never), why }));

export function formListeners(deps: FormDeps) {
  // Refused forms kept a while, by the id their Try again button carries: what was typed is never lost.
  const refused = new KeptForms<{ target: FormTarget; typed: Typed }>();

  /** Opens the form: empty, or filled from the order it edits; a refusal (no such order, not yours) is said. */
  async function open(i: ChatInputCommandInteraction, channel: string, form: NonNullable<ReturnType<typeof formOf>>) {
    if (form.number === undefined) {
      const target: FormTarget = { kind: form.kind };
      await i.showModal(form.kind === 'alert' ? alertModal({}, target) : digestModal({}, target));
      return;
    }
    const fill = await deps.bot.orderForm({
      user: i.user.id,
      channel,
      isAdmin: deps.isAdmin(i),
      kind: form.kind,
      order: { number: form.number, ...(form.mine ? { to: 'me' as const } : {}) },
    });
    await show(i, fill);
  }

  /** A result's Save button (issue 41): the new alert's form, filled from that search, as the click's first answer. */
  async function save(i: ButtonInteraction, channel: string, token: string): Promise<void> {
    await show(
      i,
      await deps.bot.orderForm({
        user: i.user.id,
        channel,
        isAdmin: deps.isAdmin(i),
        kind: 'alert',
        order: { button: token },
      }),
    );
  }

  /** The form a fill asks for (an edit's, or a new alert's from a draft), or its refusal, said to the person. */
  async function show(i: ChatInputCommandInteraction | ButtonInteraction, fill: FormFill): Promise<void> {
    if (!fill.ok) {
      await sendWithCharts(fill.reply, (m, files) => i.reply(messageOptions(m, files, { ephemeral: true })), deps.warn);
      return;
    }
    if ('draft' in fill) {
      await i.showModal(alertModal(fromOrder(fill.draft) as AlertFormValues, { kind: 'alert' }));
      return;
    }
    const { existing } = fill;
    const target: FormTarget = {
      kind: existing.kind,
      editing: { number: existing.number, ...(existing.kind === 'alert' && existing.to ? { to: existing.to } : {}) },
    };
    const values = fromOrder(existing);
    await i.showModal(
      existing.kind === 'alert'
        ? alertModal(values as AlertFormValues, target)
        : digestModal(values as DigestFormValues, target),
    );
  }

  /** Try again: the refused form opened again, filled with what was typed. */
  async function retry(i: ButtonInteraction): Promise<void> {
    const kept = i.customId.startsWith(RETRY) ? refused.get(i.customId.slice(RETRY.length), i.user.id) : undefined;
    if (!kept) {
      await i.reply({
        content: 'This form has expired: open it again with /alerts new or /digest new (what you typed is above).',
        flags: MessageFlags.Ephemeral,
      });
      return;
    }
    await i.showModal(retypedModal(kept.target, kept.typed));
  }

  async function submit(i: ModalSubmitInteraction, channel: string | undefined): Promise<void> {
    const target = readFormCustomId(i.customId);
    if (!target || !channel) {
      const why = channel ? 'This form is from an older Manzil: open it again.' : NO_CHANNEL_TEXT;
      await i.reply({ content: why, flags: MessageFlags.Ephemeral });
      return;
    }
    const typed = typedIn(i);
    const values = formValues(target.kind, typed);
    const read =
      target.kind === 'alert'
        ? toAlertOrder(values as AlertFormValues, target.editing)
        : toDigestOrder(values as DigestFormValues, target.editing);
    if (!read.ok) {
      await refuse(i, target, typed, fieldReasons(read.errors));
      return;
    }
    const order = read.order;
    // Said where the order posts, as Slack's forms do: in the channel, or to the person alone for their own alert
    // (a refusal by the core, ephemeral, is then sent as a follow-up of its own).
    const deferredPrivate = ('to' in order && order.to === 'me') || target.editing?.to === 'me';
    await i.deferReply(deferredPrivate ? { flags: MessageFlags.Ephemeral } : {});
    const reply = await deps.bot.handleCommand({
      user: i.user.id,
      channel,
      surface: DISCORD_SURFACE,
      isAdmin: deps.isAdmin(i),
      text: commandText(order),
      order,
    });
    // The core refused what the form could not know (an area it cannot find, several it could mean, a duplicate, a
    // limit): said as the form's own refusals are, with what was typed. (A personal order's confirmation is private
    // too: the reply says it refused; a channel's says so by being private.)
    if (reply.refused || (reply.ephemeral && !deferredPrivate)) {
      await i
        .deleteReply()
        .catch((e: unknown) => deps.warn('discord: could not delete the deferred reply', { error: describeError(e) }));
      const place = /\bplaces?\b/i.test(reply.text) ? { field: target.kind === 'alert' ? 'search' : 'areas' } : {};
      await refuse(i, target, typed, [{ ...place, why: reply.text }]);
      return;
    }
    await answerDeferred(i, formConfirmation(reply, order), deferredPrivate, deps.warn);
  }

  /** Answers a refused form (at once, or after a deferral as a follow-up), with Try again to reopen it as typed. */
  async function refuse(i: ModalSubmitInteraction, target: FormTarget, typed: Typed, reasons: Reason[]) {
    const id = refused.put(i.user.id, { target, typed });
    const message = {
      content: refusalText(target.kind, reasons, typed),
      components: [
        {
          type: ComponentType.ActionRow,
          components: [
            { type: ComponentType.Button, style: ButtonStyle.Primary, label: 'Try again', custom_id: `${RETRY}${id}` },
          ],
        },
      ],
      flags: MessageFlags.Ephemeral,
      allowedMentions: { parse: [] },
    } as const;
    await (i.deferred ? i.followUp(message) : i.reply(message));
  }

  return { open, save, retry, submit, handles: (customId: string) => customId.startsWith(FORM_PREFIX) };
}

/**
 * A deferred reply keeps the visibility it was deferred with: when the answer needs the other (a refusal of a new
 * alert, say), the deferred "thinking…" is deleted and the answer goes as a follow-up of its own visibility.
 */
export async function answerDeferred(
  i: ChatInputCommandInteraction | ModalSubmitInteraction,
  reply: Reply,
  deferredPrivate: boolean,
  warn: SendLog,
): Promise<void> {
  const wantPrivate = reply.ephemeral === true;
  if (wantPrivate === deferredPrivate) {
    await sendWithCharts(reply, (m, files) => i.editReply(messageOptions(m, files, { edit: true })), warn);
    return;
  }
  await i
    .deleteReply()
    .catch((e: unknown) => warn('discord: could not delete the deferred reply', { error: describeError(e) }));
  await sendWithCharts(reply, (m, files) => i.followUp(messageOptions(m, files, { ephemeral: wantPrivate })), warn);
}
