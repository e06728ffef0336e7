// One instance at a time in a role that must not run twice (the Discord gateway: one bot token, one connection): the
// instance holding a fenced lease leads; the others stand by and take over within seconds of its stop or its death
// (its lease expires, or its heartbeat lapses and it is taken over at once).
import type { Logger } from '../log.js';
import type { Fence, LeaseRepo } from '../store/index.js';

export interface LeadershipOptions {
  leases: Pick<LeaseRepo, 'acquire' | 'renew' | 'finish'>;
  /** The role's lease: `discord-gateway`. */
  name: string;
  holder: string;
  /** Instances gone (their heartbeat lapsed): a lease they hold is taken over at once. */
  lapsed: () => Promise<string[]>;
  /** Takes the role up (connects); a failure gives the lease back and is tried again. */
  lead: () => Promise<void>;
  /** Lays the role down (disconnects): another instance took it over, or this one stops. */
  standDown: () => Promise<void>;
  logger: Logger;
  /** How long the lease holds unrenewed, and how often it is renewed or sought. */
  ttlMs?: number;
  everyMs?: number;
  now?: () => number;
}

export class Leadership {
  private fence: Fence | undefined;
  private timer: NodeJS.Timeout | undefined;
  private turn: Promise<void> = Promise.resolve();
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(private readonly o: LeadershipOptions) {
    this.ttlMs = o.ttlMs ?? 15_000;
    this.now = o.now ?? Date.now;
  }

  get leading(): boolean {
    return this.fence !== undefined;
  }

  /**
   * Seeks the role once (a failure to take it up, a wrong token say, rejects: the start fails as it would without
   * leadership), then keeps renewing or seeking it. Resolves whether this instance leads.
   */
  async start(): Promise<boolean> {
    await this.seek(true);
    this.timer = setInterval(() => void this.step(), this.o.everyMs ?? 3_000);
    this.timer.unref();
    return this.leading;
  }

  private step(): Promise<void> {
    // One turn at a time: a slow login never overlaps the next renewal.
    this.turn = this.turn.then(() => (this.fence ? this.renew() : this.seek(false)));
    return this.turn;
  }

  private async seek(first: boolean): Promise<void> {
    const fence = await this.o.leases.acquire(
      this.o.name,
      this.o.holder,
      this.now(),
      this.ttlMs,
      await this.o.lapsed(),
    );
    if (!fence) {
      if (first) this.o.logger.info('another instance leads; standing by to take over', { role: this.o.name });
      return;
    }
    try {
      await this.o.lead();
      this.fence = fence;
      this.o.logger.info('leading', { role: this.o.name });
    } catch (e) {
      await this.o.leases.finish(fence, undefined);
      if (first) throw e;
      this.o.logger.error('could not take the role up; trying again', { role: this.o.name, error: e });
    }
  }

  private async renew(): Promise<void> {
    if (await this.o.leases.renew(this.fence!, this.now(), this.ttlMs)) return;
    // Taken over (this instance stalled past its lease): the other leads now.
    this.fence = undefined;
    this.o.logger.warn('the role was taken over by another instance; standing down', { role: this.o.name });
    await this.o
      .standDown()
      .catch((e: unknown) => this.o.logger.error('standing down failed', { role: this.o.name, error: e }));
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.turn;
    const fence = this.fence;
    this.fence = undefined;
    if (fence) {
      await this.o.standDown();
      // Given back at once: a standing-by instance takes over at its next turn, not after the lease expires.
      await this.o.leases.finish(fence, undefined);
    }
  }
}
