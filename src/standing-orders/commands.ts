// The chat commands every kind of standing order shares (`/alerts …`, `/digest …`): one subcommand table (help, add,
// list, pause, resume, remove, and a kind's own), who may change what (whoever made it, or a workspace or server
// admin), and the replies for a missing number, an unknown one, a refusal and a limit, written once. A kind supplies
// only what differs: how to add one, how one reads in the list, what resuming it means, and its own subcommands.
import type { Logger } from '../log.js';
import type { Block, Reply } from '../views/model.js';

/** Who typed, where, and whether they administer it (asked only when a change needs it). */
export interface OrderContext {
  user: string;
  channel: string;
  isAdmin?: () => Promise<boolean>;
}

/** What the core reads of a standing order: its id, its number in its channel, who made it, and whether it is paused. */
export interface OrderRow {
  id: number;
  number: number;
  owner: string;
  paused: boolean;
}

/** A subcommand's handler, given the text after it. */
export type Subcommand = (ctx: OrderContext, arg: string) => Promise<Reply>;

export interface StandingOrderKind<Row extends OrderRow> {
  /** One of it, in replies: 'alert', 'digest'. */
  noun: string;
  /** The chat command: '/alerts', '/digest'. */
  command: string;
  /** The help text, shown for `help`, an empty command, an unknown subcommand and an empty list. */
  help: string;
  /** How one came to be, in a refusal: 'saved' ("Only the person who saved alert #2…"), 'added'. */
  madeVerb: string;
  /** The key of its id in the log ('search', 'digest'). */
  logKey: string;
  /** What the core reads and changes of its rows. */
  repo: {
    listByChannel(channel: string): Promise<Row[]>;
    byNumber(channel: string, number: number): Promise<Row | undefined>;
    setPaused(id: number, paused: boolean): Promise<void>;
    remove(id: number): Promise<void>;
  };
  logger: Logger;
  /** The words that add one (`add` first) and how. */
  add: { aliases: readonly string[]; run: Subcommand };
  /** One line of `list`. */
  describe(row: Row, ctx: OrderContext): string;
  /** Lines above the list (a held channel, a spent share), when any. */
  listNotes?(ctx: OrderContext, rows: readonly Row[]): Promise<string[]>;
  /** The context line under the list. */
  listFooter: string;
  /** The reply once paused. */
  paused(row: Row): string;
  /** Resumes a paused one (or says why it cannot): the kind writes what resuming means for it. */
  resume(row: Row): Promise<Reply>;
  /** What names it in "Removed alert #2 (…)". */
  title(row: Row): string;
  /** `resume` with no number: the kind's own meaning, when it has one (undefined: ask for the number). */
  resumeAll?(ctx: OrderContext): Promise<Reply | undefined>;
  /** Subcommands open to everyone on one numbered order (alerts' `test`). */
  inspect?: Record<string, (row: Row) => Promise<Reply>>;
  /** The kind's other subcommands, by name. */
  extra?: Record<string, Subcommand>;
}

export const ephemeral = (text: string): Reply => ({ text, blocks: [{ kind: 'text', text }], ephemeral: true });

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "This channel has 10 alerts already…": the refusal of a limit, the same words for every kind. */
export function limitReached(
  kind: Pick<StandingOrderKind<OrderRow>, 'noun' | 'command'>,
  reason: 'channel' | 'owner',
  limit: number,
): Reply {
  const { noun, command } = kind;
  return ephemeral(
    reason === 'channel'
      ? `This channel has ${limit} ${noun}s already, the most it can have. Remove one with \`${command} remove <number>\` first (see \`${command} list\`).`
      : `You have ${limit} ${noun}s already, the most one person can have. Remove one with \`${command} remove <number>\` first.`,
  );
}

const CHANGES = ['pause', 'resume', 'remove', 'delete', 'rm'];

/** A kind's subcommand by the word typed: its own entries only (`constructor` is no subcommand). */
const own = <T>(table: Record<string, T> | undefined, word: string): T | undefined =>
  table && Object.hasOwn(table, word) ? table[word] : undefined;

export class StandingOrderCommands<Row extends OrderRow> {
  constructor(private readonly kind: StandingOrderKind<Row>) {}

  /** The text after the command: a subcommand and its argument. */
  async handle(ctx: OrderContext, text: string): Promise<Reply> {
    const { kind } = this;
    const [word = '', ...rest] = text.trim().split(/\s+/).filter(Boolean);
    const arg = rest.join(' ');
    const sub = word.toLowerCase();
    if (sub === '' || sub === 'help') return ephemeral(kind.help);
    if (kind.add.aliases.includes(sub)) return kind.add.run(ctx, arg);
    if (sub === 'list' || sub === 'ls') return this.list(ctx);
    if (CHANGES.includes(sub) || own(kind.inspect, sub)) return this.manage(ctx, sub, arg);
    const extra = own(kind.extra, sub);
    if (extra) return extra(ctx, arg);
    return ephemeral(`I don't know "${kind.command} ${word}".\n${kind.help}`);
  }

  private async list(ctx: OrderContext): Promise<Reply> {
    const { kind } = this;
    const rows = await kind.repo.listByChannel(ctx.channel);
    if (rows.length === 0) return ephemeral(`No ${kind.noun}s in this channel yet.\n${kind.help}`);
    const notes = (await kind.listNotes?.(ctx, rows)) ?? [];
    const all = [...notes, ...rows.map((r) => kind.describe(r, ctx))];
    const head = `${capital(kind.noun)}s in this channel (${rows.length})`;
    return {
      text: `${head}:\n${all.join('\n')}`,
      blocks: [
        { kind: 'header', text: head },
        ...all.map((t): Block => ({ kind: 'text', text: t })),
        { kind: 'context', text: kind.listFooter },
      ],
      ephemeral: true,
    };
  }

  private async manage(ctx: OrderContext, action: string, arg: string): Promise<Reply> {
    const { kind } = this;
    if (action === 'resume' && arg.trim() === '') {
      const all = await kind.resumeAll?.(ctx);
      if (all) return all;
    }
    const { noun, command } = kind;
    const m = /^#?(\d{1,6})$/.exec(arg.trim());
    if (!m) return ephemeral(`Which ${noun}? Give its number: \`${command} ${action} 2\` (see \`${command} list\`).`);
    const row = await kind.repo.byNumber(ctx.channel, Number(m[1]));
    if (!row) return ephemeral(`There is no ${noun} #${m[1]} in this channel. See \`${command} list\`.`);
    const inspect = own(kind.inspect, action);
    if (inspect) return inspect(row);
    const verb = action === 'rm' || action === 'delete' ? 'remove' : action;
    const allowed = row.owner === ctx.user || (await ctx.isAdmin?.().catch(() => false)) === true;
    if (!allowed)
      return ephemeral(
        `Only the person who ${kind.madeVerb} ${noun} #${row.number}, or a workspace or server admin, can ${verb} it.`,
      );
    switch (verb) {
      case 'pause':
        if (row.paused) return ephemeral(`${capital(noun)} #${row.number} is already paused.`);
        await kind.repo.setPaused(row.id, true);
        return ephemeral(kind.paused(row));
      case 'resume':
        if (!row.paused) return ephemeral(`${capital(noun)} #${row.number} is not paused.`);
        return kind.resume(row);
      default:
        await kind.repo.remove(row.id);
        kind.logger.info(`${noun} removed`, { [kind.logKey]: row.id, channel: ctx.channel, user: ctx.user });
        return ephemeral(`Removed ${noun} #${row.number} (${kind.title(row)}).`);
    }
  }
}
