// What the outbox tests share: a chat platform that keeps what was posted (and answers lookups from it, as Slack's
// history with our metadata and Discord's nonces do), a clock the tests move, and entries of a kind alerts render.
import type { NewDelivery } from '../../src/store/index.js';
import { PostFailure, type ChatPoster, type LookupRequest, type LookupResult } from '../../src/ports/index.js';
import type { Reply } from '../../src/views/model.js';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Waits (real time) until `cond` holds, or fails after `ms`. */
export async function until(cond: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('timed out waiting for a condition');
    await sleep(2);
  }
}

/** A clock the test moves; starts at the real time so rows written with the real clock are never in its future. */
export class Clock {
  t = Date.now();
  readonly now = () => this.t;
  advance(ms: number): number {
    this.t += ms;
    return this.t;
  }
}

/**
 * What the platform does with one post: throw a PostFailure, take time (a promise), or post (undefined).
 * `n` counts the attempts in that channel, from 1.
 */
export type Behaviour = (
  channel: string,
  deliveryId: string,
  n: number,
) => PostFailure | Promise<PostFailure | void> | void;

/** A chat platform (the port's edge): what was posted stays posted; a lookup answers from it. */
export class Platform implements ChatPoster {
  readonly posts: { channel: string; deliveryId: string; messageId: string; text: string; at: number }[] = [];
  /** Every post attempt and lookup, in order: `post:<channel>:<deliveryId>`, `look:<channel>:<deliveryId>`. */
  readonly events: string[] = [];
  /** Attempts per channel, refused ones included. */
  readonly attempts = new Map<string, number>();
  behave: Behaviour | undefined;
  settleMs?: number;

  constructor(
    readonly platform = 'test',
    behave?: Behaviour,
  ) {
    this.behave = behave;
  }

  async post(channel: string, reply: Reply, deliveryId: string): Promise<{ messageId: string }> {
    const n = (this.attempts.get(channel) ?? 0) + 1;
    this.attempts.set(channel, n);
    this.events.push(`post:${channel}:${deliveryId}`);
    const outcome = await this.behave?.(channel, deliveryId, n);
    if (outcome instanceof PostFailure) throw outcome;
    const messageId = `m${this.posts.length + 1}`;
    this.posts.push({ channel, deliveryId, messageId, text: reply.text, at: Date.now() });
    return { messageId };
  }

  async findDelivered(r: LookupRequest): Promise<LookupResult> {
    this.events.push(`look:${r.channel}:${r.deliveryId}`);
    const hit = this.posts.find((p) => p.channel === r.channel && p.deliveryId === r.deliveryId);
    return hit ? { kind: 'found', messageId: hit.messageId } : { kind: 'absent' };
  }

  postsIn(channel: string): string[] {
    return this.posts.filter((p) => p.channel === channel).map((p) => p.text);
  }

  timesPosted(deliveryId: string): number {
    return this.posts.filter((p) => p.deliveryId === deliveryId).length;
  }
}

/** An entry alerts can render ("alert is working again"), its text naming `label`; not tied to a saved search. */
export const notice = (channel: string, label: string, searchId: number | null = null): NewDelivery => ({
  channel,
  kind: 'recovered',
  dedupeKey: `test:${channel}:${label}`,
  searchId,
  payload: JSON.stringify({ v: 1, kind: 'recovered', search: { id: searchId ?? 0, number: 1, summary: label } }),
});

/** The label back from a posted notice's text. */
export const labelOf = (text: string): string | undefined => /\(([^)]*)\) is working again/.exec(text)?.[1];

/** Log lines (JSON) whose message matches. */
export const linesMatching = (logs: readonly string[], re: RegExp): string[] => logs.filter((l) => re.test(l));
