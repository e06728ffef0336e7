// The fake Slack Web API in a process of its own, as Slack is: the 10,000 calls it records, and the work of answering
// them, are neither counted in the measured process's memory nor queued on its event loop. Controlled over IPC.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { startFakeSlack } from '../test/fakes/slack-api.js';

const CHILD_FLAG = '--fake-slack-child';

/** What the fake saw of chat.postMessage in the channels whose id starts with a prefix. */
export interface PostStats {
  /** chat.postMessage calls, and those answered ok. */
  calls: number;
  ok: number;
  /** Delivery ids (message metadata) of the posts answered ok: distinct, and those seen more than once. */
  distinct: number;
  duplicates: string[];
  /** Every distinct delivery id, when asked for. */
  ids?: string[];
  /** Channels posted to, and the most posts in one. */
  channels: number;
  /** Date.now() when the first and the last call were answered (this host's clock, shared with the caller). */
  firstAt: number | undefined;
  lastAt: number | undefined;
  /** The smallest gap between two posts in one channel (ms). */
  minGapMs: number | undefined;
}

interface Request {
  seq: number;
  cmd: 'posts' | 'responses';
  prefix?: string;
  ids?: boolean;
}

export interface FakeSlackProcess {
  apiUrl: string;
  baseUrl: string;
  responseUrl(id: string): string;
  posts(channelPrefix: string, options?: { ids?: boolean }): Promise<PostStats>;
  /** Payloads accepted at response_urls. */
  responses(): Promise<number>;
  stop(): Promise<void>;
}

export async function startFakeSlackProcess(options: { latencyMs: number }): Promise<FakeSlackProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), CHILD_FLAG, String(options.latencyMs)],
    {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: process.env,
    },
  );
  const [ready] = (await once(child, 'message')) as [{ apiUrl: string; baseUrl: string }];
  let seq = 0;
  const waiting = new Map<number, (value: unknown) => void>();
  child.on('message', (m: { seq: number; value: unknown }) => {
    waiting.get(m.seq)?.(m.value);
    waiting.delete(m.seq);
  });
  const ask = <T>(req: Omit<Request, 'seq'>) =>
    new Promise<T>((resolve) => {
      const n = ++seq;
      waiting.set(n, resolve as (value: unknown) => void);
      child.send({ ...req, seq: n });
    });
  return {
    apiUrl: ready.apiUrl,
    baseUrl: ready.baseUrl,
    responseUrl: (id) => `${ready.baseUrl}/response/${encodeURIComponent(id)}`,
    posts: (prefix, o = {}) => ask<PostStats>({ cmd: 'posts', prefix, ids: o.ids === true }),
    responses: () => ask<number>({ cmd: 'responses' }),
    stop: async () => {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

async function serve(latencyMs: number): Promise<void> {
  const slack = await startFakeSlack({ latencyMs });
  // When each call was answered (after its latency), by call: the fake records calls, not their times.
  const arrivedAt: number[] = [];
  const record = slack.calls.push.bind(slack.calls);
  slack.calls.push = (...calls) => {
    for (const _ of calls) arrivedAt.push(Date.now());
    return record(...calls);
  };
  process.on('message', (req: Request) => {
    if (req.cmd === 'responses') return process.send!({ seq: req.seq, value: slack.responses().length });
    const prefix = req.prefix ?? '';
    let calls = 0;
    let ok = 0;
    let firstAt: number | undefined;
    let lastAt: number | undefined;
    const seen = new Set<string>();
    const duplicates: string[] = [];
    const lastInChannel = new Map<string, number>();
    let minGapMs: number | undefined;
    slack.calls.forEach((c, i) => {
      const channel = String(c.args.channel ?? '');
      if (c.method !== 'chat.postMessage' || !channel.startsWith(prefix)) return;
      calls++;
      const at = arrivedAt[i]!;
      firstAt ??= at;
      lastAt = at;
      const before = lastInChannel.get(channel);
      if (before !== undefined) minGapMs = Math.min(minGapMs ?? Infinity, at - before);
      lastInChannel.set(channel, at);
      if ((c.response as { ok?: boolean }).ok !== true) return;
      ok++;
      const id = String(
        (c.args.metadata as { event_payload?: { delivery_id?: unknown } } | undefined)?.event_payload?.delivery_id,
      );
      if (seen.has(id)) duplicates.push(id);
      seen.add(id);
    });
    const value: PostStats = {
      calls,
      ok,
      distinct: seen.size,
      duplicates,
      channels: lastInChannel.size,
      firstAt,
      lastAt,
      minGapMs,
      ...(req.ids ? { ids: [...seen] } : {}),
    };
    process.send!({ seq: req.seq, value });
  });
  process.on('SIGTERM', () => void slack.close().finally(() => process.exit(0)));
  process.send!({ apiUrl: slack.apiUrl, baseUrl: slack.baseUrl });
}

if (process.argv.includes(CHILD_FLAG)) void serve(Number(process.argv.at(-1)));
