// The words of `/alerts`, both ways (src/standing-orders/language.ts holds what every kind shares): what `add` takes
// is a search in the command language, kept as typed; a search already parsed reads back as its canonical text.
import { channelSearchText, personalWords, type AlertCommand, type AlertSpec } from '../ports/order-command.js';
import { formatQuery } from '../query/index.js';
import { orderText, parseOrder, type OrderLanguage, type OwnWords, type Refused } from '../standing-orders/language.js';
import { parseFrequency } from './frequency.js';

export const ALERTS_HELP = [
  'Alerts post new listings for a saved search to this channel, once each:',
  '`/alerts add rent marina 2br under 120k`: save a search (or press "Save as alert" under any search)',
  '`/alerts add me rent marina 2br`: an alert of your own, sent to your direct messages with me (or "Save for me")',
  '`/alerts add rent marina 2br daily at 9:00` (or `weekly on sunday at 8:00`): one summary a day or a week instead',
  '`/alerts add rent marina 2br with back on market` (or `with gone`, `with back on market and gone`): also tell me when a listing comes back after being gone, or goes (let, sold or withdrawn)',
  '`/alerts edit 2 weekly on sunday at 8:00`, `/alerts edit 2 instant`: change how often it posts (`/alerts edit me 1 daily at 8:00`: your own)',
  '`/alerts edit 2 rent marina 2br under 150k daily at 9:00`: change its whole search (on Slack and Discord, /alerts new opens a form)',
  '`/alerts more 2`: the rest of its last summary',
  '`/alerts list`: the alerts of this channel, numbered, and your own ones ("to me")',
  '`/alerts pause 2`, `/alerts resume 2`, `/alerts remove 2`: only whoever saved it, or an admin (`/alerts pause me 1`: your own)',
  '`/alerts test 2`: check now and show what would be posted, posting nothing',
  '`/alerts quiet 22:00-07:00`, `/alerts quiet off`: hold instant posts overnight, then one summary',
  '`/alerts timezone Asia/Dubai`: the time zone of summaries and quiet hours here',
].join('\n');

const which = (noun: string) => `Which alert? Give its number: \`/alerts ${noun} 2\` (see \`/alerts list\`).`;

/** An alert's search as typed: the search, or one parsed with how often after it. */
const specText = (spec: AlertSpec): string =>
  'search' in spec
    ? spec.search.trim()
    : [formatQuery(spec.area ? { ...spec.query, location: spec.area.name } : spec.query), spec.every ?? '']
        .filter(Boolean)
        .join(' ');

/**
 * `edit 3 daily at 9:00`: the number, then how often as typed (read by ./frequency.ts when run); `edit 3 rent marina
 * 2br daily at 9:00`: the whole search replaced. `edit me 3 …`: the person's own alert.
 */
const EDIT: OwnWords<AlertCommand> = {
  parse: (arg) => {
    const m = /^(me\s+)?#?(\d{1,6})(?:\s+(.*))?$/i.exec(arg.trim());
    if (!m) return { refused: which('edit') };
    const n = m[2]!;
    const ref = `${m[1] ? 'me ' : ''}${n}`;
    const rest = (m[3] ?? '').trim();
    if (rest === '')
      return {
        refused: `How often should alert #${n} post? For example \`/alerts edit ${ref} daily at 9:00\` or \`/alerts edit ${ref} instant\`.`,
      };
    const mine = m[1] ? { to: 'me' as const } : {};
    // Words that are only how often change only that; anything else is the alert's new search.
    if (parseFrequency(rest).ok) return { kind: 'alert', sub: 'edit', number: Number(n), every: rest, ...mine };
    return { kind: 'alert', sub: 'edit', number: Number(n), alert: { search: rest }, ...mine };
  },
  text: (c) => {
    if (c.sub !== 'edit') return '';
    const me = c.to === 'me' ? 'me ' : '';
    return `${me}${c.number} ${'alert' in c ? specText(c.alert) : c.every}`;
  },
};

const QUIET: OwnWords<AlertCommand> = {
  parse: (arg) => ({ kind: 'alert', sub: 'quiet', hours: arg.trim() }),
  text: (c) => (c.sub === 'quiet' ? c.hours : ''),
};

const TIMEZONE: OwnWords<AlertCommand> = {
  parse: (arg) => ({ kind: 'alert', sub: 'timezone', zone: arg.trim() }),
  text: (c) => (c.sub === 'timezone' ? c.zone : ''),
};

/** `more 3`, `more 3 page 2`, `more quiet`, `more quiet 2`. */
const MORE: OwnWords<AlertCommand> = {
  parse: (arg) => {
    const m = /^(?:#?(\d{1,6})|(quiet))(?:\s+(?:page\s+)?(\d{1,4}))?$/i.exec(arg.trim());
    if (!m)
      return {
        refused:
          "Which summary? `/alerts more 2` for alert #2's last one, `/alerts more quiet` for the last quiet-hours one.",
      };
    const page = m[3] === undefined ? 1 : Math.max(1, Number(m[3]));
    return { kind: 'alert', sub: 'more', which: m[2] ? 'quiet' : Number(m[1]), page };
  },
  text: (c) => (c.sub === 'more' ? `${c.which}${c.page > 1 ? ` page ${c.page}` : ''}` : ''),
};

export const ALERT_LANGUAGE: OrderLanguage<AlertCommand> = {
  kind: 'alert',
  noun: 'alert',
  command: '/alerts',
  help: ALERTS_HELP,
  addWords: ['add', 'save', 'new'],
  add: {
    parse: (text) => {
      const { to, search } = personalWords(text);
      return { kind: 'alert', sub: 'add', search, ...(to ? { to } : {}) };
    },
    text: (c) => {
      if (c.sub !== 'add') return '';
      return c.to === 'me' ? `me ${specText(c)}` : channelSearchText(specText(c));
    },
  },
  inspect: ['test'],
  personal: true,
  extra: { edit: EDIT, quiet: QUIET, timezone: TIMEZONE, tz: TIMEZONE, more: MORE },
};

/** `/alerts` text (after the command) as a command, or why it is none.
 * @internal Exported for the tests and benchmarks (knip --production ignores it).
 */
export const parseAlertCommand = (text: string): AlertCommand | Refused => parseOrder(ALERT_LANGUAGE, text);

/** An alert command as it is typed: `/alerts add rent marina 2br`, `/alerts pause 2`.
 * @internal Exported for the tests and benchmarks (knip --production ignores it).
 */
export const alertCommandText = (c: AlertCommand): string => orderText(ALERT_LANGUAGE, c);
