// The words of `/alerts`, both ways (src/standing-orders/language.ts holds what every kind shares): what `add` takes
// is a search in the command language, kept as typed; a search already parsed reads back as its canonical text.
import { personalWords, type AlertCommand } from '../ports/order-command.js';
import { formatQuery } from '../query/index.js';
import { orderText, parseOrder, type OrderLanguage, type Refused } from '../standing-orders/language.js';

export const ALERTS_HELP = [
  'Alerts post new listings for a saved search to this channel, once each:',
  '`/alerts add rent marina 2br under 120k`: save a search (or press "Save as alert" under any search)',
  '`/alerts add me rent marina 2br`: an alert of your own, sent to your direct messages with me (or "Save for me")',
  '`/alerts list`: the alerts of this channel, numbered, and your own ones ("to me")',
  '`/alerts pause 2`, `/alerts resume 2`, `/alerts remove 2`: only whoever saved it, or an admin (`/alerts pause me 1`: your own)',
  '`/alerts test 2`: check now and show what would be posted, posting nothing',
].join('\n');

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
      const me = c.to === 'me' ? 'me ' : '';
      if ('search' in c) return `${me}${c.search.trim()}`;
      return `${me}${formatQuery(c.area ? { ...c.query, location: c.area.name } : c.query)}`;
    },
  },
  inspect: ['test'],
  personal: true,
};

/** `/alerts` text (after the command) as a command, or why it is none.
 * @internal Exported for the tests and benchmarks (knip --production ignores it).
 */
export const parseAlertCommand = (text: string): AlertCommand | Refused => parseOrder(ALERT_LANGUAGE, text);

/** An alert command as it is typed: `/alerts add rent marina 2br`, `/alerts pause 2`.
 * @internal Exported for the tests and benchmarks (knip --production ignores it).
 */
export const alertCommandText = (c: AlertCommand): string => orderText(ALERT_LANGUAGE, c);
