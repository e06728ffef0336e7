// GET /healthz as a load balancer or Docker's HEALTHCHECK sees it: 200 with a JSON report when Manzil can do its job,
// 503 when it cannot (the database refuses writes, the poller is stuck while alerts exist, the upstream breaker is
// open) and while it is stopping.
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { POLL_JOB } from '../../src/alerts/index.js';
import { Health } from '../../src/ops/health.js';
import { opsRoutes, startOpsServer } from '../../src/ops/http.js';
import { Metrics } from '../../src/ops/metrics.js';
import { createLeaseRepo, schema } from '../../src/store/index.js';
import { silentLogger } from '../../src/log.js';
import { ask, boot } from './helpers.js';

async function healthz(url: string) {
  const res = await fetch(url);
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    body: (await res.json()) as { status: string; checks: Record<string, Record<string, unknown>> },
  };
}

describe('GET /healthz', () => {
  it('answers 200 with the database, the poller, the upstream and the budget when all is well', async () => {
    const { url } = await boot({ UAE_API_BUDGET_PER_DAY: '500' });
    const r = await healthz(url('/healthz'));
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/application\/json/);
    expect(r.body.status).toBe('ok');
    expect(r.body.checks.database).toEqual({ ok: true });
    expect(r.body.checks.poller).toMatchObject({ ok: true, alerts: 0, lastRunAt: null, maxAgeSeconds: 3 * 15 * 60 });
    expect(r.body.checks.upstream).toMatchObject({ ok: true, service: 'sandbox', breakerOpenForSeconds: 0 });
    expect(r.body.checks.budget).toEqual({ ok: true, callsLeftToday: 500 });
  });

  it('answers 503 when the database refuses writes', async () => {
    const { manzil, dbPath } = await boot();
    // The same database file, opened read-only: every write through this connection fails as on a read-only disk.
    const readOnly = new Database(dbPath, { readonly: true, fileMustExist: true });
    const health = new Health({
      probe: async (at) =>
        createLeaseRepo({ db: drizzle(readOnly, { schema }), sqlite: readOnly, close: () => readOnly.close() }).probe(
          at,
        ),
      poller: {
        lastRun: async () => manzil.alerts.leases.lastRun(POLL_JOB),
        alerts: async () => manzil.alerts.repo.count(),
      },
      maxPollerAgeMs: 45 * 60_000,
      upstream: { sandbox: true, budgetLeft: () => manzil.api.budgetLeft() },
      stopping: () => false,
      startedAt: Date.now(),
    });
    const server = await startOpsServer(
      opsRoutes(health, new Metrics({ defaultMetrics: false }), silentLogger),
      0,
      '127.0.0.1',
    );
    try {
      const r = await healthz(`http://127.0.0.1:${server.port}/healthz`);
      expect(r.status).toBe(503);
      expect(r.body.status).toBe('failing');
      expect(r.body.checks.database).toMatchObject({ ok: false, error: expect.stringMatching(/readonly/) });
      expect(r.body.checks.upstream).toMatchObject({ ok: true });
    } finally {
      await server.close();
      readOnly.close();
    }
  });

  it('answers 503 when alerts exist and the poller has not run for three periods of ALERTS_CRON', async () => {
    const { manzil, url } = await boot({ ALERTS_CRON: '*/5 * * * *' });
    await ask(manzil, 'alerts add rent marina 2br');
    expect((await healthz(url('/healthz'))).status).toBe(200); // no run yet, but Manzil has only just started

    // The last run, as the poller records it, 16 minutes ago (3 periods of 5 minutes are 15).
    const at = Date.now() - 16 * 60_000;
    const fence = (await manzil.alerts.leases.acquire(POLL_JOB, 'another-instance', at, 60_000))!;
    await manzil.alerts.leases.finish(fence, { at, ms: 1200, ok: true });
    const r = await healthz(url('/healthz'));
    expect(r.status).toBe(503);
    expect(r.body.checks.poller).toMatchObject({ ok: false, alerts: 1, lastRunOk: true, maxAgeSeconds: 900 });
    expect(r.body.checks.poller!.lastRunAgeSeconds).toBeGreaterThanOrEqual(960);

    // A run now: healthy again.
    const polled = Date.now();
    await manzil.alerts.poll();
    const after = await healthz(url('/healthz'));
    expect(after.status).toBe(200);
    // The run just made, however long it and the check took on a loaded machine.
    expect(Date.parse(after.body.checks.poller!.lastRunAt as string)).toBeGreaterThanOrEqual(polled);
    expect(after.body.checks.poller!.lastRunAgeSeconds).toBeLessThanOrEqual(
      Math.ceil((Date.now() - polled) / 100) / 10,
    );
  });

  it('answers 503 while the upstream circuit breaker is open', async () => {
    const { manzil, url } = await boot({
      UAE_API_BREAKER_FAILURES: '2',
      UAE_API_RETRY_ATTEMPTS: '1',
      UAE_API_BREAKER_COOLDOWN_S: '60',
    });
    manzil.sandbox!.addFault({ status: 503 });
    // The whole service failing: outages of more than one operation about more than one area (one area's or one
    // operation's failures open only their own circuit).
    await ask(manzil, 'rent marina 2br');
    await ask(manzil, 'agent 207502');
    const r = await healthz(url('/healthz'));
    expect(r.status).toBe(503);
    expect(r.body.checks.upstream).toMatchObject({ ok: false });
    expect(r.body.checks.upstream!.breakerOpenForSeconds).toBeGreaterThan(50);
    expect(r.body.checks.database).toEqual({ ok: true });
  });

  it('answers 503 "stopping" while a shutdown lets the requests in flight finish', async () => {
    const { manzil, url } = await boot();
    manzil.sandbox!.addFault({ latencyMs: 1_000, count: 1, path: '/search-rent' });
    const inFlight = ask(manzil, 'rent marina 2br');
    await vi.waitUntil(() => manzil.sandbox!.requests().some((r) => r.path === '/search-rent'), {
      timeout: 10_000,
      interval: 10,
    }); // the slow upstream call is under way
    const stopping = manzil.shutdown('test');
    const r = await healthz(url('/healthz'));
    expect(r.status).toBe(503);
    expect(r.body.status).toBe('stopping');
    expect((await inFlight).text).toMatch(/Dubai Marina/);
    await stopping;
    await expect(fetch(url('/healthz'))).rejects.toThrow(); // closed once everything else stopped
  });

  it('is served on the Slack port when Slack runs over HTTP, as liveness only (the detail and /metrics stay off it)', async () => {
    const { startFakeSlack } = await import('../fakes/slack-api.js');
    const slack = await startFakeSlack({ token: 'xoxb-test-ops' });
    try {
      const { manzil } = await boot({
        OPS_PORT: '',
        PORT: '0',
        MANZIL_SANDBOX: '1',
        SLACK_BOT_TOKEN: 'xoxb-test-ops',
        SLACK_SIGNING_SECRET: 'ops-signing-secret-1',
        SLACK_API_URL: slack.apiUrl,
      });
      expect(manzil.opsPort).toBeUndefined();
      const res = await fetch(`http://127.0.0.1:${manzil.slackPort}/healthz`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'ok' });
      expect((await fetch(`http://127.0.0.1:${manzil.slackPort}/metrics`)).status).toBe(404); // see exposure.test.ts
      await manzil.stop();
    } finally {
      await slack.close();
    }
  });
});
