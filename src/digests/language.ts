// The words of `/digest`, both ways (src/standing-orders/language.ts holds what every kind shares): `add` takes places
// and schedule words (`dubai marina, business bay weekly on friday at 18:30`), `now` takes places.
import { areaList, type DigestCommand } from '../ports/order-command.js';
import { orderText, parseOrder, type OrderLanguage, type Refused } from '../standing-orders/language.js';
import { readSchedule, scheduleText } from '../standing-orders/schedule.js';

export const DIGEST_HELP = [
  'A digest posts a summary of the places this channel follows, with a chart, on a schedule:',
  '`/digest add dubai marina, business bay`: every Monday at 09:00; or add `daily`, `weekly on friday`, `monthly`, `at 18:30`',
  '`/digest edit 2 jvc, business bay daily at 8:00`: change its places and schedule (on Slack and Discord, /digest new opens a form)',
  '`/digest list`: the digests of this channel, with their next time and cost',
  '`/digest pause 2`, `/digest resume 2`, `/digest remove 2`: only whoever added it, or an admin',
  '`/digest now dubai marina`: a digest of a place, posted here at once for everyone',
].join('\n');

const areasOf = (c: DigestCommand) => ('areas' in c ? c.areas.join(', ') : '');

export const DIGEST_LANGUAGE: OrderLanguage<DigestCommand> = {
  kind: 'digest',
  noun: 'digest',
  command: '/digest',
  help: DIGEST_HELP,
  addWords: ['add', 'follow', 'new'],
  add: {
    parse: (arg) => {
      const read = readSchedule(arg);
      if (!read.ok) return { refused: `${read.error} Nothing was saved.` };
      return { kind: 'digest', sub: 'add', areas: areaList(read.rest), when: read.when };
    },
    text: (c) => [areasOf(c), c.sub === 'add' ? scheduleText(c.when) : ''].filter(Boolean).join(' '),
  },
  extra: {
    now: { parse: (arg) => ({ kind: 'digest', sub: 'now', areas: areaList(arg) }), text: areasOf },
    edit: {
      parse: (arg) => {
        const m = /^#?(\d{1,6})\s+(.+)$/s.exec(arg.trim());
        if (!m)
          return {
            refused: 'Which digest, and what should it follow? For example `/digest edit 2 jvc daily at 8:00`.',
          };
        const read = readSchedule(m[2]!);
        if (!read.ok) return { refused: `${read.error} Nothing was changed.` };
        return { kind: 'digest', sub: 'edit', number: Number(m[1]), areas: areaList(read.rest), when: read.when };
      },
      text: (c) =>
        c.sub === 'edit' ? [String(c.number), areasOf(c), scheduleText(c.when)].filter(Boolean).join(' ') : '',
    },
  },
};

/** `/digest` text (after the command) as a command, or why it is none.
 * @internal Exported for the tests and benchmarks (knip --production ignores it).
 */
export const parseDigestCommand = (text: string): DigestCommand | Refused => parseOrder(DIGEST_LANGUAGE, text);

/** A digest command as it is typed: `/digest add jvc weekly on friday at 18:30`, `/digest pause 2`.
 * @internal Exported for the tests and benchmarks (knip --production ignores it).
 */
export const digestCommandText = (c: DigestCommand): string => orderText(DIGEST_LANGUAGE, c);
