// The chat commands every kind of standing order shares (`/alerts …`, `/digest …`): one subcommand table (help, add,
// list, pause, resume, remove, and a kind's own), who may change what (whoever made it, or a workspace or server
// admin), and the replies for a missing number, an unknown one, a refusal and a limit, written once. A kind supplies
// only what differs: how to add one, how one reads in the list, what resuming it means, and its own subcommands.
import type { Logger } from '../log.js';
import { personalTarget, teamOf } from '../ports/channel.js';
import type { OrderChanges } from './changes.js';
import type { Block, Reply } from '../views/model.js';
import { isRefused, orderText, own, parseOrder, type OrderLanguage, type Refused } from './language.js';

/** Who typed, where, and whether they administer it (asked only when a change needs it). */
export interface OrderContext {
  user: string;
  channel: string;
  isAdmin?: () => Promise<boolean>;
}

/** What the core reads of a standing order: its id, its target, its number there, who made it, and whether it is paused. */
export interface OrderRow {
  id: number;
  /** Its target: the channel it posts to, or a person's DMs. */
  channel: string;
  number: number;
  owner: string;
  paused: boolean;
}

/** A subcommand's handler, given its command. */
export type Subcommand<C> = (ctx: OrderContext, command: C) => Promise<Reply>;

type Command = { kind: string; sub: string };

export interface StandingOrderKind<Row extends OrderRow, C extends Command> {
  /** Its command's words, both ways (language.ts): its noun, its chat command, its help, and its own subcommands. */
  language: OrderLanguage<C>;
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
  /** Adds one. */
  add: Subcommand<Extract<C, { sub: 'add' }>>;
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
  /** Subcommands open to everyone on one numbered order (alerts' `test`), named in its language's `inspect`. */
  inspect?: Record<string, (row: Row) => Promise<Reply>>;
  /** The kind's other subcommands, by name, as its language's `extra` names them. */
  extra?: Record<string, Subcommand<C>>;
  /** Those of `extra` that change orders (alerts' `edit`, `quiet`): every owner in the channel is told of them. */
  changing?: readonly string[];
  /** Told after a change to this kind's orders (a view of a person's orders draws itself again); none when unset. */
  changes?: OrderChanges | undefined;
}

export const ephemeral = (text: string): Reply => ({ text, blocks: [{ kind: 'text', text }], ephemeral: true });

/** A private refusal: nothing was saved or changed (Reply.refused). */
export const refusal = (text: string): Reply => ({ ...ephemeral(text), refused: true });

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "This channel has 10 alerts already…": the refusal of a limit, the same words for every kind. */
export function limitReached(
  kind: { noun: string; command: string },
  reason: 'channel' | 'owner',
  limit: number,
): Reply {
  const { noun, command } = kind;
  return refusal(
    reason === 'channel'
      ? `This channel has ${limit} ${noun}s already, the most it can have. Remove one with \`${command} remove <number>\` first (see \`${command} list\`).`
      : `You have ${limit} ${noun}s already, the most one person can have. Remove one with \`${command} remove <number>\` first.`,
  );
}

const CHANGES = ['pause', 'resume', 'remove'];

export class StandingOrderCommands<Row extends OrderRow, C extends Command> {
  constructor(private readonly kind: StandingOrderKind<Row, C>) {}

  /** The text after the command, typed: read into a command (or refused as it is), then run. */
  async handle(ctx: OrderContext, text: string): Promise<Reply> {
    const command = this.parse(text);
    return isRefused(command) ? ephemeral(command.refused) : this.run(ctx, command);
  }

  /** The text after the command as a command, or why it is none (language.ts). */
  parse(text: string): C | Refused {
    return parseOrder(this.kind.language, text);
  }

  /** The command as it is typed (`/alerts pause 2`): what parses back to it. */
  text(command: C): string {
    return orderText(this.kind.language, command);
  }

  /**
   * A command built without text (Discord's options, a form): answered as the typed one is, and a saved one also says
   * the command that would have saved it, so a team learns the typed form.
   */
  async runBuilt(ctx: OrderContext, command: C): Promise<Reply> {
    const reply = await this.run(ctx, command);
    if (command.sub !== 'add' || reply.ephemeral) return reply;
    const typed = `Typed: \`${this.text(command)}\``;
    return { ...reply, text: `${reply.text}\n${typed}`, blocks: [...reply.blocks, { kind: 'context', text: typed }] };
  }

