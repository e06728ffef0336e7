// Ack latency of signed slash commands on loopback: 50 a second for 20 seconds against the real Bolt app,
// with the sandbox as the service and the fake Slack Web API receiving the replies.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startManzil } from '../src/main.js';
import { createSandbox } from '../src/sandbox/index.js';
import { startFakeSlack } from '../test/fakes/slack-api.js';
import { signedPost, slashCommand } from '../test/fakes/slack-sign.js';
import { ms, percentile } from './stats.js';

const RATE = 50;
const SECONDS = Number(process.env.BENCH_ACK_SECONDS ?? 20);
const SECRET = 'bench-signing-secret';

export async function run(): Promise<Record<string, string | number>> {
  const sandbox = createSandbox();
  await sandbox.listen();
  const slack = await startFakeSlack();
  const manzil = await startManzil({
    env: {
      UAE_API_KEY: sandbox.key, UAE_API_BASE_URL: sandbox.url, SLACK_BOT_TOKEN: 'xoxb-test', SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl, PORT: '0', MANZIL_DB_PATH: join(mkdtempSync(join(tmpdir(), 'manzil-bench-')), 'm.db'), LOG_LEVEL: 'error',
    },
    host: '127.0.0.1',
    writeLog: () => {},
  });
  const url = `http://127.0.0.1:${manzil.slackPort}/slack/events`;
  const texts = ['marina 2br under 150k', 'downtown 1br', 'business bay studio', 'jvc 1-2 br furnished', 'marina 3br pool'];
  const latencies: number[] = [];
  let failed = 0;
  const pending: Promise<void>[] = [];
  const started = performance.now();
  for (let i = 0; i < RATE * SECONDS; i++) {
    const due = started + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(
      (async () => {
        const t = performance.now();
        const res = await signedPost(url, SECRET, slashCommand('/rent', texts[i % texts.length]!, slack.responseUrl(`b${i}`)));
        if (res.status === 200) latencies.push(performance.now() - t);
        else failed++;
      })(),
    );
  }
  await Promise.all(pending);
  await slack.waitFor(() => slack.responses().length >= latencies.length, 30_000).catch(() => {});
  latencies.sort((a, b) => a - b);
  const figures = {
    'commands sent': RATE * SECONDS,
    'acks 200': latencies.length,
    'acks failed': failed,
    'replies delivered': slack.responses().length,
    'ack p50': ms(percentile(latencies, 50)),
    'ack p99': ms(percentile(latencies, 99)),
    'ack max': ms(latencies.at(-1) ?? NaN),
  };
  await manzil.stop();
  await slack.close();
  await sandbox.close();
  return figures;
}
