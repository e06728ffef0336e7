// The operator's side of an instance: /healthz and /metrics over what was built, and where they are served (on Slack's
// HTTP port when Slack is served over HTTP, else on a small server of their own: src/ops/exposure.ts).
import { POLL_JOB } from '../alerts/index.js';
import type { ApiClient } from '../api/client.js';
import type { Config } from '../config.js';
import type { Lifecycle } from '../lifecycle.js';
import type { Logger } from '../log.js';
import { Health, cronPeriodMs } from '../ops/health.js';
import { planOps } from '../ops/exposure.js';
import { livenessRoutes, opsRoutes } from '../ops/http.js';
import type { Metrics } from '../ops/metrics.js';
import type { Delivery } from '../outbox/index.js';
import type { Database } from '../store/index.js';

export interface OpsDeps {
  config: Config;
  db: Database;
  api: ApiClient;
  sandboxed: boolean;
  service: string;
  alertsCron: string;
  logger: Logger;
  metrics: Metrics;
  lifecycle: Lifecycle;
  /** Whether a chat platform is served, and whether `--ops` asked for the routes without one. */
  chatPlatform: boolean;
  ops: boolean;
  /** The delivery, here or the delivery thread's handle: read on each request, as it is built after these routes. */
  delivery: () => Delivery;
  /** Whether a delivery thread runs it, and whether it is up now. */
  threaded: boolean;
  running: () => boolean;
}

export function composeOps(d: OpsDeps) {
  const { config, db, api, service, metrics } = d;
  const health = new Health({
    probe: (at) => db.leases.probe(at),
    poller: {
      lastRun: () => db.leases.lastRun(POLL_JOB),
      alerts: () => db.alerts.count(service),
      elsewhere: () => db.alerts.countElsewhere(service),
    },
    platforms: () => d.delivery().gate.status(),
    delivery: () => ({ thread: d.threaded, running: d.running() }),
    maxPollerAgeMs: 3 * cronPeriodMs(d.alertsCron, config.alerts.timezone),
    upstream: { sandbox: d.sandboxed, budgetLeft: () => api.budgetLeft() },
    stopping: () => d.lifecycle.isStopping,
    startedAt: Date.now(),
  });
  metrics.watch({
    outbox: () => db.outbox.stats(),
    platforms: () => d.delivery().gate.status(),
    budget: () => api.budgetLeft(),
    serviceQuota: () => api.serviceQuota(),
  });
  const routes = opsRoutes(health, metrics, d.logger, { token: config.ops.token });
  // What is served where: Slack's public port answers a liveness /healthz only, unless asked.
  const plan = planOps(config, { chatPlatform: d.chatPlatform, ops: d.ops });
  return { health, routes, plan, slackRoutes: plan.slackPort === 'all' ? routes : livenessRoutes(health) };
}
