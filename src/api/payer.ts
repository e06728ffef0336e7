// Who a call is made for: the teams (a Slack workspace, a Discord server: `slack:T123`) whose request, searches or
// digest it serves, and whether a person is waiting for it. Carried through the async calls of one request or one
// query's fetch (AsyncLocalStorage), so that the client can count each team's spend and ask whether it may spend more
// without every layer between the bot and the client passing it along.
import { AsyncLocalStorage } from 'node:async_hooks';

export interface Payer {
  teams: readonly string[];
  /** 'chat': a person waits (chat lookups keep a reserve); 'background': the poller, digests. */
  purpose: 'chat' | 'background';
  /**
   * The person asking, when their team is a pool of strangers (Discord's direct messages): their calls are counted
   * apart too (`discord:@me:U1`), and held to their part of the pool's share, so that a new account mints no new share.
   */
  person?: string;
}

const context = new AsyncLocalStorage<Payer>();

/** Runs `work` with its calls made for `payer`. */
export const payingFor = <T>(payer: Payer, work: () => T): T => context.run(payer, work);

/** Who the call being made now is for; undefined outside any (start-up, maintenance). */
export const currentPayer = (): Payer | undefined => context.getStore();

/** A team's share of the month is spent (or the month's reserve for chat is reached): the call is not sent. */
export interface ShareRefusal {
  reason: string;
  /** Whose share is spent: the team's (the default), or the asking person's part of a shared pool's. */
  of?: 'team' | 'person';
  /** Seconds until the share renews (the next UTC month). */
  retryAfterSeconds: number;
}
