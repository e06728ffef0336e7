// A person's own standing orders as one view (Slack's Home tab draws it), platform-free: each kind lists a person's
// orders of a team as items with their state in words, and a change from the view (pause, resume, remove) is run as
// the typed command on that order would be, with the same rights checks. Changes from any surface are told through
// OrderChanges, to which the view's drawer listens.
import { personIn, teamOf } from '../ports/channel.js';
import type { HomeChange, HomeItem, HomeModel, HomePort, HomeRequest } from '../ports/home.js';
import type { OrderCommand, OrderKind } from '../ports/order-command.js';
import type { Reply } from '../views/model.js';
import type { OrderChanges } from './changes.js';
import { ephemeral, type OrderContext } from './commands.js';

/** What a kind gives the view. */
export interface HomeSource {
  kind: OrderKind;
  /** The person's orders of this kind in the team (theirs in its channels, and their own "to me"), as items. */
  items(team: string, owner: string): Promise<HomeItem[]>;
  /** Where an order is and its number, by id; undefined when there is none of this kind. */
  locate(id: number): Promise<{ channel: string; number: number } | undefined>;
  /** Runs a command as the kind's chat command does (rights checks and replies included). */
  run(ctx: OrderContext, command: OrderCommand): Promise<Reply>;
}

export class OrderHome implements HomePort {
  constructor(
    private readonly sources: readonly HomeSource[],
    private readonly changes: OrderChanges,
  ) {}

  async view(team: string, user: string): Promise<HomeModel> {
    const of = async (kind: OrderKind) => {
      const source = this.sources.find((s) => s.kind === kind);
      return source ? source.items(team, user) : [];
    };
    const [alerts, digests] = await Promise.all([of('alert'), of('digest')]);
    return { alerts, digests };
  }

  async change(req: HomeRequest, kind: OrderKind, id: number, change: HomeChange): Promise<Reply> {
    const source = this.sources.find((s) => s.kind === kind);
    const found = await source?.locate(id);
    const gone = ephemeral(`That ${kind} is gone already.`);
    // An id of another team's order (a button's value crafted elsewhere) is as good as none.
    if (!source || !found || teamOf(found.channel) !== req.team) return gone;
    const person = personIn(found.channel);
    // Someone's "to me" order is theirs alone: reached as `me <n>`, only by them.
    if (person !== undefined && person !== req.user) return gone;
    const ctx: OrderContext = {
      user: req.user,
      channel: found.channel,
      ...(req.isAdmin ? { isAdmin: req.isAdmin } : {}),
    };
    const command = {
      kind,
      sub: change,
      number: found.number,
      ...(person !== undefined ? { to: 'me' as const } : {}),
    } as OrderCommand;
    return source.run(ctx, command);
  }

  onChange(listener: (team: string, owner: string) => void): () => void {
    return this.changes.subscribe(listener);
  }
}
