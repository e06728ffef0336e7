// Alerts and digests reach Discord here: the ChatPoster port, over POST /channels/{id}/messages, each message carrying a
// nonce derived from its delivery id with `enforce_nonce: true`, so that a post retried after a crash is not shown twice.
import { createHash } from 'node:crypto';
import { DiscordAPIError, HTTPError, Routes, type REST, type RESTPostAPIChannelMessageResult } from 'discord.js';
import { PostFailure, type ChatPoster, type Reply } from '../../src/bot/index.js';
import { DISCORD_LIMITS as L } from './limits.js';
import { parseDiscordPlace } from './place.js';
import { describeError, isContentRefusal, sendWithFallback, type SendLog } from './send.js';

/**
 * How long Discord is relied on to dedupe by nonce. Its documentation says "the past few minutes" without a number;
 * three minutes is the part of that we trust.
 */
export const NONCE_WINDOW_MS = 3 * 60_000;

/** Retrying cannot help until a person acts: invite the bot back, give it the channel, fix the token. */
const PERMANENT_CODES = new Set([
  10003, // Unknown Channel
  10004, // Unknown Guild
  50001, // Missing Access
  50007, // Cannot send messages to this user
  50013, // Missing Permissions
  40001, // Unauthorized
]);

/** The message nonce for a delivery: `m<id>`, hashed when the id is too long for Discord's 25 characters. */
export function deliveryNonce(deliveryId: string): string {
  const plain = `m${deliveryId}`;
  if (plain.length <= L.nonce && /^[\w-]+$/.test(deliveryId)) return plain;
  return `h${createHash('sha256').update(deliveryId).digest('base64url').slice(0, L.nonce - 1)}`;
}

/** Any REST failure as a PostFailure, with Discord's code and never a token. */
export function toPostFailure(e: unknown): PostFailure {
  if (e instanceof PostFailure) return e;
  if (e instanceof DiscordAPIError) {
    const permanent = PERMANENT_CODES.has(Number(e.code)) || e.status === 401 || e.status === 403 || e.status === 404 || isContentRefusal(e);
    return new PostFailure(`discord: ${describeError(e)}`, permanent ? { permanent: true } : {});
  }
  // 5xx after discord.js's own retries, a timeout, a reset connection: try again later. It may have been posted: the
  // outbox asks findDelivered first (the nonce makes a re-send within its window safe).
  if (e instanceof HTTPError) return new PostFailure(`discord: HTTP ${e.status}`, { maybeDelivered: true });
  return new PostFailure(`discord: ${describeError(e)}`, { maybeDelivered: true });
}

export class DiscordPoster implements ChatPoster {
  readonly platform = 'discord';

  /**
   * `rest` is the client's REST manager: its queue honours 429s (`X-RateLimit-Reset-After`, global limits) by waiting,
   * so a rate-limited alert is late, never lost. `now` is for tests.
   */
  constructor(
    private readonly rest: REST,
    private readonly log: SendLog = () => {},
    private readonly now: () => number = Date.now,
  ) {}

  async post(place: string, reply: Reply, deliveryId: string): Promise<{ messageId: string }> {
    const target = parseDiscordPlace(place);
    if (!target) throw new PostFailure('discord: not a Discord place', { permanent: true });
    const nonce = deliveryNonce(deliveryId);
    try {
      const message = await sendWithFallback(
        reply,
        (m) => this.rest.post(Routes.channelMessages(target.channelId), { body: { ...m, nonce, enforce_nonce: true } }) as Promise<RESTPostAPIChannelMessageResult>,
        this.log,
      );
      return { messageId: message.id };
    } catch (e) {
      throw toPostFailure(e);
    }
  }

  /**
   * After a crash mid-post. Discord never returns a message's nonce when messages are read back, so the message cannot
   * be looked for. But re-posting with the same nonce and `enforce_nonce` returns the message already created instead of
   * a second one, for a few minutes: within that window, "none" (null) is the truthful answer for the outbox, because
   * the re-send it triggers cannot duplicate. The post that crashed was made after `sinceMs`, so when `sinceMs` is within
   * the window, so is the post. Past it, Discord cannot tell (undefined): re-sent, counted as a possible duplicate.
   */
  async findDelivered(place: string, _deliveryId: string, sinceMs: number): Promise<string | null | undefined> {
    if (!parseDiscordPlace(place)) return undefined;
    return this.now() - sinceMs <= NONCE_WINDOW_MS ? null : undefined;
  }
}
