// The outbox drainer: due entries -> the kind's renderer -> ChatPoster -> marked delivered only after the platform
// said ok, every change under the claim's fencing token. The platform's answer comes as an outcome (its adapter's
// outcome table decides which), and each outcome has one rule here:
// - posted: delivered. retry: backoff, a few minutes apart at most, until DELIVERY_GIVE_UP_H; then parked.
// - maybe posted: looked for on the platform once it has had time to store a slow post, and re-sent only when it is
//   surely not there (or a look is impossible: then counted as a possible duplicate).
// - wait (a rate limit): the channel waits, in order. Channel cannot receive: held, its alerts wait. Credentials
//   refused: the platform is paused and probed. None of these spends an attempt or loses anything.
// - rejected (the message itself, in every plainer form): parked at once.
// One worker per channel, at most one message a second in each; a slow or throttled channel never holds the others.
import type { Logger } from '../log.js';
import { followedSent } from './follow.js';
import { parkEntry } from './park.js';
import { parkEach, recipientGone } from './recipient.js';
import { PostFailure, type ChatPoster, type FailureOutcome, type LookupResult } from '../ports/index.js';
import { INTERRUPTED, type ClaimedEntry } from '../store/index.js';
import { PlatformGate } from './platform-gate.js';
import { lazyChild } from './lazy-logger.js';
import { LoopLag } from './loop-lag.js';
import { backoff, expired } from './timing.js';
import type { Delivery, DeliveryDeps, DrainReport } from './types.js';

export type { DeliveryDeps, DeliveryOptions, DrainReport } from './types.js';

/** What a channel's worker does after one entry: go on, or hold the rest of the channel's queue until a time. */
type Next = { holdUntil?: number; parkRest?: string };

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
/** Event-loop lateness above which posts wait (chat's acknowledgements need the loop). */
const LAG_LIMIT_MS = 30;
/** Channels claimed in one transaction at most. */
const CLAIM_CHANNELS = 100;
/** Workers finishing within this long of each other share one claim. */
const CLAIM_COALESCE_MS = 20;
/** How long after an attempt cut off by a crash or a stop "not there" is trusted. */
const INTERRUPTED_SETTLE_MS = 5_000;
/** Per-channel state idle this long is forgotten (the maps stay bounded). */
const IDLE_MS = 60 * 60_000;

export class OutboxDrainer implements Delivery {
  readonly gate: PlatformGate;
  private readonly holder: string;
  private readonly now: () => number;
  private readonly lastPostAt = new Map<string, number>();
  /** Channels the platform asked us to leave alone (429 Retry-After) until the given time. */
  private readonly heldUntil = new Map<string, number>();
  private lastSweep = 0;
  private readonly lag = new LoopLag();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private again = false;

  constructor(private readonly deps: DeliveryDeps) {
    this.holder = deps.holder ?? `pid-${process.pid}`;
    this.now = deps.now ?? Date.now;
    this.gate = new PlatformGate(deps.posters, deps.logger.child({ part: 'outbox' }), () => this.poke(), {
      ...deps.options.gate,
      now: this.now,
    });
  }

  /** Delivers everything due now (and what becomes due while it works); resolves when nothing is left due. */
  async drain(): Promise<DrainReport> {
    const report: DrainReport = {
      delivered: 0,
      retried: 0,
      failed: 0,
      recoveredFound: 0,
      possibleDuplicates: 0,
      lookupsDeferred: 0,
    };
    this.sweep();
    try {
      await this.deps.release?.(this.now());
    } catch (e) {
      // Held entries stay held, in the database: the next pass releases them.
      this.deps.logger.error('outbox: could not release held entries; the next pass tries again', { error: e });
    }
    this.lag.start();
    try {
      return await this.drainAll(report);
    } finally {
      this.lag.stop();
    }
  }

