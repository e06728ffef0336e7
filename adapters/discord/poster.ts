// Alerts and digests reach Discord here: the ChatPoster port, over POST /channels/{id}/messages, each message carrying
// a
// nonce derived from its delivery id with `enforce_nonce: true`, so that a post retried after a crash is not shown
// twice.
// A chart goes in the same request, as a file (multipart) that its embed shows: the upload and the message are one.
import { createHash } from 'node:crypto';
import {
  Routes,
  type REST,
  type RESTPostAPIChannelMessageResult,
  type RESTPostAPICurrentUserCreateDMChannelResult,
} from 'discord.js';
import type { Reply } from '../../src/bot/index.js';
import {
  PostFailure,
  type ChatPoster,
  type CredentialsCheck,
  type LookupRequest,
  type LookupResult,
} from '../../src/ports/index.js';
import { DISCORD_LIMITS as L } from './limits.js';
import { discordOutcome } from './outcomes.js';
import { discordPerson, parseDiscordChannel } from './channel.js';
import { sendWithCharts } from './charts.js';
import type { SendLog } from './send.js';

export { CHART_NOT_ATTACHED } from './charts.js';

/**
 * How long Discord is relied on to dedupe by nonce. Its documentation says "the past few minutes" without a number;
 * three minutes is the part of that we trust.
 */
export const NONCE_WINDOW_MS = 3 * 60_000;

/** The message nonce for a delivery: `m<id>`, hashed when the id is too long for Discord's 25 characters. */
export function deliveryNonce(deliveryId: string): string {
  const plain = `m${deliveryId}`;
  if (plain.length <= L.nonce && /^[\w-]+$/.test(deliveryId)) return plain;
  return `h${createHash('sha256')
    .update(deliveryId)
    .digest('base64url')
    .slice(0, L.nonce - 1)}`;
}

/**
 * A reply to the listing's first card (issue 40), as discord.js's `reply: { messageReference, failIfNotExists: false }`
 * sends it: a card deleted since does not refuse the post, which then stands alone in the channel.
 */
const replyTo = (thread: string | undefined) =>
  thread === undefined ? {} : { message_reference: { message_id: thread, fail_if_not_exists: false } };

export class DiscordPoster implements ChatPoster {
  readonly platform = 'discord';
  /** A lookup needs no waiting: within the nonce window a re-send cannot duplicate, past it nothing can tell. */
  readonly settleMs = 0;
  /** The DM channel of each person written to, as Discord gave it (the same one every time for the pair). */
  private readonly dms = new Map<string, string>();

  /**
   * `rest` is the client's REST manager: its queue honours short 429s by waiting (see discordRestOptions). `token`,
   * when
   * given, is set again before a credentials probe: discord.js drops it after a 401.
   */
  constructor(
    private readonly rest: REST,
    private readonly log: SendLog = () => {},
    private readonly token?: string,
  ) {}

  /**
   * A person's DM channel with the bot (POST /users/@me/channels, what discord.js's `users.createDM` calls), opened
   * once and kept.
   */
  private async dmOf(channel: string, person: string): Promise<string> {
    const known = this.dms.get(channel);
    if (known) return known;
    const dm = (await this.rest.post(Routes.userChannels(), {
      body: { recipient_id: person },
    })) as RESTPostAPICurrentUserCreateDMChannelResult;
    this.dms.set(channel, dm.id);
    return dm.id;
  }

  async post(channel: string, reply: Reply, deliveryId: string): Promise<{ messageId: string }> {
    const person = discordPerson(channel);
    const target = person ? undefined : parseDiscordChannel(channel);
    if (!person && !target) throw new PostFailure('discord: not a Discord channel', 'rejected');
    const nonce = deliveryNonce(deliveryId);
    try {
      const route = Routes.channelMessages(person ? await this.dmOf(channel, person) : target!.channelId);
      // The charts as files in the message's own request: one nonce covers the files and the message. Always embeds:
      // a Components V2 message has no content, so its notification would say nothing (docs/discord.md).
      const message = await sendWithCharts(
        reply,
        (m, files) =>
          this.rest.post(route, {
            body: { ...m, nonce, enforce_nonce: true, ...replyTo(reply.thread) },
            ...(files.length > 0 ? { files: [...files] } : {}),
          }) as Promise<RESTPostAPIChannelMessageResult>,
        this.log,
        'embeds',
      );
      return { messageId: message.id };
    } catch (e) {
      const failure = discordOutcome(e);
      // A person's DM that cannot receive (50007: they block the bot or allow no DMs; 10013: no such user) stays so
      // until they act: the outbox parks it and pauses their alerts, rather than holding a channel and probing it.
      if (person && failure.outcome === 'channel_unavailable') {
        this.dms.delete(channel);
        throw new PostFailure(failure.message, 'recipient_unavailable');
      }
      throw failure;
    }
  }

  /**
   * Discord never returns a message's nonce when messages are read back, so a message cannot be looked for. But
   * re-posting with the same nonce and `enforce_nonce` returns the message already created instead of a second one, for
   * a few minutes: within that window of the earliest attempt that may have posted it (`uncertainSince`, kept by the
   * outbox until the entry is delivered), "absent" is the truthful answer, because the re-send it triggers cannot
   * duplicate. Past it, or when the local clock disagrees with the row's times, Discord cannot tell: re-sent, counted
   * as
   * a possible duplicate.
   */
  async findDelivered(request: LookupRequest): Promise<LookupResult> {
    if (!parseDiscordChannel(request.channel) && !discordPerson(request.channel))
      return { kind: 'cannot_tell', reason: 'discord: not a Discord channel' };
    const { firstAttemptAt, lastAttemptAt, uncertainSince, now } = request;
    if (
      ![firstAttemptAt, lastAttemptAt, uncertainSince, now].every(Number.isFinite) ||
      lastAttemptAt < firstAttemptAt ||
      now < lastAttemptAt ||
      now < uncertainSince
    ) {
      return { kind: 'cannot_tell', reason: 'discord: the local clock disagrees with the delivery’s times' };
    }
    return now - uncertainSince <= NONCE_WINDOW_MS
      ? { kind: 'absent' }
      : { kind: 'cannot_tell', reason: 'discord: past the nonce window' };
  }

  /**
   * GET /users/@me: ok, refused (401), or unreachable. The token is set again first: discord.js drops it after a 401.
   */
  async checkCredentials(): Promise<CredentialsCheck> {
    if (this.token) this.rest.setToken(this.token);
    try {
      await this.rest.get(Routes.user('@me'));
      return { kind: 'ok' };
    } catch (e) {
      const failure = discordOutcome(e);
      return failure.outcome === 'credentials_refused'
        ? { kind: 'refused', reason: failure.message }
        : { kind: 'unreachable', reason: failure.message };
    }
  }
}
