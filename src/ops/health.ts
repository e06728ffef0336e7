// GET /healthz: is this Manzil able to do its job? Cheap enough to be asked every few seconds: one tiny write to the
// database (at most once per `probeEveryMs`, however many probes ask), reads of the poller's last run and the client's
// breaker and budget, and no billed upstream call.
import cron from 'node-cron';

export interface HealthDeps {
  /**
   * A real committed write through the live connection (the store's `probeWrite`): it proves the database takes writes.
   */
  probe(at: number): Promise<void>;
  /** The last poller run (shared by every instance on this database) and how many alerts it serves. */
  poller: {
    lastRun(): Promise<{ at: number; ms: number; ok: boolean } | undefined>;
    alerts(): Promise<number>;
    elsewhere?(): Promise<number>;
  };
  /** Chat platforms, paused while they refuse our credentials. */
  platforms?: () => { platform: string; paused: boolean; since?: number; reason?: string }[];
  /** Where delivery runs, and whether the delivery thread is up (it is down between a crash and its restart). */
  delivery?: () => { thread: boolean; running: boolean };
  /** Older than this while alerts exist: the poller is stuck (3 periods of ALERTS_CRON). */
  maxPollerAgeMs: number;
  upstream: {
    sandbox: boolean;
    budgetLeft(): { blockedForMs: number; day?: number; month?: number; breakerOpenForMs?: number };
  };
  /** True once shutdown began: load balancers should stop sending work here. */
  stopping(): boolean;
  /** When this process started: with no poller run yet, its age counts from here. */
  startedAt: number;
  /** The database write is made at most once in this long (5 s by default); checks in between reuse its result. */
  probeEveryMs?: number;
  now?: () => number;
}

export interface HealthReport {
  status: 'ok' | 'failing' | 'stopping';
  checks: {
    database: { ok: boolean; error?: string };
    poller: {
      ok: boolean;
      alerts: number;
      otherServiceAlerts: number;
      lastRunAt: string | null;
      lastRunAgeSeconds: number | null;
      lastRunOk: boolean | null;
      maxAgeSeconds: number;
    };
    upstream: { ok: boolean; service: 'sandbox' | 'live'; breakerOpenForSeconds: number; blockedForSeconds: number };
    budget: { ok: true; callsLeftToday?: number; callsLeftThisMonth?: number };
    /** A paused platform fails the check: nothing reaches its channels until its credentials work again. */
    platforms: { ok: boolean; paused: { platform: string; sinceSeconds: number; reason: string }[] };
    /** The delivery thread died and is being started again: nothing is polled or posted meanwhile (nothing is lost). */
    delivery: { ok: boolean; thread: boolean; running: boolean };
  };
}

export class Health {
  private readonly now: () => number;
  private readonly probeEveryMs: number;
  /** The last database write and its result (shared by the checks that come while it runs). */
  private lastProbe: { at: number; result: Promise<HealthReport['checks']['database']> } | undefined;

  constructor(private readonly deps: HealthDeps) {
    this.now = deps.now ?? Date.now;
    this.probeEveryMs = deps.probeEveryMs ?? 5_000;
  }

  /** Liveness: the process answers and is not stopping. Touches nothing, so a public port may ask it freely. */
  live(): 'ok' | 'stopping' {
    return this.deps.stopping() ? 'stopping' : 'ok';
  }

  async check(): Promise<HealthReport> {
    const at = this.now();
    const seconds = (ms: number) => Math.round(ms / 100) / 10;
    const database = await this.database(at);

    const run = await safely(() => this.deps.poller.lastRun(), undefined);
    const alerts = await safely(() => this.deps.poller.alerts(), 0);
    const age = at - (run?.at ?? this.deps.startedAt);
    const poller = {
      ok: alerts === 0 || age <= this.deps.maxPollerAgeMs,
      alerts,
      // Saved for another property service (UAE_API_BASE_URL changed): kept, but not checked.
      otherServiceAlerts: await safely(async () => (await this.deps.poller.elsewhere?.()) ?? 0, 0),
      lastRunAt: run ? new Date(run.at).toISOString() : null,
      lastRunAgeSeconds: run ? seconds(at - run.at) : null,
      lastRunOk: run ? run.ok : null,
      maxAgeSeconds: seconds(this.deps.maxPollerAgeMs),
    };

    const left = this.deps.upstream.budgetLeft();
    const breakerOpenForMs = left.breakerOpenForMs ?? 0;
    const upstream = {
      ok: breakerOpenForMs === 0,
      service: this.deps.upstream.sandbox ? ('sandbox' as const) : ('live' as const),
      breakerOpenForSeconds: seconds(breakerOpenForMs),
      blockedForSeconds: Number.isFinite(left.blockedForMs) ? seconds(left.blockedForMs) : -1,
    };
    const budget = {
      ok: true as const,
      ...(left.day !== undefined ? { callsLeftToday: left.day } : {}),
      ...(left.month !== undefined ? { callsLeftThisMonth: left.month } : {}),
    };

    const paused = (await safely(async () => this.deps.platforms?.() ?? [], [])).filter((p) => p.paused);
    const platforms = {
      ok: paused.length === 0,
      paused: paused.map((p) => ({
        platform: p.platform,
        sinceSeconds: seconds(at - (p.since ?? at)),
        reason: p.reason ?? '',
      })),
    };
    const where = await safely(async () => this.deps.delivery?.() ?? { thread: false, running: true }, {
      thread: false,
      running: false,
    });
    const delivery = { ok: where.running, ...where };
    const status = this.deps.stopping()
      ? 'stopping'
      : database.ok && poller.ok && upstream.ok && platforms.ok && delivery.ok
        ? 'ok'
        : 'failing';
    return { status, checks: { database, poller, upstream, budget, platforms, delivery } };
  }

  /** A write every `probeEveryMs` at most: probes asking many times a second must not write many rows a second. */
  private database(at: number): Promise<{ ok: boolean; error?: string }> {
    const last = this.lastProbe;
    if (last && at >= last.at && at - last.at < this.probeEveryMs) return last.result;
    const result = (async () => this.deps.probe(at))().then(
      () => ({ ok: true }),
      (e: unknown) => ({ ok: false, error: (e as Error).message }),
    );
    this.lastProbe = { at, result };
    return result;
  }
}

async function safely<T>(read: () => T | Promise<T>, fallback: T): Promise<T> {
  try {
    return await read();
  } catch {
    return fallback;
  }
}

/** The longest gap between the schedule's next runs: "every 15 minutes" is 15 minutes, "daily at 9" a day. */
export function cronPeriodMs(expression: string, timezone: string): number {
  const task = cron.createTask(expression, () => {}, { timezone });
  try {
    const runs = task.getNextRuns(6).map((d) => d.getTime());
    let longest = 0;
    for (let i = 1; i < runs.length; i++) longest = Math.max(longest, runs[i]! - runs[i - 1]!);
    return longest || 15 * 60_000;
  } finally {
    void task.destroy();
  }
}