  private async drainAll(report: DrainReport): Promise<DrainReport> {
    const o = this.deps.options;
    const active = new Map<string, Promise<void>>();
    for (;;) {
      const open = this.stopped ? [] : this.gate.open();
      // At most `channels` channels at once, claimed at most CLAIM_CHANNELS at a time (a claim is one transaction).
      const room = Math.min(CLAIM_CHANNELS, (o.channels ?? 500) - active.size);
      const rows =
        open.length > 0 && room > 0
          ? await this.deps.outbox.claimDue({
              holder: this.holder,
              at: this.now(),
              leaseMs: o.leaseMs ?? 60_000,
              perChannel: o.perChannel ?? 10,
              channels: room,
              platforms: open,
              busy: [...active.keys()],
              lapsed: (await this.deps.lapsed?.()) ?? [],
            })
          : [];
      const byChannel = new Map<string, ClaimedEntry[]>();
      for (const r of rows) byChannel.set(r.channel, [...(byChannel.get(r.channel) ?? []), r]);
      for (const [channel, entries] of byChannel) {
        const worker = this.drainChannel(channel, entries, report)
          .catch(async (e) => {
            this.deps.logger.error('outbox: a channel’s worker failed; its entries go back to the queue', {
              channel,
              error: e,
            });
            await this.deps.outbox.requeue(entries, this.now()).catch((error: unknown) => {
              // Their claims lapse after the lease instead, and another pass takes them.
              this.deps.logger.error('outbox: could not give a failed channel’s entries back', { channel, error });
            });
          })
          .finally(() => active.delete(channel));
        active.set(channel, worker);
      }
      if (active.size === 0) return report;
      // A full claim may have left channels due: claim again at once (up to `channels` channels at a time).
      if (byChannel.size === CLAIM_CHANNELS && active.size < (o.channels ?? 500)) continue;
      // A channel done, or new entries queued (poke): claim again, for any channel that became due; busy ones wait.
      // Channels finishing in the same few milliseconds share one claim (a claim is a transaction over the queue).
      await Promise.race([...active.values(), this.nextWake()]);
      await new Promise((r) => setTimeout(r, CLAIM_COALESCE_MS));
    }
  }

