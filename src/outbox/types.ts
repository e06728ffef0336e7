// The drainer's options, what it needs, and what one pass reports.
import type { Logger } from '../log.js';
import type { ChatPoster } from '../ports/index.js';
import type { OutboxRepo, OutboxRow } from '../store/index.js';
import type { GateOptions } from './platform-gate.js';
import type { KindRegistry } from './registry.js';

export interface DeliveryOptions {
  /** Retries stop and the entry is parked this long after its first attempt (DELIVERY_GIVE_UP_H). */
  giveUpMs: number;
  /** How long a claim holds before another instance may take the entry over (longer than any post takes). */
  leaseMs?: number;
  /** Spacing of messages in one channel. */
  perChannelIntervalMs?: number;
  baseBackoffMs?: number;
  /** The longest wait between two retries. */
  maxBackoffMs?: number;
  /** A safety cap on attempts, far beyond what the time limit allows. */
  maxAttempts?: number;
  /** A channel that cannot receive is tried again after this long. */
  heldChannelRetryMs?: number;
  /** A look that failed (the platform's 429, a 5xx) is tried again after this long at least. */
  lookupRetryMs?: number;
  /** Entries per channel, and channels, in one claim. */
  perChannel?: number;
  channels?: number;
  /** The paused platform's probes. */
  gate?: GateOptions;
  /**
   * The next post waits while this thread's event loop runs later than this (default 30 ms), so that chat sharing the
   * loop answers first. 0: never (the delivery thread, where no chat waits on the loop).
   */
  holdWhileLateMs?: number;
}

export interface DeliveryDeps {
  outbox: OutboxRepo;
  kinds: KindRegistry;
  posters: readonly ChatPoster[];
  logger: Logger;
  options: DeliveryOptions;
  /** This instance's name on its claims. */
  holder?: string;
  /** Instances whose claims may be taken over at once (their heartbeat lapsed). */
  lapsed?: () => Promise<string[]>;
  now?: () => number;
  /**
   * Before each pass: entries held until now are released (a channel's quiet hours ended), several of a channel folded
   * into one (alerts' quiet hours: src/alerts/summary.ts). Answers how many were queued.
   */
  release?: (at: number) => Promise<number>;
  /** Counters for metrics, optional. */
  onDelivered?: (row: OutboxRow) => void;
  onFailed?: (row: OutboxRow) => void;
  /** A channel was found unable to receive (said once), or can receive again. */
  onChannelHeld?: (channel: string, reason: string) => void;
  /**
   * A person's direct messages refused a post for good (`recipient_unavailable`): their standing orders there are
   * paused with the reason. The entry is already parked.
   */
  onRecipientGone?: (channel: string, reason: string) => Promise<void>;
}

export interface DrainReport {
  delivered: number;
  retried: number;
  /** Parked: given up by time, or refused for good. */
  failed: number;
  recoveredFound: number;
  possibleDuplicates: number;
  /** Looks deferred: too soon after the attempt, or the look itself failed. */
  lookupsDeferred: number;
}

/** A platform's pause state, as /healthz and /metrics show it. */
export interface PlatformStatus {
  platform: string;
  paused: boolean;
  since?: number;
  reason?: string;
}

/**
 * What the rest of the process needs of delivery: the drainer itself when it runs in this thread, or the delivery
 * thread's handle (src/background) when it runs in a thread of its own.
 */
export interface Delivery {
  readonly gate: { isPaused(platform: string): boolean; open(): string[]; status(): PlatformStatus[] };
  /** Delivers everything due now; resolves with what it did. */
  drain(): Promise<DrainReport>;
  /** Keeps delivering in the background. */
  start(): void;
  /** New entries were queued: deliver soon. */
  poke(): void;
  /** Lets posts in flight finish and gives the rest back to the outbox. */
  stop(): Promise<void>;
}
