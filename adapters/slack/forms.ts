// The alert and digest forms on Slack: `/alerts new`, `/digest new` and `/alerts edit 3` (nothing after the number)
// open a modal with `views.open` while the command's trigger is fresh (3 s), as do the Home tab's buttons; a submission
// is read by the core's forms (src/forms) into an OrderCommand, refused on the wrong field (`response_action: errors`,
// nothing saved) or run through the same `run` as a typed command, its confirmation posted where the order posts (a
// refusal by the core with Try again, the form as typed). Its listeners are registered by kind in ./listeners.
import type {
  AllMiddlewareArgs,
  AnyMiddlewareArgs,
  BlockAction,
  ButtonAction,
  SlackActionMiddlewareArgs as ActionArgs,
  SlackOptionsMiddlewareArgs,
  SlackViewMiddlewareArgs,
} from '@slack/bolt';
import type { KnownBlock } from '@slack/types';

type SlackActionMiddlewareArgs = ActionArgs<BlockAction>;
import type { WebClient } from '@slack/web-api';
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
import type { Logger } from '../../src/log.js';
import { personIn, type ChatCore, type TrackRequest } from '../../src/ports/index.js';
import type { SlackAdmins } from './admins.js';
import { parseSlackChannel, slackChannel } from './channel.js';
import { alertView, digestView, readState, type FormMetadata } from './form-views.js';
import { SLACK_SURFACE } from './limits.js';
import { renderSlack } from './render.js';
import { actionChannel, refuse, warnOf } from './listeners/origin.js';
import { sendReply } from './respond.js';

export interface FormDeps {
  bot: ChatCore;
  admins: SlackAdmins;
  logger: Logger;
  track: TrackRequest;
}

/** `/alerts new`, `/digest new`, `/alerts edit 3`: the commands that open a form rather than run. */
function formOf(command: string, text: string): { kind: 'alert' | 'digest'; number?: number } | undefined {
  const kind = command === '/alerts' ? 'alert' : command === '/digest' ? 'digest' : undefined;
  const t = text.trim().toLowerCase();
  if (!kind) return undefined;
  if (t === 'new') return { kind };
  const edit = /^edit\s+#?(\d{1,6})$/.exec(t);
  return edit ? { kind, number: Number(edit[1]) } : undefined;
}

type Open = (view: ReturnType<typeof alertView>) => Promise<unknown>;

/** Opens the form: empty, or filled from the order it edits (found by the core); a refusal is said to the person. */
async function openForm(
  deps: FormDeps,
  open: Open,
  who: { user: string; channel: string; team: string },
  kind: 'alert' | 'digest',
  ref: { number: number } | { id: number } | { button: string } | undefined,
  tell: (reply: Reply) => Promise<unknown>,
): Promise<void> {
  if (!ref) {
    const meta: FormMetadata = { channel: who.channel };
    await open(kind === 'alert' ? alertView({}, meta) : digestView({}, meta));
    return;
  }
  const fill = await deps.bot.orderForm({
    user: who.user,
    channel: who.channel,
    isAdmin: deps.admins.forUser(who.team, who.user),
    kind,
    order: ref,
  });
  if (!fill.ok) {
    await tell(fill.reply);
    return;
  }
  if ('draft' in fill) {
    // A result's Save: a new alert's form, filled from that search (to be saved where the result was).
    const values = fromOrder(fill.draft) as AlertFormValues;
    await open(alertView(values, { channel: fill.channel, ...(values.keep ? { keep: values.keep } : {}) }));
    return;
  }
  const { existing } = fill;
  const editing = { number: existing.number, ...(existing.kind === 'alert' && existing.to ? { to: existing.to } : {}) };
  const values = fromOrder(existing);
  const meta: FormMetadata = {
    channel: fill.channel,
    editing,
    ...('keep' in values && values.keep ? { keep: values.keep } : {}),
  };
  await open(
    existing.kind === 'alert'
      ? alertView(values as AlertFormValues, meta)
      : digestView(values as DigestFormValues, meta),
  );
}

const FORM_EXPIRED = 'That form has expired: open it again with `/alerts new` or `/digest new`.';

/** The Try again button under a refused form's answer. */
const tryAgain = (id: string): KnownBlock[] => [
  {
    type: 'actions',
    elements: [
      {
        type: 'button',
        action_id: FORM_RETRY_ACTION,
        style: 'primary',
        text: { type: 'plain_text', text: 'Try again' },
        value: id,
      },
    ],
  },
];

