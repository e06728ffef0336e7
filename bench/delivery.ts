// Delivery: 10,000 outbox entries over 500 Slack channels (20 each), drained by the real OutboxDrainer through the real
// SlackPoster and WebClient to the fake Slack, which answers every call after 20 ms, at the production spacing of one
// message a second per channel (the drainer's default) and the production claim settings (src/app/background.ts: DELIVERY_GIVE_UP_H,
// ALERTS_DELIVERY_LEASE_S; perChannel and channels left to their defaults). The entries are 'new' alert cards of real
// sandbox listings, rendered as the composition root renders them (a Details button whose state is saved with each card).
// Measured in a process of its own; the fake Slack runs in another (it records 10,000 calls), as the sandbox does.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { SLACK_SETTLE_MS, SlackPoster, postingClient } from '../adapters/slack/poster.js';
import { paramsKey, type SavedQuery } from '../src/alerts/index.js';
import type { Listing } from '../src/alerts/compare.js';
import { encodePayload } from '../src/alerts/messages.js';
import { encodeSavedQuery } from '../src/alerts/saved-query.js';
import { messageKinds } from '../src/app/background.js';
import { loadConfig } from '../src/config.js';
import type { Logger } from '../src/log.js';
import { OutboxDrainer } from '../src/outbox/index.js';
import {
  createAlertsRepo,
  createButtonStateRepo,
  createOutboxRepo,
  deliveryIdOf,
  openStore,
  type AlertsRepo,
  type OutboxRepo,
  type AlertRow,
  type Store,
} from '../src/store/index.js';
import { childMain, runInChild, timeMethods } from './child.js';
import type { BenchResult } from './doc.js';
import { startFakeSlackProcess } from './fake-slack-process.js';
import { startSandboxProcess } from './sandbox-process.js';

export const CHANNELS = 500;
export const PER_CHANNEL = 20;
export const ENTRIES = CHANNELS * PER_CHANNEL;
export const SLACK_LATENCY_MS = 20;
/** The drainer's default spacing in one channel (DeliveryOptions.perChannelIntervalMs), as production runs it. */
export const INTERVAL_MS = 1_000;
/** The channels of these entries: `slack:T1:C0` … `slack:T1:C499`; their channel ids all start with this. */
export const CHANNEL_PREFIX = 'C';
const CHILD_FLAG = '--delivery-bench-child';
/** Entries per channel in one claim; unset: the drainer's default, as production runs it (for experiments only). */
// BENCH_DELIVERY_PER_CHANNEL: its name before issue 28, still read.
const CLAIM_PER_CHANNEL =
  Number(process.env.BENCH_DELIVERY_PER_CHANNEL ?? process.env.BENCH_DELIVERY_PER_CHANNEL) || undefined;
const SHARED = process.env.BENCH_DELIVERY_SHARED === '1';
/**
 * Times the outbox calls and the rendering one by one: two clock reads per call, which cost CPU the drain then lacks.
 */
const PARTS = process.env.BENCH_DELIVERY_PARTS === '1';

/**
 * The floor of the rate: a channel's first post goes at once and each next one at least INTERVAL_MS after the one
 * before started, so a channel's last post starts (PER_CHANNEL - 1) × INTERVAL_MS after its first and is answered one
 * round trip (the fake's latency) later. All channels start together, so that is the whole drain's floor too.
 */
export const FLOOR_MS = (PER_CHANNEL - 1) * INTERVAL_MS + SLACK_LATENCY_MS;

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** Real listing records (as the poller records them in payloads), from the sandbox's rent and buy searches. */
export async function sampleListings(url: string, key: string): Promise<Listing[]> {
  const out: Listing[] = [];
  for (const op of ['search-rent', 'search-buy']) {
    for (const location of [50, 51, 52, 53, 54]) {
      const res = await fetch(`${url}/${op}?location_id=${location}`, { headers: { 'x-gateway-key': key } });
      if (res.ok) out.push(...((await res.json()) as { data: Listing[] }).data);
    }
  }
  if (out.length === 0) throw new Error('bench: the sandbox returned no listings');
  return out;
}

