// Platforms whose credentials were refused (`invalid_auth`, a revoked token, Discord 401): paused as a whole, not
// message by message. A paused platform is probed with backoff and resumes on its own when the credentials work again
// (a token fixed without a restart, or after one). One log line at the pause and one at the resume.
import type { Logger } from '../log.js';
import type { ChatPoster } from '../ports/index.js';

export interface GateOptions {
  /** First probe after this long, doubling up to maxProbeMs. */
  firstProbeMs?: number;
  maxProbeMs?: number;
  now?: () => number;
}

interface Paused {
  since: number;
  reason: string;
  timer: NodeJS.Timeout | undefined;
  delayMs: number;
}

export class PlatformGate {
  private readonly paused = new Map<string, Paused>();
  private stopped = false;

  constructor(
    private readonly posters: readonly ChatPoster[],
    private readonly logger: Logger,
    /** Called when a platform resumes: its queue is due again. */
    private readonly onResume: (platform: string) => void,
    private readonly o: GateOptions = {},
  ) {}

  isPaused(platform: string): boolean {
    return this.paused.has(platform);
  }

  /** The platforms that may post now. */
  open(): string[] {
    return this.posters.map((p) => p.platform).filter((p) => !this.paused.has(p));
  }

  /** For /healthz and /metrics. */
  status(): { platform: string; paused: boolean; since?: number; reason?: string }[] {
    return this.posters.map((p) => {
      const s = this.paused.get(p.platform);
      return s
        ? { platform: p.platform, paused: true, since: s.since, reason: s.reason }
        : { platform: p.platform, paused: false };
    });
  }

  pause(platform: string, reason: string): void {
    if (this.paused.has(platform) || this.stopped) return;
    const now = (this.o.now ?? Date.now)();
    this.logger.error(
      'chat platform refused our credentials: its deliveries are paused (nothing is lost) and it is probed until they work again',
      { platform, reason },
    );
    const state: Paused = { since: now, reason, timer: undefined, delayMs: this.o.firstProbeMs ?? 5_000 };
    this.paused.set(platform, state);
    this.scheduleProbe(platform, state);
  }

  private scheduleProbe(platform: string, state: Paused): void {
    state.timer = setTimeout(() => void this.probe(platform, state), state.delayMs);
    state.timer.unref();
  }

  private async probe(platform: string, state: Paused): Promise<void> {
    if (this.stopped || this.paused.get(platform) !== state) return;
    const poster = this.posters.find((p) => p.platform === platform);
    const check = poster?.checkCredentials
      ? await poster.checkCredentials().catch((e: unknown) => ({ kind: 'unreachable' as const, reason: String(e) }))
      : { kind: 'ok' as const };
    if (this.stopped || this.paused.get(platform) !== state) return;
    if (check.kind === 'ok') {
      this.paused.delete(platform);
      const now = (this.o.now ?? Date.now)();
      this.logger.info('chat platform accepts our credentials again: deliveries resume', {
        platform,
        pausedMs: now - state.since,
      });
      this.onResume(platform);
      return;
    }
    state.delayMs = Math.min(state.delayMs * 2, this.o.maxProbeMs ?? 5 * 60_000);
    this.scheduleProbe(platform, state);
  }

  stop(): void {
    this.stopped = true;
    for (const s of this.paused.values()) if (s.timer) clearTimeout(s.timer);
  }
}
