// Prometheus metrics (prom-client 15) on a registry of Manzil's own, so that two instances in one process (tests)
// never mix their counters. Counters move where things happen (an upstream attempt, a command, a delivery); the
// gauges (outbox depth, quota left) are read from their sources when /metrics is scraped.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { delegateTo, type ChatCore } from '../ports/index.js';

/** One upstream attempt, as the API client reports it (`onCall`). */
export interface UpstreamCall {
  operation: string;
  /** The HTTP status ('200', '503'), or what happened instead ('timeout', 'network', 'budget', 'unavailable'...). */
  status: string;
  ms: number;
  /** 'refused': not sent at all (the budget or the breaker said no). */
  outcome: 'ok' | 'error' | 'refused';
  /** The teams it was made for (`slack:T123`), when any. */
  teams?: readonly string[];
}

/** Read at scrape time. */
export interface MetricSources {
  outbox?: () => Promise<{
    pending: number;
    sending: number;
    failed: number;
    oldestPendingMs: number;
    heldChannels?: number;
  }>;
  /** Chat platforms and whether their deliveries are paused (credentials refused). */
  platforms?: () => { platform: string; paused: boolean }[];
  budget?: () => { blockedForMs: number; day?: number; month?: number };
  /** The service's own quota headers, as last seen. */
  serviceQuota?: () => { plan?: number; minute?: number };
}

export class Metrics {
  readonly registry = new Registry();
  private sources: MetricSources = {};
  private readonly upstreamCalls = new Counter({
    name: 'manzil_upstream_calls_total',
    help: 'Requests to the property service, by operation and HTTP status (or failure kind)',
    labelNames: ['operation', 'status'] as const,
    registers: [this.registry],
  });
  private readonly teamCalls = new Counter({
    name: 'manzil_team_upstream_calls_total',
    help: 'Upstream calls made for each team (a Slack workspace, a Discord server): its spend of the shared quota; teams past METRICS_MAX_TEAMS count as team="other"',
    labelNames: ['team'],
    registers: [this.registry],
  });
  /** The teams with a series of their own: the first `maxTeams` to make a call since the start. */
  private readonly labelledTeams = new Set<string>();
  private readonly maxTeams: number;
  private readonly upstreamLatency = new Histogram({
    name: 'manzil_upstream_request_duration_seconds',
    help: 'Time from sending a request to the property service to its whole answer',
    labelNames: ['operation'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 25],
    registers: [this.registry],
  });
  private readonly commands = new Counter({
    name: 'manzil_commands_total',
    help: 'Chat commands, by what they asked for (the operation, alerts, digest, compare, value, next, help, or not-understood)',
    labelNames: ['verb'] as const,
    registers: [this.registry],
  });
  private readonly buttons = new Counter({
    name: 'manzil_button_presses_total',
    help: 'Buttons pressed, by action',
    labelNames: ['action'] as const,
    registers: [this.registry],
  });
  private readonly delivered = new Counter({
    name: 'manzil_alerts_delivered_total',
    help: 'Alert messages the chat platform accepted',
    labelNames: ['platform', 'kind'] as const,
    registers: [this.registry],
  });
  private readonly failed = new Counter({
    name: 'manzil_alerts_failed_total',
    help: 'Alert messages given up on after their last attempt',
    labelNames: ['platform', 'kind'] as const,
    registers: [this.registry],
  });
  private readonly pollerRuns = new Counter({
    name: 'manzil_poller_runs_total',
    help: 'Alert poller runs, by result',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });

