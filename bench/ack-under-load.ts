// Ack latency under load: the Slack ack bench (signed /rent commands, 50 a second, to the real Bolt app of startManzil)
// while, in the same process and on its one database, Manzil's own poller runs over bench/alerts.ts's 10,000 saved
// searches (the sandbox in its own process, 50 ms added to every request, a day of market moves before each run so
// that runs write many outbox rows) and Manzil's own drainer delivers bench/delivery.ts's 10,000 entries over 500
// channels to the fake Slack (its own process, 20 ms per call). The commands come from a process of their own, as
// Slack's do, so a stalled event loop here shows in the acks. Poller runs follow each other until the ack window
// closes. Event-loop delay, and the synchronous time of the store calls (SQLite) that block it, are measured in the
// window.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { RunReport } from '../src/alerts/index.js';
import { startManzil } from '../src/app/index.js';
import { serviceKey } from '../src/store/index.js';
import { LATENCY_MS as SANDBOX_LATENCY_MS, saveSearches } from './alerts.js';
import { childMain, runInChild, timeMethods } from './child.js';
import type { BenchResult } from './doc.js';
import {
  CHANNEL_PREFIX,
  CHANNELS,
  ENTRIES,
  SLACK_LATENCY_MS,
  keepingLogger,
  loopDelay,
  queueDeliveries,
  sampleListings,
  saveDeliverySearches,
} from './delivery.js';
import { startFakeSlackProcess } from './fake-slack-process.js';
import { sendCommandsFromChild } from './slack-ack.js';
import { startSandboxProcess } from './sandbox-process.js';
import { ms, percentile } from './stats.js';

const CHILD_FLAG = '--ack-under-load-child';
const SECRET = 'bench-signing-secret';
const KEY = 'bench-key';
/** Shorter than the unloaded bench's 20 s so that the drain (about 20 s at best) surely spans it. */
const SECONDS = Number(process.env.BENCH_ACK_LOAD_SECONDS ?? 15);
/** The drain is waited for this long after the window, to report its time; it is stopped after that. */
const DRAIN_WAIT_MS = 20_000;
/** A command not acked within this long counts as failed (Slack gives up after 3 s): the window stays bounded. */
const GIVE_UP_MS = 10_000;
/** Which load runs during the window: both (the bench), or one of them alone to tell their shares apart. */
const LOAD = (process.env.BENCH_ACK_LOAD ?? 'both') as 'both' | 'drain' | 'poller' | 'none';
const THREAD = process.env.BENCH_ACK_THREAD !== 'off';

export async function run(): Promise<BenchResult> {
  return runInChild(new URL(import.meta.url), CHILD_FLAG);
}

/** The latencies in slices of `n` commands (in the order sent), each sorted. */
const bySlice = (series: number[], n: number) =>
  Array.from({ length: Math.ceil(series.length / n) }, (_, k) =>
    series
      .slice(k * n, (k + 1) * n)
      .filter((x) => x >= 0)
      .sort((a, b) => a - b),
  );

/** A log line's message (JSON lines), for counting warnings by kind. */
const messageOf = (line: string) => {
  try {
    return String((JSON.parse(line) as { msg?: unknown }).msg);
  } catch {
    return line.slice(0, 120);
  }
};

const countBy = (lines: string[]) => {
  const n = new Map<string, number>();
  for (const l of lines) n.set(l, (n.get(l) ?? 0) + 1);
  return [...n].sort((a, b) => b[1] - a[1]).map(([l, k]) => `${k}× ${l}`);
};

const sec = (t: number, zero: number) => `${((t - zero) / 1000).toFixed(1)} s`;

