// The outbox drainer: pending deliveries -> ChatPoster -> marked delivered only after the platform said ok.
// A batch is claimed (`claimed`), and each entry is marked `sending` right before its own post, so a crash mid-post
// leaves a trace on that entry only: the next start asks the platform whether the message exists (Slack metadata)
// before sending it again, or re-sends and counts a possible duplicate where the platform cannot tell. A post that
// failed in a way that may have posted it all the same (a timeout, a 5xx) is asked about the same way before its
// retry. One queue per channel, at most one message a second in each; a platform 429 holds the whole channel until
// its Retry-After has passed, in order.
import type { ChatPoster } from '../bot/types.js';
import { PostFailure } from '../bot/types.js';
import type { Logger } from '../log.js';
import type { AlertsRepo, OutboxRow } from '../store/index.js';
import type { Reply } from '../views/model.js';
import { decodePayload, renderDelivery, type AlertButtons } from './messages.js';

export interface DeliveryOptions {
  maxAttempts: number;
  /** How long a claim holds before another start may take the entry over (longer than any post takes). */
  leaseMs?: number;
  /** Spacing of messages in one channel. */
  perPlaceIntervalMs?: number;
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  /** Entries taken per pass. */
  batch?: number;
}

export interface DeliveryDeps {
  repo: AlertsRepo;
  posters: readonly ChatPoster[];
  logger: Logger;
  options: DeliveryOptions;
  buttons?: AlertButtons;
  /** This instance's name on its claims. */
  holder?: string;
  now?: () => number;
  /** Counters for metrics, optional. */
  onDelivered?: (row: OutboxRow) => void;
  onFailed?: (row: OutboxRow) => void;
}