const SAVED: SavedQuery = {
  query: {
    operation: 'search-rent',
    params: { bedrooms: '1', price_max: '150000' },
    location: 'dubai marina',
    unknownWords: [],
  },
  location: { id: 50, name: 'Dubai Marina' },
};

/**
 * One saved search (under `service`) in each of the CHANNELS channels `slack:T1:C<n>`: the alerts the cards belong to.
 */
export async function saveDeliverySearches(repo: Pick<AlertsRepo, 'create'>, service: string): Promise<AlertRow[]> {
  const rows: AlertRow[] = [];
  for (let n = 0; n < CHANNELS; n++) {
    const made = await repo.create(
      {
        service,
        channel: `slack:T1:${CHANNEL_PREFIX}${n}`,
        owner: `U${n}`,
        text: 'marina 1br under 150k',
        query: encodeSavedQuery(SAVED),
        operation: SAVED.query.operation,
        paramsKey: paramsKey(SAVED),
        summary: 'Rent · Dubai Marina · 1 bedroom · up to AED 150,000',
      },
      { perChannel: 1_000, perOwner: 1_000 },
    );
    if (!made.ok) throw new Error(`bench: saved search refused (${made.reason})`);
    rows.push(made.row);
  }
  return rows;
}

/**
 * Queues ENTRIES 'new' alert cards, PER_CHANNEL in each search's channel, interleaved as a run over many channels
 * writes them.
 */
export async function queueDeliveries(
  outbox: Pick<OutboxRepo, 'enqueue'>,
  searches: readonly AlertRow[],
  listings: readonly Listing[],
): Promise<number> {
  let queued = 0;
  for (let i = 0; i < ENTRIES; i++) {
    const search = searches[i % searches.length]!;
    const listing = listings[i % listings.length]!;
    queued += await outbox.enqueue({
      searchId: search.id,
      channel: search.channel,
      kind: 'new',
      propertyId: listing.property_id,
      dedupeKey: `${search.id}:new:${listing.property_id}:${i}`,
      payload: encodePayload({
        v: 1,
        kind: 'new',
        search: { id: search.id, number: search.number, summary: search.summary },
        listing,
        copies: i % 7 === 0 ? 2 : 0,
      }),
    });
  }
  return queued;
}

const describeError = (fields?: Record<string, unknown>) => {
  const e = fields?.error;
  return e === undefined ? '' : ` (${e instanceof Error ? e.message : typeof e === 'string' ? e : JSON.stringify(e)})`;
};

/** A logger that keeps warnings and errors (none are expected) and drops the rest. */
export function keepingLogger(): Logger & { problems: string[] } {
  const problems: string[] = [];
  const logger: Logger & { problems: string[] } = {
    problems,
    debug: () => {},
    info: () => {},
    warn: (msg, fields) => void problems.push(`warn: ${msg}${describeError(fields)}`),
    error: (msg, fields) => void problems.push(`error: ${msg}${describeError(fields)}`),
    child: () => logger,
  };
  return logger;
}

/** Event-loop delay figures (ms) from a perf_hooks histogram. */
export function loopDelay(h: ReturnType<typeof monitorEventLoopDelay>): string {
  const q = (p: number) => (h.percentile(p) / 1e6).toFixed(1);
  return `p50 ${q(50)} / p99 ${q(99)} / max ${(h.max / 1e6).toFixed(1)} ms`;
}

export async function run(): Promise<BenchResult> {
  return runInChild(new URL(import.meta.url), CHILD_FLAG);
}