async function measure(): Promise<BenchResult> {
  const sandbox = await startSandboxProcess(KEY);
  const slack = await startFakeSlackProcess({ latencyMs: SLACK_LATENCY_MS });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manzil-bench-ack-load-'));
  const logged = keepingLogger();
  const manzil = await startManzil({
    env: {
      UAE_API_KEY: KEY,
      UAE_API_BASE_URL: sandbox.url,
      SLACK_BOT_TOKEN: 'xoxb-test',
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      MANZIL_DB_PATH: path.join(dir, 'm.db'),
      LOG_LEVEL: 'warn',
      // The bench starts the poller's runs itself; the schedule never fires during it.
      ALERTS_CRON: '0 0 1 1 *',
      // Every command is one person's: searched, not refused past the hourly limit, so the load stays what it measures.
      PERSON_SEARCHES_PER_HOUR: '100000',
    },
    host: '127.0.0.1',
    writeLog: (line) => logged.problems.push(messageOf(line)),
    // As `manzil start` runs it: the drainer, the poller and the digests in the delivery thread (BENCH_ACK_THREAD=off:
    // here).
    deliveryThread: THREAD,
  });
  const pollerOn = LOAD === 'both' || LOAD === 'poller';
  let windowOver = !pollerOn;
  let poller: Promise<void> | undefined;
  try {
    const { repo, outbox, drainer } = manzil.alerts;
    // The poller's searches in channels A0…A39 of the same workspace; the delivery's in C0…C499, saved under another
    // service so that the poller leaves them alone (their cards still render with their Details buttons).
    const listings = await sampleListings(sandbox.url, KEY);
    await saveSearches(repo, sandbox.url, KEY, { service: serviceKey(sandbox.url), channelPrefix: 'slack:T1:A' });
    const deliverySearches = await saveDeliverySearches(repo, 'bench-delivery');
    // The first look primes every search, untimed; then the sandbox slows down and its market moves a day.
    const primed = await manzil.alerts.poll();
    if (primed.searches < 10_000) throw new Error(`bench: the priming run saw ${primed.searches} searches`);
    await sandbox.control('POST', 'faults', { latencyMs: SANDBOX_LATENCY_MS, count: 1_000_000 });
    await sandbox.control('POST', 'advance?minutes=1440');

    // A second of commands first, untimed: the first ones compile and warm the command path (a few hundred ms).
    await sendCommandsFromChild({
      url: `http://127.0.0.1:${manzil.slackPort}/slack/events`,
      secret: SECRET,
      seconds: 1,
      responseUrlBase: slack.baseUrl,
    });

    const sql = timeMethods(outbox, [
      'claimDue',
      'extendClaims',
      'markPosting',
      'markDelivered',
      'releaseChannel',
      'requeue',
      'markFailed',
      'stats',
    ]);
    const pollerSql = timeMethods(repo, ['commitRuns', 'due', 'seen']);
    globalThis.gc?.();

    // The load: the deliveries queued (one synchronous batch, as a run's commit would) and the drainer woken; poller
    // runs.
    const t0 = Date.now();
    const withDrain = LOAD === 'both' || LOAD === 'drain';
    if (withDrain) await queueDeliveries(outbox, deliverySearches, listings);
    const queuedAt = Date.now();
    drainer.poke();
    const runs: { start: number; end: number; report: RunReport }[] = [];
    let pollerStartedAt = 0;
    poller = (async () => {
      while (!windowOver) {
        const start = (pollerStartedAt = Date.now());
        const report = await manzil.alerts.poll();
        runs.push({ start, end: Date.now(), report });
        if (!windowOver) await sandbox.control('POST', 'advance?minutes=1440');
      }
    })();

    // The window opens once the drain has started posting.
    while (withDrain && (await slack.posts(CHANNEL_PREFIX)).ok === 0) await new Promise((r) => setTimeout(r, 100));
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    sql.reset();
    pollerSql.reset();
    const cpu = process.cpuUsage();
    const acks = await sendCommandsFromChild({
      url: `http://127.0.0.1:${manzil.slackPort}/slack/events`,
      secret: SECRET,
      seconds: SECONDS,
      responseUrlBase: slack.baseUrl,
      giveUpMs: GIVE_UP_MS,
    });
    const cpuMs = ((u) => (u.user + u.system) / 1000)(process.cpuUsage(cpu));
    loop.disable();
    windowOver = true;
    const inWindow = await slack.posts(CHANNEL_PREFIX);
    const window = { start: acks.startedAt, end: acks.endedAt };
    const storeLine = [...sql.describe(), ...pollerSql.describe()].join('; ');
    const longCalls =
      [...sql.long(window.start, window.end), ...pollerSql.long(window.start, window.end)].join('; ') || 'none';

    // A run still going at the window's end covers it; it is not waited for (the stop below cuts it short).
    const running = pollerOn && (runs.length === 0 || runs.at(-1)!.end < window.end) ? pollerStartedAt : undefined;
    // How long the drain took under this load (bounded wait).
    const deadline = Date.now() + DRAIN_WAIT_MS;
    let done = inWindow;
    while (withDrain && done.ok < ENTRIES && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      done = await slack.posts(CHANNEL_PREFIX);
    }
    const drainEnd = done.ok >= ENTRIES ? done.lastAt! : undefined;

    const drainStart = inWindow.firstAt ?? NaN;
    const drainCovered = drainStart <= window.start && inWindow.ok < ENTRIES;
    const pollerSpans = [
      ...runs.map(
        (r) =>
          `${sec(r.start, t0)}–${sec(r.end, t0)} (${r.report.calls} calls, ${r.report.failedQueries} queries failed, ${r.report.queued} rows queued)`,
      ),
      ...(running !== undefined ? [`${sec(running, t0)}– still running at the window's end`] : []),
    ];
    const starts = [...runs.map((r) => r.start), ...(running !== undefined ? [running] : [])];
    const gaps = runs.slice(0, starts.length - 1).map((r, i) => starts[i + 1]! - r.end);
    const pollerCovered =
      starts.length > 0 && starts[0]! <= window.start && (running !== undefined || runs.at(-1)!.end >= window.end);
    const l = acks.latencies;
    // Percentiles over every command sent: one not acked within GIVE_UP_MS counts as the slowest.
    const all = acks.series.map((x) => (x < 0 ? Infinity : x)).sort((a, b) => a - b);
    const at = (p: number) => ((x) => (x === Infinity ? `> ${GIVE_UP_MS} ms (no ack)` : ms(x)))(percentile(all, p));
    const row = {
      name: `Slack acks (50/s for ${SECONDS} s, from another process) while a 10,000-search poller run and a ${ENTRIES.toLocaleString('en')}-entry delivery drain run in the same process, ${THREAD ? 'the drain and the poller in the delivery thread as `manzil start` runs them' : 'all on the main thread (BENCH_ACK_THREAD=off)'}${LOAD === 'both' ? '' : ` (BENCH_ACK_LOAD=${LOAD})`}`,
      figure: `${l.length} of ${acks.sent} acked; p50 ${at(50)}, p99 ${at(99)}, ${l.filter((x) => x > 50).length} over 50 ms; the drain ${drainEnd ? `took ${((drainEnd - drainStart) / 1000).toFixed(1)} s` : 'had not ended'}, and covered the whole window: ${drainCovered ? 'yes' : 'NO'}`,
      goal: 'p99 under 50 ms, every command acked',
      pass: percentile(all, 99) < 50 && l.length === acks.sent,
    };
    const figures = {
      load: `${LOAD}, ${THREAD ? 'the drainer and the poller in the delivery thread (as manzil start runs them)' : 'the drainer and the poller in the main thread (BENCH_ACK_THREAD=off)'}`,
      'commands sent / acks 200 / failed': `${acks.sent} / ${l.length} / ${acks.failed} (${SECONDS} s at 50/s, from a process of their own)`,
      'ack p50': at(50),
      'ack p99': `${at(99)} (goal: under 50 ms)`,
      'ack max': at(100),
      'ack p99 of the acked only': ms(percentile(l, 99)),
      'ack p99 by 5 s of sending (acked only)': bySlice(acks.series, 250)
        .map((x) => ms(percentile(x, 99)))
        .join(', '),
      'acks over 50 ms / over 3 s (Slack gives up)': `${l.filter((x) => x > 50).length} / ${l.filter((x) => x > 3_000).length + acks.failed} of ${acks.sent}`,
      'ack window (from the load start)': `${sec(window.start, t0)}–${sec(window.end, t0)}`,
      'delivery drain': `${ENTRIES} entries over ${CHANNELS} channels queued in ${queuedAt - t0} ms; first post ${sec(drainStart, t0)}, ${inWindow.ok} posted by the window's end, ${
        drainEnd
          ? `all posted at ${sec(drainEnd, t0)} (${((drainEnd - drainStart) / 1000).toFixed(1)} s of drain)`
          : `${done.ok} after ${DRAIN_WAIT_MS / 1000} s more`
      }`,
      'drain in progress over the whole window': drainCovered ? 'yes' : 'NO',
      'poller runs (10,000 searches each, from the load start)': pollerSpans.join('; ') || 'none',
      'poller in progress over the whole window': `${pollerCovered ? 'yes' : 'NO'}${gaps.length ? ` (gaps between runs: ${gaps.map((g) => `${g} ms`).join(', ')})` : ''}`,
      'event-loop delay in the window': loopDelay(loop),
      'CPU of this process in the window': `${(cpuMs / 1000).toFixed(1)} s of ${((window.end - window.start) / 1000).toFixed(1)} s (${Math.round((100 * cpuMs) / (window.end - window.start))} % of one core)`,
      [`synchronous store time in the window${THREAD ? ' (the main thread: the delivery thread blocks only itself)' : ''}`]:
        storeLine || 'none',
      'store calls over 20 ms in the window': longCalls,
      host: `${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)}`,
      'warnings / errors logged':
        logged.problems.length === 0
          ? 0
          : `${logged.problems.length}: ${countBy(logged.problems).slice(0, 4).join(' | ')}`,
    };
    return { figures, rows: [row] };
  } finally {
    windowOver = true;
    await manzil.stop();
    await poller;
    await slack.stop();
    await sandbox.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

childMain(CHILD_FLAG, measure);