export interface DrainReport {
  delivered: number;
  retried: number;
  failed: number;
  recoveredFound: number;
  possibleDuplicates: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class OutboxDrainer {
  private readonly holder: string;
  private readonly now: () => number;
  private readonly lastPostAt = new Map<string, number>();
  /** Channels the platform asked us to leave alone (429 Retry-After) until the given time. */
  private readonly heldUntil = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private again = false;

  constructor(private readonly deps: DeliveryDeps) {
    this.holder = deps.holder ?? `pid-${process.pid}`;
    this.now = deps.now ?? Date.now;
  }

  private get platforms(): string[] {
    return this.deps.posters.map((p) => p.platform);
  }

  /** Delivers everything due now (and what becomes due while it works); resolves when nothing is left due. */
  async drain(): Promise<DrainReport> {
    const report: DrainReport = { delivered: 0, retried: 0, failed: 0, recoveredFound: 0, possibleDuplicates: 0 };
    if (this.platforms.length === 0) return report;
    const o = this.deps.options;
    for (;;) {
      if (this.stopped) return report;
      const rows = this.deps.repo.claimDue(this.holder, this.now(), o.leaseMs ?? 60_000, o.batch ?? 200, this.platforms);
      if (rows.length === 0) return report;
      const byPlace = new Map<string, typeof rows>();
      for (const r of rows) byPlace.set(r.place, [...(byPlace.get(r.place) ?? []), r]);
      await Promise.all([...byPlace.entries()].map(([place, entries]) => this.drainPlace(place, entries, report)));
    }
  }

  /** Keeps draining in the background: after each pass, sleeps until the next entry is due or `poke()`. */
  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** New entries were queued: drain soon. */
  poke(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  /** Lets posts in flight finish, then gives unfinished claims back so the next start sends them at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    const released = this.deps.repo.release(this.holder);
    if (released > 0) this.deps.logger.info('outbox: claims released for the next start', { released });
  }

  private schedule(delayMs: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.drain()
        .then(() => undefined, (e) => this.deps.logger.error('outbox drain failed', { error: e }))
        .finally(() => {
          this.running = undefined;
          if (this.stopped) return;
          const next = this.deps.repo.nextDue(this.platforms);
          const wait = this.again ? 0 : next === undefined ? 30_000 : Math.max(0, next - this.now());
          this.again = false;
          this.schedule(Math.min(wait, 30_000));
        });
    }, delayMs);
    this.timer.unref?.();
  }

  private poster(place: string): ChatPoster | undefined {
    return this.deps.posters.find((p) => place.startsWith(`${p.platform}:`));
  }

  private async drainPlace(place: string, entries: (OutboxRow & { recovered: boolean })[], report: DrainReport): Promise<void> {
    const o = this.deps.options;
    const interval = o.perPlaceIntervalMs ?? 1_000;
    for (const [i, entry] of entries.entries()) {
      if (this.stopped) return;
      // The platform rate-limited this channel: the rest of its queue waits too, in order, until Retry-After is over.
      const held = this.heldUntil.get(place) ?? 0;
      if (held > this.now()) {
        this.deps.repo.requeue(entries.slice(i).map((e) => e.id), this.holder, held);
        return;
      }
      // At most one message per interval in a channel, as Slack asks. Every entry still queued here keeps its claim
      // for as long as its turn is away, or another drainer would take it over as abandoned and post it too.
      const wait = (this.lastPostAt.get(place) ?? 0) + interval - this.now();
      if (wait > 0) {
        entries.slice(i).forEach((queued, k) => this.deps.repo.extendClaim(queued.id, this.holder, this.now() + wait + k * interval + (o.leaseMs ?? 60_000)));
        await sleep(wait);
      }
      const retryAfterMs = await this.deliver(entry, report);
      if (retryAfterMs !== undefined) {
        const until = this.now() + retryAfterMs;
        this.heldUntil.set(place, until);
        this.deps.repo.requeue(entries.slice(i + 1).map((e) => e.id), this.holder, until);
        this.deps.logger.warn('outbox: the platform is rate-limiting this channel; its queue waits', { place, retryAfterMs, waiting: entries.length - i });
        return;
      }
    }
  }

  /** Posts one entry; returns the platform's Retry-After when it refused with a rate limit (the channel then waits). */
  private async deliver(entry: OutboxRow & { recovered: boolean }, report: DrainReport): Promise<number | undefined> {
    const { repo, logger } = this.deps;
    const log = logger.child({ part: 'outbox', delivery: entry.id, place: entry.place, kind: entry.kind });
    const poster = this.poster(entry.place)!;
    const deliveryId = String(entry.id);
    let possibleDuplicate = false;
    if (entry.recovered) {
      // It was being posted when the process stopped, or its last post timed out: the platform may already show it.
      const found = poster.findDelivered ? await poster.findDelivered(entry.place, deliveryId, entry.createdAt - 60_000).catch(() => undefined) : undefined;
      if (typeof found === 'string') {
        repo.markDelivered(entry.id, found, this.now());
        report.recoveredFound++;
        log.info('delivery found already posted (after a restart or a post that got no answer); not sent again');
        return;
      }
      possibleDuplicate = found === undefined;
      if (possibleDuplicate) {
        report.possibleDuplicates++;
        log.warn('delivery interrupted (a restart or a post that got no answer) and the platform cannot tell whether it arrived: sending again, counted as a possible duplicate');
      }
    }
    const payload = decodePayload(entry.payload);
    if (!payload) {
      repo.markFailed(entry.id, 'unreadable payload');
      report.failed++;
      log.error('outbox entry has a payload this release cannot read; parked as failed');
      return undefined;
    }
    const reply: Reply = renderDelivery(payload, this.deps.buttons);
    // In flight from here: only this entry, so that a crash leaves exactly one entry to look for on the platform.
    if (!repo.markPosting(entry.id, this.holder, this.now() + (this.deps.options.leaseMs ?? 60_000))) {
      log.warn('outbox entry no longer claimed by this instance (its claim ran out); left to the instance that took it');
      return undefined;
    }
    this.lastPostAt.set(entry.place, this.now());
    try {
      const { messageId } = await poster.post(entry.place, reply, deliveryId);
      repo.markDelivered(entry.id, messageId, this.now(), possibleDuplicate);
      report.delivered++;
      this.deps.onDelivered?.(entry);
    } catch (e) {
      const failure = e instanceof PostFailure ? e : new PostFailure((e as Error)?.message ?? String(e));
      // A rate limit is the platform saying "not now": it spends no attempt, so throttling never parks an alert.
      const rateLimited = failure.options.retryAfterMs !== undefined && !failure.options.permanent;
      const attempts = rateLimited ? entry.attempts : entry.attempts + 1;
      const spent = !rateLimited && (failure.options.permanent || attempts >= this.deps.options.maxAttempts);
      const retryAt = spent ? undefined : this.now() + (failure.options.retryAfterMs ?? this.backoff(attempts));
      // A failure that is not the platform's own refusal may have posted it: ask before the retry.
      const maybeDelivered = e instanceof PostFailure ? failure.options.maybeDelivered === true : true;
      const row = repo.markFailed(entry.id, failure.message, { retryAt, possibleDuplicate, maybeDelivered, rateLimited });
      if (spent) {
        report.failed++;
        log.error('delivery failed for good; parked as failed', { attempts, error: failure.message, permanent: Boolean(failure.options.permanent) });
        if (row) this.deps.onFailed?.(row);
      } else {
        report.retried++;
        log.warn('delivery failed; will retry', { attempts, retryInMs: retryAt! - this.now(), error: failure.message, maybeDelivered });
      }
      return spent ? undefined : failure.options.retryAfterMs;
    }
    return undefined;
  }

  private backoff(attempts: number): number {
    const o = this.deps.options;
    const ceiling = Math.min(o.maxBackoffMs ?? 15 * 60_000, (o.baseBackoffMs ?? 2_000) * 2 ** (attempts - 1));
    return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
  }
}
