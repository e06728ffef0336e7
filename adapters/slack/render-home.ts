// A person's Home tab as Block Kit (views.publish's `home` view), from the core's platform-free model: their alerts and
// digests, each with where it posts, its schedule, its state and its last post, and its buttons; "New alert" and
// "New digest"; a short "try this" on a first visit. Within SLACK_LIMITS (a home view holds at most 100 blocks: what
// does not fit is counted, with the command that lists it).
import type { HomeItem, HomeModel, HomeStateWord } from '../../src/ports/index.js';
import { parseSlackChannel } from './channel.js';
import { SLACK_LIMITS } from './limits.js';

/** The action ids of the Home tab's own buttons (handled by the Home tab's listener); value `<kind>:<id>`. */
export const HOME_ACTION = /^manzil:home:(pause|resume|remove):/;

/** The forms' buttons (the forms' listener opens them); an edit's value is the order's id. */
export const FORM_ACTIONS = {
  newAlert: 'manzil:form:new:alert',
  newDigest: 'manzil:form:new:digest',
  edit: (kind: HomeItem['kind']) => `manzil:form:edit:${kind}`,
} as const;

export interface HomeDrawing {
  /** The first visit: the "try this" section is shown. */
  firstVisit?: boolean;
  /** A line at the top: what the last press did, or why it did nothing. */
  notice?: string | undefined;
}

type SlackBlock = Record<string, unknown>;

const MARK: Record<HomeStateWord, string> = {
  active: '🟢',
  paused: '⏸️',
  waiting: '⏳',
  quiet: '🌙',
  failing: '⚠️',
};

const TRY_THIS = [
  '*Try this*',
  '• `/alerts add rent marina 2br under 120k`: new listings posted to the channel as they appear',
  '• `/alerts add me buy jvc villa daily at 9:00`: a daily summary to your direct messages',
  '• `/digest add dubai marina, business bay every monday at 9`: a weekly market digest',
  'Or press *New alert* and fill in the form.',
].join('\n');

const clamp = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);
const plain = (text: string) => ({ type: 'plain_text' as const, text: clamp(text, SLACK_LIMITS.buttonText) });
const context = (text: string): SlackBlock => ({
  type: 'context',
  elements: [{ type: 'mrkdwn', text: clamp(text, SLACK_LIMITS.sectionText) }],
});

/** `<#C1>` for a channel, "your DMs" for a personal one. */
function where(item: HomeItem): string {
  if (item.personal) return 'to me';
  const parsed = parseSlackChannel(item.target);
  if (!parsed) return item.target;
  return parsed.channelId.startsWith('D') ? 'a direct message' : `<#${parsed.channelId}>`;
}

function itemBlocks(item: HomeItem): SlackBlock[] {
  const ref = `${item.kind}:${item.id}`;
  const title = `*#${item.number} · ${clamp(item.title, 300)}*`;
  const line = `${where(item)} · ${item.schedule} · ${MARK[item.word]} ${item.state} · ${item.lastPost}`;
  const toggle = item.paused ? 'resume' : 'pause';
  return [
    { type: 'section', text: { type: 'mrkdwn', text: clamp(`${title}\n${line}`, SLACK_LIMITS.sectionText) } },
    {
      type: 'actions',
      elements: [
        {
          type: 'button',
          action_id: `manzil:home:${toggle}:${ref}`,
          text: plain(item.paused ? 'Resume' : 'Pause'),
          value: ref,
          ...(item.paused ? { style: 'primary' } : {}),
        },
        { type: 'button', action_id: FORM_ACTIONS.edit(item.kind), text: plain('Edit'), value: String(item.id) },
        {
          type: 'button',
          action_id: `manzil:home:remove:${ref}`,
          text: plain('Remove'),
          value: ref,
          style: 'danger',
          confirm: {
            title: plain(`Remove this ${item.kind}?`),
            text: { type: 'plain_text', text: clamp(`#${item.number} · ${item.title}`, 300) },
            confirm: plain('Remove'),
            deny: plain('Keep it'),
            style: 'danger',
          },
        },
      ],
    },
  ];
}

const SECTIONS = [
  { key: 'alerts', noun: 'alert', heading: 'Your alerts', list: '/alerts list', none: 'No alerts yet.' },
  { key: 'digests', noun: 'digest', heading: 'Your digests', list: '/digest list', none: 'No digests yet.' },
] as const;

/** The Home tab's view (`{ type: 'home', blocks }`), within the limit of blocks. */
export function renderHome(model: HomeModel, drawing: HomeDrawing = {}): { type: 'home'; blocks: SlackBlock[] } {
  const head: SlackBlock[] = [{ type: 'header', text: plain('Manzil: your alerts and digests') }];
  if (drawing.notice) head.push(context(drawing.notice));
  if (drawing.firstVisit) head.push({ type: 'section', text: { type: 'mrkdwn', text: TRY_THIS } });
  head.push({
    type: 'actions',
    elements: [
      { type: 'button', action_id: FORM_ACTIONS.newAlert, text: plain('New alert'), style: 'primary' },
      { type: 'button', action_id: FORM_ACTIONS.newDigest, text: plain('New digest') },
    ],
  });
  // Per section: a divider, its heading, and one line when it is empty or cut short.
  let room = SLACK_LIMITS.blocksPerHomeView - head.length - SECTIONS.length * 3;
  const body: SlackBlock[] = [];
  for (const s of SECTIONS) {
    const items = model[s.key];
    body.push(
      { type: 'divider' },
      { type: 'section', text: { type: 'mrkdwn', text: `*${s.heading}* (${items.length})` } },
    );
    const shown = items.slice(0, Math.max(0, Math.floor(room / 2)));
    room -= shown.length * 2;
    for (const item of shown) body.push(...itemBlocks(item));
    if (items.length === 0) body.push(context(s.none));
    else if (shown.length < items.length)
      body.push(context(`…and ${items.length - shown.length} more ${s.noun}s, see \`${s.list}\`.`));
  }
  return { type: 'home', blocks: [...head, ...body] };
}