async function measure(): Promise<BenchResult> {
  const sandbox = await startSandboxProcess('bench-key');
  const listings = await sampleListings(sandbox.url, 'bench-key').finally(() => sandbox.stop());
  const slack = await startFakeSlackProcess({ latencyMs: SLACK_LATENCY_MS });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manzil-bench-delivery-'));
  const store: Store = openStore(path.join(dir, 'delivery.db'));
  try {
    const config = loadConfig({});
    const repo = createAlertsRepo(store);
    const outbox = createOutboxRepo(store);
    const queued = await queueDeliveries(outbox, await saveDeliverySearches(repo, 'sandbox'), listings);
    // As the composition root wires it (src/app/background.ts): the Details button's state is saved when a card is
    // rendered.
    const logger = keepingLogger();
    const kinds = messageKinds(createButtonStateRepo(store, Date.now, 'sandbox'), repo, logger);
    const poster = new SlackPoster(
      postingClient('xoxb-test', { apiUrl: slack.apiUrl }),
      (msg, fields) => void logger.problems.push(`slack: ${msg}${describeError(fields)}`),
    );
    const drainer = new OutboxDrainer({
      outbox,
      kinds,
      posters: [poster],
      logger,
      holder: 'bench',
      // As the delivery thread runs it (`manzil start`'s default): no chat shares its loop, so no post waits for the
      // loop.
      // BENCH_DELIVERY_SHARED=1: as it runs sharing the loop with chat (DELIVERY_THREAD=off, the terminal chat).
      options: {
        giveUpMs: config.alerts.giveUpMs,
        leaseMs: config.alerts.deliveryLeaseMs,
        ...(SHARED ? {} : { holdWhileLateMs: 0 }),
        ...(CLAIM_PER_CHANNEL ? { perChannel: CLAIM_PER_CHANNEL } : {}),
      },
    });
    const sql = PARTS
      ? timeMethods(outbox, [
          'claimDue',
          'extendClaims',
          'markPosting',
          'markDelivered',
          'releaseChannel',
          'requeue',
          'markFailed',
        ])
      : undefined;
    // Rendering a card saves its Details button's state and reads its saved search: SQLite too.
    const rendering = PARTS ? timeMethods(kinds, ['render']) : undefined;

    globalThis.gc?.();
    const baseline = process.memoryUsage();
    let peakRss = 0;
    let peakHeap = 0;
    const sample = () => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    };
    const sampler = setInterval(sample, 50);
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const load = os.loadavg()[0]!;
    const cpu = process.cpuUsage();
    const started = performance.now();
    const report = await drainer.drain();
    const wallMs = performance.now() - started;
    const cpuMs = ((u) => (u.user + u.system) / 1000)(process.cpuUsage(cpu));
    loop.disable();
    clearInterval(sampler);
    sample();
    await drainer.stop();
    globalThis.gc?.();
    const after = process.memoryUsage();

    const seen = await slack.posts(CHANNEL_PREFIX, { ids: true });
    const expected = store.sqlite
      .prepare(`select id, origin, dedupe_key as dedupeKey from outbox where place like 'slack:T1:${CHANNEL_PREFIX}%'`)
      .all() as {
      id: number;
      origin: string;
      dedupeKey: string;
    }[];
    const ids = new Set(seen.ids);
    const missing = expected.filter((r) => !ids.has(deliveryIdOf(r))).length;
    const stats = await outbox.stats();
    const perPost = (ms: number) => `${(ms / report.delivered).toFixed(2)} ms`;
    const exactlyOnce =
      seen.calls === ENTRIES &&
      seen.ok === ENTRIES &&
      seen.distinct === ENTRIES &&
      seen.duplicates.length === 0 &&
      missing === 0;
    const ratio = wallMs / FLOOR_MS;
    const row = {
      name: `Delivery: ${ENTRIES.toLocaleString('en')} outbox entries over ${CHANNELS} Slack channels through the real drainer and SlackPoster to the fake Slack (${SLACK_LATENCY_MS} ms latency), one message a second per channel, ${SHARED ? 'on the loop chat shares' : 'as the delivery thread runs it'}`,
      figure: `${report.delivered.toLocaleString('en')} posted, exactly once: ${exactlyOnce ? 'yes' : 'NO'} (${seen.distinct.toLocaleString('en')} distinct delivery ids at the fake); ${s(wallMs)} against a floor of ${s(FLOOR_MS)} (ratio ${ratio.toFixed(3)}); ${(cpuMs / report.delivered).toFixed(2)} ms of CPU per post (the floor leaves ${(FLOOR_MS / ENTRIES).toFixed(2)}); peak RSS ${mb(process.resourceUsage().maxRSS * 1024)}`,
      goal: 'each posted once; within 10 % of the floor',
      pass: exactlyOnce && ratio <= 1.1,
    };
    const figures = {
      'entries / channels': `${queued} / ${CHANNELS} (${PER_CHANNEL} each), fake Slack latency ${SLACK_LATENCY_MS} ms, ${INTERVAL_MS} ms spacing, ${SHARED ? 'posts held while the loop runs late (chat shares it)' : 'as in the delivery thread (no chat on its loop)'}${PER_CHANNEL ? `, perPlace ${PER_CHANNEL} (BENCH_DELIVERY_PER_CHANNEL)` : ''}`,
      'entries delivered': `${report.delivered} (outbox: ${stats.delivered} delivered, ${stats.pending} pending, ${stats.failed} parked; retried ${report.retried})`,
      'wall time': s(wallMs),
      floor: `${s(FLOOR_MS)} = (${PER_CHANNEL} - 1) × ${INTERVAL_MS} ms spacing + ${SLACK_LATENCY_MS} ms latency of the last post`,
      'ratio to floor': `${(wallMs / FLOOR_MS).toFixed(3)} (goal: within 10 %, ≤ 1.100)`,
      'posts per second': `${Math.round(ENTRIES / (wallMs / 1000))} (floor rate ${Math.round(ENTRIES / (FLOOR_MS / 1000))})`,
      'exactly once (at the fake)': `${exactlyOnce ? 'yes' : seen.duplicates.length === 0 ? 'none twice, but not all within the drain' : 'NO: posted twice'}: ${seen.calls} chat.postMessage calls, ${seen.ok} ok, ${seen.distinct} distinct delivery ids, ${seen.duplicates.length} repeated, ${missing} not posted by the drain's end${
        missing
          ? ` (${stats.pending} pending: an attempt failed and waits; a "maybe posted" one is looked for ${SLACK_SETTLE_MS / 60_000} min later)`
          : ''
      }`,
      'closest posts in one channel': `${seen.minGapMs} ms apart (as answered by the fake)`,
      'peak RSS (this bench process)': `${mb(process.resourceUsage().maxRSS * 1024)} (OS maxRSS; during the drain: baseline ${mb(baseline.rss)}, peak ${mb(peakRss)})`,
      'heap used': `baseline ${mb(baseline.heapUsed)}, peak ${mb(peakHeap)} during the drain (garbage included), ${mb(after.heapUsed)} after it and a full GC`,
      'CPU of this process during the drain': `${s(cpuMs)} (${(cpuMs / report.delivered).toFixed(2)} ms per post; the floor leaves ${(FLOOR_MS / ENTRIES).toFixed(2)} ms of one core per post), ${Math.round((100 * cpuMs) / wallMs)} % of the wall time`,
      'CPU time against the floor': `${(cpuMs / FLOOR_MS).toFixed(2)} (over 1: the drain needs more CPU than the floor leaves, so even an idle host cannot reach the floor; GC's helper threads are counted too)`,
      host: `${os.cpus().length} CPUs, load average ${load.toFixed(1)} when the drain started (other work on the host slows the wall time)`,
      'event-loop delay during the drain': loopDelay(loop),
      ...(sql && rendering
        ? {
            'CPU per post, by part': `${perPost(sql.cpuMs())} outbox calls (SQLite through drizzle), ${perPost(rendering.cpuMs())} rendering (a saved search read, a button state written), ${perPost(cpuMs - sql.cpuMs() - rendering.cpuMs())} the rest (WebClient and HTTP, the drainer, GC, this timing itself)`,
            'synchronous time: outbox calls': sql.describe().join('; '),
            'synchronous time: rendering': `${rendering.describe().join('')} (a card: its saved search read, its Details button's state saved)`,
            'calls over 20 ms (GC pauses fall in them too)': [...sql.long(), ...rendering.long()].join('; ') || 'none',
          }
        : {
            'CPU per post, by part':
              'BENCH_DELIVERY_PARTS=1 times the outbox calls and the rendering one by one (the timing costs CPU, so it is off here)',
          }),
      'warnings / errors logged':
        logger.problems.length === 0
          ? 0
          : `${logger.problems.length}: ${[...new Set(logger.problems)].slice(0, 3).join(' | ')}`,
    };
    return { figures, rows: [row] };
  } finally {
    store.close();
    await slack.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

childMain(CHILD_FLAG, measure);