/** Where a confirmation goes: the order's channel, or the person's DMs for "to me" (a refusal only to the person). */
async function confirm(
  client: WebClient,
  channel: string,
  user: string,
  reply: Reply,
  mine: boolean,
  extra: KnownBlock[] = [],
): Promise<void> {
  const at = parseSlackChannel(channel);
  const rendered = renderSlack(reply);
  const message = { ...rendered, blocks: [...rendered.blocks, ...extra] };
  const personal = mine || personIn(channel) !== undefined;
  if (personal || !at) await client.chat.postMessage({ channel: user, ...message });
  else if (reply.ephemeral) await client.chat.postEphemeral({ channel: at.channelId, user, ...message });
  else await client.chat.postMessage({ channel: at.channelId, ...message });
}

/** A result's Save button (its form), a Home tab's New or Edit, a refused form's Try again. */
export const SAVE_ACTION = /^manzil:save:/;
export const FORM_OPEN_ACTION = /^manzil:form:(new|edit):(alert|digest)$/;
export const FORM_RETRY_ACTION = 'manzil:form:retry';

/** A form refused by the core, kept for its Try again: which form, what was typed, where it saves. */
interface Refused {
  kind: 'alert' | 'digest';
  values: AlertFormValues | DigestFormValues;
  meta: FormMetadata;
}

