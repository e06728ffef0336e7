// This instance's heartbeat in the database. Another instance (or this one's successor after a crash) takes over the
// claims of an instance whose heartbeat lapsed at once, instead of waiting out their lease.
import { hostname } from 'node:os';
import type { InstanceInfo, LeaseRepo } from '../store/index.js';

/** How often the heartbeat is written, and after how long without one an instance counts as gone. */
export const HEARTBEAT_MS = 5_000;
export const LAPSE_MS = 15_000;

/** When this process started (the same in each of its threads): instances of this pid from before it are gone. */
const PROCESS_STARTED_AT = Date.now() - Math.ceil(process.uptime() * 1000);

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

export class Heartbeat {
  readonly self: InstanceInfo;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly leases: Pick<LeaseRepo, 'heartbeat' | 'lapsed' | 'forget' | 'markGone'>,
    id: string,
    private readonly now: () => number = Date.now,
  ) {
    this.self = { id, host: hostname(), pid: process.pid };
  }

  async beat(): Promise<void> {
    await this.leases.heartbeat(this.self, this.now());
  }

  async start(): Promise<void> {
    await this.beat();
    // Instances gone for a day are forgotten (their claims were taken over long ago).
    await this.leases.forget({ olderThan: this.now() - 86_400_000 });
    this.timer = setInterval(() => {
      this.beat().catch(() => {
        // The database is closing (a stop) or briefly busy: the next beat tries again; a lapse only hands claims over.
      });
    }, HEARTBEAT_MS);
    this.timer.unref();
  }

  /** The instances whose claims may be taken over now. */
  lapsed(): Promise<string[]> {
    return this.leases.lapsed(this.self, this.now(), LAPSE_MS, alive, PROCESS_STARTED_AT);
  }

  /**
   * Another instance of this process known to be gone (its delivery thread died): its claims are taken over at once.
   */
  async markGone(id: string): Promise<void> {
    // Lapsed, not a day old: instances gone for a day are forgotten, and then their claims would wait out their lease.
    await this.leases.markGone(id, this.now() - LAPSE_MS - 1);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.leases.forget([this.self.id]);
  }
}
