// Ack latency of signed slash commands on loopback: 50 a second for 20 seconds against the real Bolt app,
// with the sandbox as the service and the fake Slack Web API receiving the replies.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startManzil } from '../src/app/index.js';
import { createSandbox } from '../src/sandbox/index.js';
import { startFakeSlack } from '../test/fakes/slack-api.js';
import { signedPost, slashCommand } from '../test/fakes/slack-sign.js';
import { ms, percentile } from './stats.js';
import type { BenchResult } from './doc.js';

const RATE = 50;
const SECONDS = Number(process.env.BENCH_ACK_SECONDS ?? 20);
const SECRET = 'bench-signing-secret';

const TEXTS = [
  'marina 2br under 150k',
  'downtown 1br',
  'business bay studio',
  'jvc 1-2 br furnished',
  'marina 3br pool',
];

/**
 * Sends RATE signed /rent commands a second for `seconds` to a Bolt app's /slack/events, each on schedule whatever
 * the answers before it: the ack latencies (ms, sorted) of the 200s, each command's (in the order sent), the failures
 * (no answer within `giveUpMs` included), and the window (Date.now()).
 */
export async function sendCommands(o: {
  url: string;
  secret: string;
  seconds: number;
  responseUrl: (i: number) => string;
  giveUpMs?: number;
}) {
  const latencies: number[] = [];
  /** By command, in the order sent: its ack latency, or -1 when it failed. */
  const series: number[] = [];
  let failed = 0;
  const pending: Promise<void>[] = [];
  const startedAt = Date.now();
  const started = performance.now();
  for (let i = 0; i < RATE * o.seconds; i++) {
    const due = started + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(
      (async () => {
        const t = performance.now();
        const post = signedPost(
          o.url,
          o.secret,
          slashCommand('/rent', TEXTS[i % TEXTS.length]!, o.responseUrl(i)),
        ).catch(() => undefined);
        // An ack later than `giveUpMs` counts as failed (Slack itself gives up after 3 s), so the window stays bounded.
        const res =
          o.giveUpMs === undefined
            ? await post
            : await Promise.race([
                post,
                new Promise<undefined>((r) => setTimeout(() => r(undefined), o.giveUpMs).unref()),
              ]);
        const latency = performance.now() - t;
        series[i] = res?.status === 200 ? latency : -1;
        if (res?.status === 200) latencies.push(latency);
        else failed++;
      })(),
    );
  }
  await Promise.all(pending);
  latencies.sort((a, b) => a - b);
  return { sent: RATE * o.seconds, latencies, series, failed, startedAt, endedAt: Date.now() };
}

const SENDER_FLAG = '--ack-sender-child';

/**
 * sendCommands from a process of its own, as Slack sends them: a loop stalled in the measured process then delays the
 * acks, not the sending of the commands (which would hide the stall from the latencies).
 */
export async function sendCommandsFromChild(o: {
  url: string;
  secret: string;
  seconds: number;
  responseUrlBase: string;
  giveUpMs?: number;
}): Promise<Awaited<ReturnType<typeof sendCommands>>> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), SENDER_FLAG, JSON.stringify(o)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: process.env,
    },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const last = out.trim().split('\n').at(-1) ?? '';
  if (code !== 0 || !last.startsWith('{')) throw new Error(`ack sender failed (exit ${code}): ${out.slice(-1_000)}`);
  return JSON.parse(last) as Awaited<ReturnType<typeof sendCommands>>;
}

if (process.argv.includes(SENDER_FLAG)) {
  const o = JSON.parse(process.argv.at(-1)!) as {
    url: string;
    secret: string;
    seconds: number;
    responseUrlBase: string;
    giveUpMs?: number;
  };
  void sendCommands({ ...o, responseUrl: (i) => `${o.responseUrlBase}/response/b${i}` }).then((r) => {
    process.stdout.write(`${JSON.stringify(r)}\n`);
    process.exit(0);
  });
}

export async function run(): Promise<BenchResult> {
  const sandbox = createSandbox();
  await sandbox.listen();
  const slack = await startFakeSlack();
  const manzil = await startManzil({
    env: {
      UAE_API_KEY: sandbox.key,
      UAE_API_BASE_URL: sandbox.url,
      SLACK_BOT_TOKEN: 'xoxb-test',
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      MANZIL_DB_PATH: join(mkdtempSync(join(tmpdir(), 'manzil-bench-')), 'm.db'),
      LOG_LEVEL: 'error',
      // Every command is one person's: searched, not refused past the hourly limit, so the load stays what it measures.
      PERSON_SEARCHES_PER_HOUR: '100000',
    },
    host: '127.0.0.1',
    writeLog: () => {},
  });
  const url = `http://127.0.0.1:${manzil.slackPort}/slack/events`;
  const { latencies, failed } = await sendCommands({
    url,
    secret: SECRET,
    seconds: SECONDS,
    responseUrl: (i) => slack.responseUrl(`b${i}`),
  });
  await slack.waitFor(() => slack.responses().length >= latencies.length, 30_000).catch(() => {});
  const figures = {
    'commands sent': RATE * SECONDS,
    'acks 200': latencies.length,
    'acks failed': failed,
    'replies delivered': slack.responses().length,
    'ack p50': ms(percentile(latencies, 50)),
    'ack p99': ms(percentile(latencies, 99)),
    'ack max': ms(latencies.at(-1) ?? NaN),
  };
  const p99 = percentile(latencies, 99);
  const sent = RATE * SECONDS;
  const row = {
    name: `Slack ack of signed slash commands, ${RATE}/s for ${SECONDS} s on loopback`,
    figure: `p50 ${ms(percentile(latencies, 50))}, p99 ${ms(p99)}, ${latencies.length.toLocaleString('en')} of ${sent.toLocaleString('en')} acked and ${slack.responses().length.toLocaleString('en')} answered`,
    goal: 'p99 under 50 ms, every command acked',
    pass: p99 < 50 && latencies.length === sent,
  };
  await manzil.stop();
  await slack.close();
  await sandbox.close();
  return { figures, rows: [row] };
}