  /** Keeps draining in the background: after each pass, sleeps until the next entry is due or `poke()`. */
  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /**
   * New entries were queued: drain soon (a pass under way claims them at once for the channels it is not busy with).
   */
  poke(): void {
    if (this.stopped) return;
    this.wake?.();
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  private wake: (() => void) | undefined;

  private nextWake(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.wake = () => {
        this.wake = undefined;
        resolve();
      };
    });
  }

  /** Lets posts in flight finish, then gives unfinished claims back so the next start sends them at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.gate.stop();
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    const released = await this.deps.outbox.release(this.holder);
    if (released > 0) this.deps.logger.info('outbox: claims released for the next start', { released });
  }

  private schedule(delayMs: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.drain()
        .then(
          () => undefined,
          (e) => this.deps.logger.error('outbox drain failed', { error: e }),
        )
        .finally(async () => {
          this.running = undefined;
          if (this.stopped) return;
          let next: number | undefined;
          try {
            next = await this.deps.outbox.nextDue(this.gate.open());
          } catch (e) {
            this.deps.logger.error('outbox: could not read when the next entry is due; trying again in 30 s', {
              error: e,
            });
          }
          const wait = this.again ? 0 : next === undefined ? 30_000 : Math.max(0, next - this.now());
          this.again = false;
          this.schedule(Math.min(wait, 30_000));
        });
    }, delayMs);
    this.timer.unref?.();
  }

  /** Forgets per-channel state of channels idle for an hour. */
  private sweep(): void {
    const now = this.now();
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [channel, at] of this.lastPostAt) if (at < now - IDLE_MS) this.lastPostAt.delete(channel);
    for (const [channel, until] of this.heldUntil) if (until < now) this.heldUntil.delete(channel);
  }

  /** Channels with per-channel state (for tests and metrics). */
  trackedChannels = (): number => new Set([...this.lastPostAt.keys(), ...this.heldUntil.keys()]).size;

  private poster(channel: string): ChatPoster | undefined {
    return this.deps.posters.find((p) => channel.startsWith(`${p.platform}:`));
  }

  private async drainChannel(channel: string, entries: ClaimedEntry[], report: DrainReport): Promise<void> {
    const { outbox, options: o } = this.deps;
    const interval = o.perChannelIntervalMs ?? 1_000;
    // Every entry queued here keeps its claim for as long as its turn is away, or another drainer would take it over as
    // abandoned and post it too: one extension for the whole queue, at its start.
    await outbox.extendClaims(entries, this.now() + (entries.length + 1) * interval + (o.leaseMs ?? 60_000));
    for (const [i, entry] of entries.entries()) {
      const rest = entries.slice(i);
      if (this.stopped) return; // stop() gives the claims back
      // The platform rate-limited this channel: the rest of its queue waits too, in order, until Retry-After is over.
      const held = this.heldUntil.get(channel) ?? 0;
      if (held > this.now()) return outbox.requeue(rest, held);
      if (this.gate.isPaused(this.poster(channel)!.platform)) return outbox.requeue(rest, this.now());
      // At most one message per interval in a channel, as Slack asks. Another instance may have posted here just before
      // this claim: its last post, read at the claim, counts too (for an interval at most, should its clock be ahead).
      const last = Math.max(this.lastPostAt.get(channel) ?? 0, entry.channelLastAttemptAt ?? 0);
      const wait = Math.min(interval, last + interval - this.now());
      if (wait > 0) {
        await sleep(wait);
        if (this.stopped) return;
      }
      // Chat comes first: while the loop runs late (the drain itself, a poller's commit), the next post waits a little.
      const late = this.deps.options.holdWhileLateMs ?? LAG_LIMIT_MS;
      for (let k = 0; k < 20 && late > 0 && this.lag.ms > late && !this.stopped; k++) await sleep(this.lag.ms);
      const next = await this.deliver(entry, report);
      if (next.holdUntil !== undefined) return outbox.requeue(entries.slice(i + 1), next.holdUntil);
      // A person who cannot receive now will not until they act: the rest of their queue ends too, unsent.
      const gone = next.parkRest;
      if (gone !== undefined)
        return parkEach(entries.slice(i), (e, log) => this.park(e, gone, report, log), this.deps.logger);
    }
  }

  /** Looks for, then posts, one entry. */
  private async deliver(entry: ClaimedEntry, report: DrainReport): Promise<Next> {
    const { outbox, logger } = this.deps;
    const log = lazyChild(logger, { part: 'outbox', delivery: entry.id, channel: entry.channel, kind: entry.kind });
    const poster = this.poster(entry.channel)!;
    let possibleDuplicate = entry.possibleDuplicate;
    // Rendered before any look: a reply in a thread is looked for in that thread.
    const { reply, error, follows } = await this.deps.kinds.tryRender(entry.kind, entry.payload);
    if (entry.recovered) {
      const look = await this.lookFor(entry, poster, report, log, reply?.thread);
      if (look === 'done') return {};
      if (look === 'cannot_tell') possibleDuplicate = true;
    }
    if (!reply) {
      // A renderer that throws on this payload will throw every time: parked, so the channel's queue goes on.
      await this.park(entry, error ?? 'unreadable payload or unknown kind', report, log);
      return {};
    }
    // An entry that only points to others (a drops line) is posted once one of them was sent, not for what was found.
    if (follows && !(await followedSent(entry, follows, this.deps, report, log, this.now()))) return {};
    // In flight from here: only this entry, so that a crash leaves exactly one entry to look for on the platform.
    const at = this.now();
    if (!(await outbox.markPosting(entry.id, entry.token, at, at + (this.deps.options.leaseMs ?? 60_000)))) {
      log.warn(
        'outbox entry no longer claimed by this instance (its claim ran out); left to the instance that took it',
      );
      return {};
    }
    this.lastPostAt.set(entry.channel, at);
    try {
      const { messageId } = await poster.post(entry.channel, reply, entry.deliveryId);
      if (!(await this.markDelivered(entry, messageId, possibleDuplicate))) {
        log.warn('posted, but another instance had taken the entry over meanwhile: recorded by it, not here');
        return {};
      }
      report.delivered++;
      this.deps.onDelivered?.(entry);
      if (await outbox.releaseChannel(entry.channel)) {
        log.info('the channel receives messages again: its alerts resume');
        this.deps.onChannelHeld?.(entry.channel, '');
      }
      return {};
    } catch (e) {
      const failure =
        e instanceof PostFailure ? e : new PostFailure(e instanceof Error ? e.message : String(e), 'maybe_posted');
      return this.failed(
        entry,
        { ...entry, firstAttemptAt: entry.firstAttemptAt ?? at },
        failure,
        possibleDuplicate,
        report,
        log,
      );
    }
  }

  /**
   * Before an entry that may be on the platform is sent again: 'done' when it was found (delivered) or the look must
   * wait (requeued); 'send' when it is surely not there; 'cannot_tell' when a look cannot answer (sent, counted).
   */
  private async lookFor(
    entry: ClaimedEntry,
    poster: ChatPoster,
    report: DrainReport,
    log: Logger,
    thread: string | undefined,
  ): Promise<'done' | 'send' | 'cannot_tell'> {
    const { outbox, options: o } = this.deps;
    const now = this.now();
    const look: LookupResult = poster.findDelivered
      ? await poster
          .findDelivered({
            channel: entry.channel,
            deliveryId: entry.deliveryId,
            now,
            firstAttemptAt: entry.firstAttemptAt ?? entry.createdAt,
            lastAttemptAt: entry.lastAttemptAt ?? entry.createdAt,
            uncertainSince: entry.uncertainSince ?? entry.firstAttemptAt ?? entry.createdAt,
            ...(thread === undefined ? {} : { thread }),
          })
          .catch((e: unknown) => ({ kind: 'failed' as const, reason: e instanceof Error ? e.message : String(e) }))
      : { kind: 'cannot_tell', reason: 'this platform cannot look for a message' };
    switch (look.kind) {
      case 'found':
        if (await this.markDelivered(entry, look.messageId, entry.possibleDuplicate)) {
          report.recoveredFound++;
          this.deps.onDelivered?.(entry);
          log.info('delivery found already posted (an attempt that got no answer, or a restart); not sent again');
        }
        return 'done';
      case 'absent': {
        // A slow platform may not have stored the post yet: "not there" is trusted only once it has had time to (a look
        // that finds it is trusted at once). A post cut off at our end by a crash or a stop was cut while Slack was
        // answering normally, so seconds are enough; one that timed out on a slow platform gets its full settle time.
        const settle = entry.interrupted
          ? Math.min(poster.settleMs ?? 0, INTERRUPTED_SETTLE_MS)
          : (poster.settleMs ?? 0);
        const settleAt = (entry.lastAttemptAt ?? 0) + settle;
        if (now >= settleAt) return 'send';
        // The reason stays as it was (INTERRUPTED above all: the next look keeps the short settle time of a crash).
        const error = entry.interrupted
          ? INTERRUPTED
          : (entry.lastError ?? 'waiting to look again for an earlier attempt');
        await outbox.markFailed(entry.id, entry.token, {
          error,
          retryAt: settleAt,
          spendAttempt: false,
          maybeDelivered: true,
        });
        report.lookupsDeferred++;
        return 'done';
      }
      case 'cannot_tell':
        report.possibleDuplicates++;
        log.warn(
          'an earlier attempt may have posted this and the platform cannot tell: sending again, counted as a possible duplicate',
          { reason: look.reason },
        );
        return 'cannot_tell';
      case 'failed': {
        // Nothing is sent on a look that could not answer: the entry keeps its flag and spends no attempt.
        report.lookupsDeferred++;
        // Looks back off too: 30 s at first, growing with the time since the attempt, at most 5 minutes apart.
        const backoff = Math.min(
          o.maxBackoffMs ?? 5 * 60_000,
          Math.max(o.lookupRetryMs ?? 30_000, (now - (entry.lastAttemptAt ?? now)) / 4),
        );
        const retryAt = this.now() + Math.max(look.retryAfterMs ?? 0, backoff);
        if (expired(entry, this.now(), this.deps.options.giveUpMs))
          await this.park(entry, `could not look for an earlier attempt: ${look.reason}`, report, log);
        else
          await outbox.markFailed(entry.id, entry.token, {
            error: `look failed: ${look.reason}`,
            retryAt,
            spendAttempt: false,
            maybeDelivered: true,
          });
        log.warn('could not look for an earlier attempt; the entry waits and is looked for again', {
          reason: look.reason,
          retryInMs: retryAt - this.now(),
        });
        return 'done';
      }
    }
  }

  private async failed(
    entry: ClaimedEntry,
    timed: ClaimedEntry,
    failure: PostFailure,
    possibleDuplicate: boolean,
    report: DrainReport,
    log: Logger,
  ): Promise<Next> {
    const { outbox, options: o } = this.deps;
    const now = this.now();
    const outcome: FailureOutcome = failure.outcome;
    const base = { error: failure.message, possibleDuplicate };
    switch (outcome) {
      case 'wait': {
        const until = now + (failure.retryAfterMs ?? 30_000);
        this.heldUntil.set(entry.channel, until);
        await outbox.markFailed(entry.id, entry.token, { ...base, retryAt: until, spendAttempt: false });
        log.warn('the platform is rate-limiting this channel; its queue waits', { retryAfterMs: until - now });
        return { holdUntil: until };
      }
      case 'credentials_refused': {
        await outbox.markFailed(entry.id, entry.token, { ...base, retryAt: now, spendAttempt: false });
        this.gate.pause(this.poster(entry.channel)!.platform, failure.message);
        return { holdUntil: now };
      }
      case 'channel_unavailable': {
        if (expired(timed, this.now(), this.deps.options.giveUpMs)) {
          await this.park(entry, failure.message, report, log);
          return {};
        }
        const retryAt = now + (o.heldChannelRetryMs ?? 15 * 60_000);
        await outbox.markFailed(entry.id, entry.token, { ...base, retryAt, spendAttempt: false });
        if (await outbox.holdChannel(entry.channel, failure.message, now, retryAt)) {
          log.warn(
            'this channel cannot receive messages: its queue is held and its alerts wait until it can (nothing is lost)',
            { error: failure.message },
          );
          this.deps.onChannelHeld?.(entry.channel, failure.message);
        }
        return { holdUntil: retryAt };
      }
      case 'rejected':
        await this.park(entry, failure.message, report, log);
        return {};
      case 'recipient_unavailable':
        await recipientGone(this.deps, entry.channel, failure.message, log);
        return { parkRest: failure.message };
      case 'retry':
      case 'maybe_posted': {
        const attempts = entry.attempts + 1;
        if (expired(timed, this.now(), this.deps.options.giveUpMs) || attempts >= (o.maxAttempts ?? 10_000)) {
          await this.park(entry, failure.message, report, log);
          return {};
        }
        const maybe = outcome === 'maybe_posted';
        const retryAt =
          now + Math.max(backoff(attempts, this.deps.options), maybe ? (this.poster(entry.channel)?.settleMs ?? 0) : 0);
        await outbox.markFailed(entry.id, entry.token, { ...base, retryAt, maybeDelivered: maybe });
        report.retried++;
        log.warn('delivery failed; will retry', {
          attempts,
          retryInMs: retryAt - now,
          error: failure.message,
          maybePosted: maybe,
        });
        return {};
      }
    }
  }

  /** Delivered, as `messageId`; a listing's first card keeps where it landed with it (its kind says). */
  private markDelivered(entry: ClaimedEntry, messageId: string, possibleDuplicate: boolean): Promise<boolean> {
    const root = this.deps.kinds.isThreadRoot(entry.kind);
    return this.deps.outbox.markDelivered(entry.id, entry.token, messageId, this.now(), possibleDuplicate, root);
  }

  private park(entry: ClaimedEntry, error: string, report: DrainReport, log: Logger): Promise<void> {
    return parkEntry(this.deps, entry, error, report, log);
  }
}