  /** Runs a command, whichever surface it came from. */
  async run(ctx: OrderContext, command: C): Promise<Reply> {
    const { kind } = this;
    const { sub } = command;
    if (sub === 'help') return ephemeral(kind.language.help);
    if (sub === 'add') return kind.add(ctx, command as Extract<C, { sub: 'add' }>);
    if (sub === 'list') return this.list(ctx);
    const extra = own(kind.extra, sub);
    if (extra) {
      const reply = await extra(ctx, command);
      if (kind.changing?.includes(sub)) await this.channelChanged(ctx);
      return reply;
    }
    const { number, to } = command as { number?: number; to?: string };
    return this.manage(ctx, sub, number, to === 'me' && kind.language.personal === true);
  }

  /** Tells the listeners that these owners' orders in the channel's team changed (a kind's save tells it too). */
  changed(channel: string, owners: Iterable<string>): void {
    this.kind.changes?.changed(teamOf(channel), owners);
  }

  /** A change to the whole channel (its quiet hours, a held channel released): every owner there, and the asker. */
  private async channelChanged(ctx: OrderContext): Promise<void> {
    if (!this.kind.changes) return;
    const rows = await this.kind.repo.listByChannel(ctx.channel);
    this.changed(ctx.channel, [ctx.user, ...rows.map((r) => r.owner)]);
  }

  private async list(ctx: OrderContext): Promise<Reply> {
    const { kind } = this;
    const { noun, help } = kind.language;
    const rows = await kind.repo.listByChannel(ctx.channel);
    // The asker's own orders (to their DMs) are listed to them alone: their target names them, so no one else's can be
    // read here.
    const mine = kind.language.personal ? await kind.repo.listByChannel(personalTarget(ctx.channel, ctx.user)) : [];
    if (rows.length === 0 && mine.length === 0) return ephemeral(`No ${noun}s in this channel yet.\n${help}`);
    const notes = (await kind.listNotes?.(ctx, rows)) ?? [];
    const all = [...notes, ...[...rows, ...mine].map((r) => kind.describe(r, ctx))];
    const yours = mine.length > 0 ? `, and ${mine.length} of yours to your direct messages` : '';
    const head = `${capital(noun)}s in this channel (${rows.length})${yours}`;
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

  /** pause, resume, remove, or the kind's inspect (`test`), on the order numbered `number` in this channel. */
  private async manage(ctx: OrderContext, action: string, number: number | undefined, mine = false): Promise<Reply> {
    const { kind } = this;
    const { noun, command } = kind.language;
    // A subcommand its language names but the kind does not run is refused, never taken for another.
    if (!CHANGES.includes(action) && !own(kind.inspect, action))
      return ephemeral(`I don't know "${command} ${action}".\n${kind.language.help}`);
    if (number === undefined) {
      const all = action === 'resume' ? await kind.resumeAll?.(ctx) : undefined;
      if (all) await this.channelChanged(ctx);
      return all ?? ephemeral(`Which ${noun}? Give its number: \`${command} ${action} 2\` (see \`${command} list\`).`);
    }
    // `me 2`: the asker's own order, found in their own target; only they reach it, an admin neither.
    const row = await kind.repo.byNumber(mine ? personalTarget(ctx.channel, ctx.user) : ctx.channel, number);
    if (!row)
      return ephemeral(
        mine
          ? `You have no ${noun} of your own numbered ${number}. See \`${command} list\`.`
          : `There is no ${noun} #${number} in this channel. See \`${command} list\`.`,
      );
    const inspect = own(kind.inspect, action);
    if (inspect) return inspect(row);
    const allowed = mine || row.owner === ctx.user || (await ctx.isAdmin?.().catch(() => false)) === true;
    if (!allowed)
      return ephemeral(
        `Only the person who ${kind.madeVerb} ${noun} #${row.number}, or a workspace or server admin, can ${action} it.`,
      );
    const reply = await this.change(ctx, action, row);
    this.changed(row.channel, [row.owner, ctx.user]);
    return reply;
  }

  private async change(ctx: OrderContext, action: string, row: Row): Promise<Reply> {
    const { kind } = this;
    const { noun } = kind.language;
    switch (action) {
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