  /** `maxTeams` (METRICS_MAX_TEAMS, 50 by default): how many teams get a `team` label of their own. */
  constructor(options: { defaultMetrics?: boolean; maxTeams?: number } = {}) {
    this.maxTeams = options.maxTeams ?? 50;
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
    this.gauge('manzil_outbox_depth', 'Alert messages waiting to be posted (pending or being posted)', async () => {
      const s = await this.sources.outbox?.();
      return s && s.pending + s.sending;
    });
    this.gauge(
      'manzil_outbox_failed',
      'Alert messages parked as failed',
      async () => (await this.sources.outbox?.())?.failed,
    );
    this.gauge(
      'manzil_outbox_oldest_age_seconds',
      'Age of the oldest alert message not yet posted (0 when none)',
      async () => {
        const s = await this.sources.outbox?.();
        return s && s.oldestPendingMs / 1000;
      },
    );
    this.gauge(
      'manzil_outbox_held_channels',
      'Chat channels that cannot receive (the app removed, archived): their messages wait',
      async () => (await this.sources.outbox?.())?.heldChannels,
    );
    const paused: Gauge<'platform'> = new Gauge({
      name: 'manzil_platform_paused',
      help: '1 while a chat platform refuses our credentials and its deliveries are paused, else 0',
      labelNames: ['platform'] as const,
      registers: [this.registry],
      collect: () => {
        paused.reset();
        for (const p of this.sources.platforms?.() ?? []) paused.set({ platform: p.platform }, p.paused ? 1 : 0);
      },
    });
    this.gauge(
      'manzil_upstream_blocked_seconds',
      'How long before a call would be sent (rate limit, Retry-After, open circuit); 0: now; -1: closed',
      () => {
        const left = this.sources.budget?.();
        return left && (Number.isFinite(left.blockedForMs) ? left.blockedForMs / 1000 : -1);
      },
    );
    this.windowGauge(
      'manzil_upstream_quota_remaining',
      "Calls left under Manzil's own daily and monthly limits (absent when unlimited)",
      () => {
        const left = this.sources.budget?.();
        return { day: left?.day, month: left?.month };
      },
    );
    this.windowGauge(
      'manzil_upstream_service_quota_remaining',
      "Calls left on the property service's own quota, as its last answer's headers said: window plan (x-ratelimit-requests-remaining) or minute (x-ratelimit-remaining)",
      () => {
        const left = this.sources.serviceQuota?.();
        return { plan: left?.plan, minute: left?.minute };
      },
    );
  }

  /** A gauge read from its source at each scrape; undefined leaves it unset. */
  private gauge(name: string, help: string, read: () => number | undefined | Promise<number | undefined>): void {
    const g: Gauge = new Gauge({
      name,
      help,
      registers: [this.registry],
      collect: async () => {
        const value = await read();
        if (value !== undefined) g.set(value);
      },
    });
  }

  /** A gauge with one series per window that has a value now; a window without one is absent, not 0. */
  private windowGauge(name: string, help: string, read: () => Record<string, number | undefined>): void {
    const g: Gauge<'window'> = new Gauge({
      name,
      help,
      labelNames: ['window'] as const,
      registers: [this.registry],
      collect: () => {
        g.reset();
        for (const [window, value] of Object.entries(read())) if (value !== undefined) g.set({ window }, value);
      },
    });
  }

  /** Where the gauges read from (the store and the client exist after the metrics do). */
  watch(sources: MetricSources): void {
    this.sources = { ...this.sources, ...sources };
  }

  /** For the API client's `onCall`. */
  readonly upstream = (call: UpstreamCall): void => {
    this.upstreamCalls.inc({ operation: call.operation, status: call.status });
    if (call.outcome !== 'refused')
      for (const team of call.teams ?? []) this.teamCalls.inc({ team: this.teamLabel(team) });
    if (call.outcome !== 'refused') this.upstreamLatency.observe({ operation: call.operation }, call.ms / 1000);
  };

  /**
   * A team's label, or "other" once `maxTeams` teams have one: a thousand workspaces must not make a thousand series.
   * A label, once given, is kept, so every series stays a counter that only goes up (rate() stays right).
   */
  private teamLabel(team: string): string {
    if (this.labelledTeams.has(team)) return team;
    if (this.labelledTeams.size >= this.maxTeams) return 'other';
    this.labelledTeams.add(team);
    return team;
  }

  /** `verb`: the command's reading's (ChatCore.read), a small fixed set of labels. */
  command(verb: string): void {
    this.commands.inc({ verb });
  }

  button(action: string): void {
    this.buttons.inc({ action: /^[a-z-]{1,20}$/.test(action) ? action : 'other' });
  }

  alertDelivered(channel: string, kind: string): void {
    this.delivered.inc({ platform: platformOf(channel), kind });
  }

  alertFailed(channel: string, kind: string): void {
    this.failed.inc({ platform: platformOf(channel), kind });
  }

  pollerRun(ok: boolean): void {
    this.pollerRuns.inc({ result: ok ? 'ok' : 'failed' });
  }

  /** The text exposition of every metric. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

const platformOf = (channel: string) => channel.slice(0, Math.max(0, channel.indexOf(':'))) || 'unknown';

/** The bot with its commands and button presses counted; everything else passes through. */
export function countRequests(bot: ChatCore, metrics: Metrics): ChatCore {
  return {
    ...delegateTo(bot),
    // Read once here, the outermost reader, and handed on: the limits and the bot read the same.
    handleCommand: (req) => {
      const reading = req.reading ?? bot.read(req);
      metrics.command(reading.verb);
      return bot.handleCommand({ ...req, reading });
    },
    handleAction: (req) => {
      metrics.button(req.action);
      return bot.handleAction(req);
    },
  };
}
