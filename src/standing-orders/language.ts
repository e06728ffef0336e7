// The typed words of a standing order's command (`/alerts pause 2`, `/digest add jvc daily`), both ways: text into an
// OrderCommand (parseOrder) and an OrderCommand back into the text that says it (orderText). Pure. The subcommands
// every kind shares are read here; a kind supplies the words of its own (what `add` takes, `test`, `now`).
import type { OrderKind, SharedCommand } from '../ports/order-command.js';

/** Text that is no command, and the friendly reason, said as it is. */
export interface Refused {
  refused: string;
}

type Command = { kind: string; sub: string };

/** A kind's own subcommand with an argument (digests' `now`): its words both ways. */
export interface OwnWords<C extends Command> {
  parse(arg: string): C | Refused;
  /** What follows `<command> <sub>`: the argument as it is typed. */
  text(c: C): string;
}

export interface OrderLanguage<C extends Command> {
  kind: C['kind'];
  /** One of it, in replies: 'alert', 'digest'. */
  noun: string;
  /** The chat command: '/alerts', '/digest'. */
  command: string;
  /** The help text, said after an unknown subcommand. */
  help: string;
  /** The words that add one; the first is the one written back. */
  addWords: readonly string[];
  /** What `add` takes. */
  add: OwnWords<C>;
  /** Its own subcommands on one numbered order, open to everyone (alerts' `test`). */
  inspect?: readonly string[];
  /** Its other subcommands, by name. */
  extra?: Readonly<Record<string, OwnWords<C>>>;
  /** Whether a person may have orders of their own (alerts to their DMs): `pause me 2` names one of theirs. */
  personal?: boolean;
}

const REMOVE_WORDS = ['remove', 'delete', 'rm'];
const NUMBERED = ['pause', 'resume', ...REMOVE_WORDS];

/** A kind's subcommand by the word typed: its own entries only (`constructor` is no subcommand). */
export const own = <T>(table: Readonly<Record<string, T>> | undefined, word: string): T | undefined =>
  table && Object.hasOwn(table, word) ? table[word] : undefined;

/** The text after the command (`pause 2`, `add rent marina`) as a command, or why it is none. */
export function parseOrder<C extends Command>(lang: OrderLanguage<C>, text: string): C | Refused {
  const [word = '', ...rest] = text.trim().split(/\s+/).filter(Boolean);
  const arg = rest.join(' ').trim();
  const sub = word.toLowerCase();
  const { kind, noun, command } = lang;
  // The shared subcommands (and the kind's numbered ones) are the same shape in every kind's command type.
  const shared = (c: Omit<SharedCommand<OrderKind>, 'kind'> | { sub: string; number: number }) =>
    ({ kind, ...c }) as unknown as C;
  if (sub === '' || sub === 'help') return shared({ sub: 'help' });
  if (lang.addWords.includes(sub)) return lang.add.parse(arg);
  if (sub === 'list' || sub === 'ls') return shared({ sub: 'list' });
  if (NUMBERED.includes(sub) || lang.inspect?.includes(sub)) {
    if (sub === 'resume' && arg === '') return shared({ sub: 'resume' });
    // `pause me 2`: the person's own order of that number (a personal one), where the kind has them.
    const m = (lang.personal ? /^(me\s+)?#?(\d{1,6})$/i : /^()#?(\d{1,6})$/).exec(arg);
    if (!m) return { refused: `Which ${noun}? Give its number: \`${command} ${sub} 2\` (see \`${command} list\`).` };
    const mine = m[1] ? { to: 'me' as const } : {};
    return shared({ sub: REMOVE_WORDS.includes(sub) ? 'remove' : sub, number: Number(m[2]), ...mine });
  }
  const extra = own(lang.extra, sub);
  if (extra) return extra.parse(arg);
  return { refused: `I don't know "${command} ${word}".\n${lang.help}` };
}

/** The command as it is typed: `/alerts pause 2`, `/digest add dubai marina weekly on friday at 18:30`. */
export function orderText<C extends Command>(lang: OrderLanguage<C>, c: C): string {
  const words = (arg: string) => [lang.command, c.sub, arg].filter(Boolean).join(' ');
  if (c.sub === 'add') return words(lang.add.text(c));
  const extra = own(lang.extra, c.sub);
  if (extra) return words(extra.text(c));
  const { number, to } = c as { number?: number; to?: string };
  return words(number === undefined ? '' : to === 'me' ? `me ${number}` : String(number));
}

export const isRefused = <C>(c: C | Refused): c is Refused =>
  typeof c === 'object' && c !== null && 'refused' in c && typeof c.refused === 'string';