/** The forms' listeners, registered by kind (./listeners): each is the body of one Bolt listener. */
export function slackForms(deps: FormDeps) {
  const { bot, logger, track } = deps;
  const refused = new KeptForms<Refused>();

  // Global middleware, so before the command listeners: a command that opens a form is answered here, no further.
  const command = async (args: AnyMiddlewareArgs & AllMiddlewareArgs): Promise<void> => {
    const body = args.body as {
      command?: string;
      text?: string;
      trigger_id?: string;
      team_id?: string;
      user_id?: string;
      channel_id?: string;
      enterprise_id?: string;
    };
    const form = body.command ? formOf(body.command, body.text ?? '') : undefined;
    if (!form || !body.trigger_id) return args.next();
    await (args as unknown as { ack: () => Promise<void> }).ack();
    const channel = slackChannel({
      teamId: body.team_id,
      enterpriseId: body.enterprise_id,
      channelId: body.channel_id,
    });
    if (!channel) return;
    const client = (args as unknown as AllMiddlewareArgs).client;
    await track(() =>
      openForm(
        deps,
        (view) => client.views.open({ trigger_id: body.trigger_id!, view }),
        { user: body.user_id!, channel, team: body.team_id ?? '' },
        form.kind,
        form.number === undefined ? undefined : { number: form.number },
        (reply) => client.chat.postEphemeral({ channel: body.channel_id!, user: body.user_id!, ...renderSlack(reply) }),
      ),
    ).catch((error: unknown) => logger.warn('slack: a form could not be opened', { error, command: body.command }));
  };

  // The Home tab's buttons (and any message's): a new form, or an edit form by the order's id.
  const open = async ({ ack, body, action, client }: SlackActionMiddlewareArgs & AllMiddlewareArgs) => {
    await ack();
    const b = body as BlockAction<ButtonAction>;
    const [, , mode, kind] = (action as ButtonAction).action_id.split(':') as [
      string,
      string,
      string,
      'alert' | 'digest',
    ];
    const team = b.team?.id ?? b.user.team_id ?? '';
    // From the Home tab no conversation is named: the person's DMs stand for their team.
    const channel =
      slackChannel({ teamId: team, channelId: b.channel?.id ?? b.container?.channel_id }) ??
      `slack:${team}:@${b.user.id}`;
    const id = Number((action as ButtonAction).value);
    await track(() =>
      openForm(
        deps,
        (view) => client.views.open({ trigger_id: b.trigger_id, view }),
        { user: b.user.id, channel, team },
        kind,
        mode === 'edit' ? { id } : undefined,
        (reply) => client.chat.postMessage({ channel: b.user.id, ...renderSlack(reply) }),
      ),
    ).catch((error: unknown) => logger.warn('slack: a form could not be opened', { error, action: action.type }));
  };

  // A result's Save button: the new alert's form, filled from the search, opened within the click's trigger (3 s).
  // Should the form not open (the trigger gone stale), the search is saved as the button always did.
  const save = async ({ ack, body, action, client, respond }: SlackActionMiddlewareArgs & AllMiddlewareArgs) => {
    await ack();
    const b = body as BlockAction<ButtonAction>;
    const team = b.team?.id ?? b.user.team_id ?? '';
    const channel = actionChannel(b);
    const token = (action as ButtonAction).value ?? '';
    if (!channel) return refuse(respond, logger, action.action_id);
    const tell = (reply: Reply) => sendReply(respond, reply, { log: warnOf(logger) });
    await track(async () => {
      try {
        await openForm(
          deps,
          (view) => client.views.open({ trigger_id: b.trigger_id, view }),
          { user: b.user.id, channel, team },
          'alert',
          { button: token },
          tell,
        );
      } catch (error) {
        logger.warn('slack: the save form could not be opened; saving the search as it is', { error });
        const isAdmin = deps.admins.forUser(team, b.user.id);
        await tell(
          await bot.handleAction({
            user: b.user.id,
            channel,
            surface: SLACK_SURFACE,
            isAdmin,
            action: 'save',
            token,
          }),
        );
      }
    }).catch((error: unknown) => logger.warn('slack: a result could not be saved', { error }));
  };

  // The area field's typing: answered as the message pickers' are, from the channel the form was opened in.
  const area = async ({ ack, body, options }: SlackOptionsMiddlewareArgs<'block_suggestion'>) => {
    const view = (body as { view?: { private_metadata?: string } }).view;
    const meta = parseMeta(view?.private_metadata);
    const found = meta
      ? await bot.suggestLocations({ user: body.user.id, channel: meta.channel, typed: options.value }).catch(() => [])
      : [];
    await ack({
      options: found.map((o) => ({ text: { type: 'plain_text' as const, text: o.label }, value: o.value })),
    });
  };

  const submit =
    (kind: 'alert' | 'digest') =>
    async ({ ack, body, view, client }: SlackViewMiddlewareArgs & AllMiddlewareArgs) => {
      const meta = parseMeta(view.private_metadata);
      const values = readState(view.state as never) as Record<string, never>;
      const read =
        kind === 'alert'
          ? toAlertOrder({ ...(values as AlertFormValues), ...(meta?.keep ? { keep: meta.keep } : {}) }, meta?.editing)
          : toDigestOrder(values as DigestFormValues, meta?.editing);
      if (!meta) {
        await ack({
          response_action: 'errors',
          errors: { [kind === 'alert' ? 'area' : 'areas']: 'This form is from an older Manzil: open it again.' },
        });
        return;
      }
      if (!read.ok) {
        // On the field that is wrong; the form stays open with what was typed, and nothing is saved.
        await ack({ response_action: 'errors', errors: read.errors as Record<string, string> });
        return;
      }
      await ack();
      const user = body.user.id;
      const team = parseSlackChannel(meta.channel)?.teamId ?? body.user.team_id ?? '';
      await track(async () => {
        const reply = await bot.handleCommand({
          user,
          channel: meta.channel,
          surface: SLACK_SURFACE,
          isAdmin: deps.admins.forUser(team, user),
          text: commandText(read.order),
          order: read.order,
        });
        const mine = 'to' in read.order && read.order.to === 'me';
        // A refusal by the core (a duplicate, a limit, a place it cannot find) comes after the form closed: Try again
        // opens it once more as it was typed.
        const again = reply.refused ? tryAgain(refused.put(user, { kind, values, meta })) : [];
        await confirm(client, meta.channel, user, formConfirmation(reply, read.order), mine, again);
      }).catch((error: unknown) => logger.warn('slack: a form was saved but its confirmation failed', { error, kind }));
    };

  // A refused form's Try again: the form as it was typed, opened within the click's trigger.
  const retry = async ({ ack, body, action, client, respond }: SlackActionMiddlewareArgs & AllMiddlewareArgs) => {
    await ack();
    const b = body as BlockAction<ButtonAction>;
    const kept = refused.get((action as ButtonAction).value ?? '', b.user.id);
    if (!kept) {
      await respond({ response_type: 'ephemeral', replace_original: false, text: FORM_EXPIRED });
      return;
    }
    const view =
      kept.kind === 'alert'
        ? alertView(kept.values as AlertFormValues, kept.meta)
        : digestView(kept.values as DigestFormValues, kept.meta);
    await track(() => client.views.open({ trigger_id: b.trigger_id, view })).catch((error: unknown) =>
      logger.warn('slack: a refused form could not be opened again', { error }),
    );
  };

  return { command, open, save, retry, area, submit };
}

export type SlackForms = ReturnType<typeof slackForms>;

function parseMeta(json: string | undefined): FormMetadata | undefined {
  try {
    const m = JSON.parse(json ?? '') as FormMetadata;
    return typeof m.channel === 'string' ? m : undefined;
  } catch {
    return undefined;
  }
}
