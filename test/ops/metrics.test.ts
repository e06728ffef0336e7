// GET /metrics as Prometheus scrapes it: the counters move when people use Manzil and when alerts are delivered,
// the gauges tell the outbox's depth and the quota left, and the default process metrics are there.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ConsolePoster } from '../../adapters/console/poster.js';
import { PostFailure } from '../../src/bot/index.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { ask, boot, sample } from './helpers.js';

const scrape = async (url: string) => {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/text\/plain/);
  return res.text();
};

describe('GET /metrics', () => {
  it('counts commands by verb, upstream calls by operation and status, and their latency', async () => {
    const { manzil, url } = await boot({ UAE_API_BUDGET_PER_DAY: '100' });
    const before = await scrape(url('/metrics'));
    expect(sample(before, 'manzil_commands_total')).toBe(0);
    expect(before).toMatch(/^process_cpu_user_seconds_total /m);
    expect(before).toMatch(/^nodejs_heap_size_used_bytes /m);

    await ask(manzil, 'rent marina 2br');
    await ask(manzil, 'rent jvc studio');
    await ask(manzil, 'help');
    await ask(manzil, 'gibberish that means nothing 12 34');
    const after = await scrape(url('/metrics'));
    expect(sample(after, 'manzil_commands_total', { verb: 'search-rent' })).toBe(2);
    expect(sample(after, 'manzil_commands_total', { verb: 'help' })).toBe(1);
    expect(sample(after, 'manzil_commands_total')).toBe(4);
    const rentCalls = sample(after, 'manzil_upstream_calls_total', { operation: 'search-rent', status: '200' });
    expect(rentCalls).toBe(2);
    expect(
      sample(after, 'manzil_upstream_calls_total', { operation: 'autocomplete-location', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'manzil_upstream_request_duration_seconds_count', { operation: 'search-rent' })).toBe(2);
    // Every call counts against the daily budget, and the gauge says what is left.
    const calls = sample(after, 'manzil_upstream_calls_total');
    expect(sample(after, 'manzil_upstream_quota_remaining', { window: 'day' })).toBe(100 - calls);
  });

  it('counts failed upstream calls under their status', async () => {
    const { manzil, url } = await boot({ UAE_API_RETRY_ATTEMPTS: '2' });
    await ask(manzil, 'rent marina 2br'); // resolves the area, so the fault below hits the search
    manzil.sandbox!.addFault({ status: 503, path: '/search-rent' });
    await ask(manzil, 'rent marina 3br'); // a search not asked before: no answer cached
    const text = await scrape(url('/metrics'));
    expect(sample(text, 'manzil_upstream_calls_total', { operation: 'search-rent', status: '503' })).toBe(2);
  });

  it('counts alerts delivered, and shows the outbox emptying', async () => {
    const output = new PassThrough();
    output.resume();
    const { manzil, url } = await boot({}, { terminal: new ConsolePoster(output, false) });
    // Each move of the sample market lists a Dubai Marina flat, to rent or to buy: one alert for each.
    await ask(manzil, 'alerts add rent marina');
    await ask(manzil, 'alerts add buy marina');
    await manzil.alerts.poll(); // the first run only learns what exists
    let runs = 1;
    for (let queued = 0; queued === 0 && runs < 6; runs++) {
      manzil.sandbox!.advance(120);
      queued = (await manzil.alerts.poll()).queued;
    }
    await manzil.alerts.drainer.drain();
    const text = await scrape(url('/metrics'));
    const delivered = sample(text, 'manzil_alerts_delivered_total', { platform: 'console' });
    expect(delivered).toBeGreaterThan(0);
    expect(delivered).toBe((await manzil.alerts.outbox.stats()).delivered);
    expect(sample(text, 'manzil_alerts_failed_total')).toBe(0);
    expect(sample(text, 'manzil_outbox_depth')).toBe(0);
    expect(sample(text, 'manzil_outbox_oldest_age_seconds')).toBe(0);
    expect(sample(text, 'manzil_poller_runs_total', { result: 'ok' })).toBe(runs);
    expect(sample(text, 'manzil_commands_total', { verb: 'alerts' })).toBe(2);
  });
});

describe("GET /metrics: the service's own quota and a failing platform", () => {
  it("shows the quota the service's headers report, apart from Manzil's own limits", async () => {
    // The property service as a gateway runs it: quota headers on every answer (x-ratelimit-requests-remaining...).
    const service = createSandbox({ key: 'sk-quota-metrics-1', quota: { perDay: 500, perMinute: 40 } });
    const url = await service.listen(0, '127.0.0.1');
    try {
      const booted = await boot({ UAE_API_KEY: 'sk-quota-metrics-1', UAE_API_BASE_URL: url });
      const before = await scrape(booted.url('/metrics'));
      expect(before).not.toMatch(/^manzil_upstream_service_quota_remaining\{/m); // nothing said yet
      await ask(booted.manzil, 'rent marina 2br');
      const after = await scrape(booted.url('/metrics'));
      const calls = sample(after, 'manzil_upstream_calls_total');
      expect(calls).toBeGreaterThan(0);
      expect(sample(after, 'manzil_upstream_service_quota_remaining', { window: 'plan' })).toBe(500 - calls);
      expect(sample(after, 'manzil_upstream_service_quota_remaining', { window: 'minute' })).toBe(40 - calls);
      expect(after).not.toMatch(/^manzil_upstream_quota_remaining\{/m); // no limits of our own configured
    } finally {
      await service.close();
    }
  });

  it('shows the outbox filling and ageing while a post hangs, then the failure once the platform refuses it', async () => {
    /** The terminal's poster, but the platform hangs on each post until released, then refuses it for good. */
    class RefusingPoster extends ConsolePoster {
      private open!: () => void;
      readonly released = new Promise<void>((resolve) => (this.open = resolve));
      posts = 0;
      release(): void {
        this.open();
      }
      override async post(): Promise<{ messageId: string }> {
        this.posts++;
        await this.released;
        throw new PostFailure('msg_too_long', 'rejected');
      }
    }
    const output = new PassThrough();
    output.resume();
    const poster = new RefusingPoster(output, false);
    const { manzil, url } = await boot({}, { terminal: poster });
    await ask(manzil, 'alerts add rent marina');
    await ask(manzil, 'alerts add buy marina');
    await manzil.alerts.poll(); // the first run only learns what exists
    for (let runs = 0, queued = 0; queued === 0 && runs < 6; runs++) {
      manzil.sandbox!.advance(120);
      queued = (await manzil.alerts.poll()).queued;
    }
    for (const end = Date.now() + 5_000; poster.posts === 0 && Date.now() < end;)
      await new Promise((r) => setTimeout(r, 10));
    expect(poster.posts).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 50));
    const held = await scrape(url('/metrics'));
    expect(sample(held, 'manzil_outbox_depth')).toBeGreaterThan(0);
    expect(sample(held, 'manzil_outbox_oldest_age_seconds')).toBeGreaterThan(0);
    expect(sample(held, 'manzil_alerts_failed_total')).toBe(0);

    poster.release();
    await manzil.alerts.drainer.drain();
    const after = await scrape(url('/metrics'));
    const failed = (await manzil.alerts.outbox.stats()).failed;
    expect(failed).toBeGreaterThan(0);
    expect(sample(after, 'manzil_alerts_failed_total', { platform: 'console' })).toBe(failed);
    expect(sample(after, 'manzil_outbox_failed')).toBe(failed);
    expect(sample(after, 'manzil_outbox_depth')).toBe(0);
    expect(sample(after, 'manzil_outbox_oldest_age_seconds')).toBe(0);
    expect(sample(after, 'manzil_alerts_delivered_total')).toBe(0);
  });
});

describe('request ids', () => {
  it('puts one id on every log line of a request and in the reply when the service fails', async () => {
    const { manzil, logs } = await boot({ UAE_API_RETRY_ATTEMPTS: '1' });
    manzil.sandbox!.addFault({ status: 500 });
    const reply = await ask(manzil, 'rent marina 2br');
    const ref = /\(ref ([0-9a-z]{6})\)/.exec(reply.text)?.[1];
    expect(ref).toBeDefined();
    const failed = logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((e) => e.msg === 'request failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ req: ref, level: expect.stringMatching(/warn|error/) });
  });

  it('gives a mistake no reference, and each poller run an id of its own', async () => {
    const { manzil, logs } = await boot();
    const reply = await ask(manzil, 'property 99999999999');
    expect(reply.text).not.toMatch(/\(ref /);
    await manzil.alerts.poll();
    const run = logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((e) => e.msg === 'poller run finished');
    expect(run?.req).toMatch(/^[0-9a-z]{6}$/);
  });
});
