// Issue 18, acceptance: three Manzil processes (as `manzil start` runs them, delivery thread and all) on one real
// Postgres, the sandbox and the fake Slack and Discord. 1,000 saved searches over 100 distinct queries in 100 channels,
// the market moving: the instances share each poller run (pg-boss, one job per batch of queries), each run calls the service once
// per distinct query, and every listing queued is posted exactly once. Then the gateway's holder is killed with SIGKILL
// in the middle of a run, and another instance in the middle of a post: another takes the gateway over, the searches
// they were running are run again, the post cut off is found on Slack, not sent twice, and nothing is lost.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paramsKey, type SavedQuery } from '../../src/alerts/index.js';
import { encodeSavedQuery } from '../../src/alerts/saved-query.js';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { serviceKey } from '../../src/store/service-key.js';
import { alertPosts, deliveryIdOf, SECRET } from '../delivery/helpers.js';
import { startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';
import { freshPostgres } from '../support/postgres.js';
import { nodeArgs } from '../support/child.js';

const CHILD = fileURLToPath(new URL('../delivery/serve-child.ts', import.meta.url));
const KEY = 'sk-three-instances-18';
const SEARCHES = 1_000;
const QUERIES = 100;
const CHANNELS = 100;
/**
 * Runs every 10 s: a run of 100 queries takes a few seconds here (three processes on two cores), so runs stand apart.
 */
const CRON = '*/10 * * * * *';

let sandbox: Sandbox;
let slack: FakeSlack;
let discord: FakeDiscord;
let database: { url: string; drop(): Promise<void> };
let sql: pg.Client;
let reader: Manzil;
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(async () => {
  sandbox = createSandbox({ key: KEY });
  await sandbox.listen(0, '127.0.0.1');
  // Posts take a little while, as over a network: an instance is caught in the middle of one.
  slack = await startFakeSlack({ latencyMs: 40 });
  discord = await startFakeDiscord();
  database = await freshPostgres();
  sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await reader?.stop();
  await sql?.end();
  await database?.drop();
  await discord?.close();
  await slack?.close();
  await sandbox?.close();
});

const env = (dbPath: string): Record<string, string> => ({
  UAE_API_BASE_URL: sandbox.url!,
  UAE_API_KEY: KEY,
  DATABASE_URL: database.url,
  DATABASE_POOL_SIZE: '4',
  SLACK_BOT_TOKEN: 'xoxb-test',
  SLACK_SIGNING_SECRET: SECRET,
  SLACK_API_URL: slack.apiUrl,
  DISCORD_TOKEN: discord.botToken,
  DISCORD_API_URL: discord.apiUrl,
  PORT: '0',
  MANZIL_DB_PATH: dbPath,
  LOG_LEVEL: 'info',
  LOG_FORMAT: 'json',
  ALERTS_CRON: CRON,
  // One page a query: a run's calls are its queries.
  ALERTS_MAX_PAGES: '1',
  JOBS_EXPIRE_S: '10',
});

interface Instance {
  child: ChildProcessWithoutNullStreams;
  pid: number;
  log(): string;
  ready: Promise<void>;
}

function spawnInstance(): Instance {
  const dbPath = join(mkdtempSync(join(tmpdir(), 'manzil-three-')), 'unused.db');
  const child = spawn(process.execPath, nodeArgs(CHILD), {
    env: { ...process.env, ...env(dbPath), DELIVERY_THREAD: 'on' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => {
      if (log.includes('{"loaded":true}') && !log.includes('"started"')) {
        log += '"started"';
        child.stdin.write('start\n');
      }
      if (log.includes('"ready":true')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`manzil exited (${code}) before it was ready\n${log}`)));
  });
  return { child, pid: child.pid!, log: () => log, ready };
}

const one = async <T>(text: string, values: unknown[] = []): Promise<T> => (await sql.query(text, values)).rows[0] as T;
const waitUntil = async (
  what: string,
  cond: () => Promise<boolean> | boolean,
  ms: number,
  instances: Instance[] = [],
) => {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end)
      throw new Error(`not within ${ms} ms: ${what}\n${instances.map((i) => i.log().slice(-3_000)).join('\n---\n')}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};
const alive = (i: Instance) => i.child.exitCode === null && i.child.signalCode === null;
/** The process a holder name belongs to (`<pid>-<random>`, its delivery thread `<pid>-<random>-d1`). */
const pidOf = (holder: string) => Number(holder.split('-')[0]);

/** 100 distinct queries: rent and buy, in ten channels, any number of bedrooms or one to four. */
async function distinctQueries(): Promise<SavedQuery[]> {
  const found = new Map<number, string>();
  for (const probe of ['dubai', 'marina', 'jumeirah', 'al']) {
    const res = await fetch(`${sandbox.url}/autocomplete-location?query=${probe}`, {
      headers: { 'x-gateway-key': KEY },
    });
    for (const l of ((await res.json()) as { data: { id: number; name: string }[] }).data) found.set(l.id, l.name);
  }
  const channels = [...found].slice(0, 10).map(([id, name]) => ({ id, name }));
  expect(channels).toHaveLength(10);
  const out: SavedQuery[] = [];
  for (const operation of ['search-rent', 'search-buy'] as const)
    for (const channel of channels)
      for (const bedrooms of [undefined, '1', '2', '3', '4']) {
        const params: Record<string, string> = bedrooms ? { bedrooms } : {};
        out.push({
          query: { operation, params, location: channel.name, unknownWords: [] },
          location: { id: channel.id, name: channel.name },
        });
      }
  return out;
}

/** No run under way: no tick waiting or running, no query job waiting or running. */
async function quiet(): Promise<boolean> {
  const busy = await one<{ n: string }>(
    `select count(*) as n from pgboss.job where name in ('alerts-poll', 'alerts-poll.part') and state in ('created', 'retry', 'active')`,
  );
  return busy.n === '0';
}

/**
 * The runs queued after `since`: each run's query jobs are inserted in one statement, so they share a creation time.
 */
async function runsSince(since: Date): Promise<string[][]> {
  const rows = await sql.query<{ keys: string[][] }>(
    `select array_agg(data->'keys' order by id) as keys from pgboss.job where name = 'alerts-poll.part' and created_on > $1 group by created_on order by created_on`,
    [since],
  );
  // A job's key is a batch of queries (JSON), or one query's own key.
  const queries = (k: string): string[] => (k.startsWith('[') ? (JSON.parse(k) as string[]) : [k]);
  return rows.rows.map((r) => r.keys.flat().flatMap(queries));
}

const searchCalls = () => sandbox.requests().filter((r) => r.path.startsWith('/search-')).length;
const outboxLeft = async () =>
  Number(
    (await one<{ n: string }>(`select count(*) as n from outbox where state in ('pending', 'claimed', 'sending')`)).n,
  );
const delivered = async () =>
  Number((await one<{ n: string }>(`select count(*) as n from outbox where state = 'delivered'`)).n);
const allPosts = () => Array.from({ length: CHANNELS }, (_, c) => alertPosts(slack, `C${c}`)).flat();

describe('three instances on one Postgres', () => {
  it('share every run (calls = distinct queries), post each listing once, and lose nothing to a SIGKILL mid-run or mid-post', async () => {
    // The searches, saved by a process that runs nothing: 10 in each channel, each query in 10 channels.
    reader = await startManzil({
      env: env(join(mkdtempSync(join(tmpdir(), 'manzil-three-r-')), 'unused.db')),
      serve: false,
      writeLog: () => {},
    });
    const queries = await distinctQueries();
    const service = serviceKey(sandbox.url!);
    for (let i = 0; i < SEARCHES; i++) {
      const saved = queries[i % QUERIES]!;
      const made = await reader.alerts.repo.create(
        {
          service,
          channel: `slack:T0TEST:C${Math.floor(i / (SEARCHES / CHANNELS))}`,
          owner: `U${i % 50}`,
          text: 'rent',
          query: encodeSavedQuery(saved),
          operation: saved.query.operation,
          paramsKey: paramsKey(saved),
          summary: saved.location!.name,
        },
        { perChannel: SEARCHES, perOwner: SEARCHES },
      );
      expect(made.ok).toBe(true);
    }

    const instances = [spawnInstance(), spawnInstance(), spawnInstance()];
    await Promise.all(instances.map((i) => i.ready));
    await waitUntil(
      'one instance holds the Discord gateway',
      () => discord.sessions().identified === 1,
      20_000,
      instances,
    );
    const leader = instances.find((i) => i.log().includes('"msg":"leading"'))!;
    expect(leader).toBeDefined();

    // The first look: every search primed, by the three instances together, nothing posted.
    await waitUntil(
      'every search had its first look',
      async () =>
        (await one<{ n: string }>('select count(*) as n from saved_search where primed_at is null')).n === '0',
      60_000,
      instances,
    );
    const primedBy = await sql.query<{ holder: string }>(
      `select distinct holder from job_lease where name like 'alerts-poll:%'`,
    );
    expect(new Set(primedBy.rows.map((r) => pidOf(r.holder))).size).toBeGreaterThan(1);

    // The market moves; the runs that follow find its new listings, and the instances deliver them.
    sandbox.clearRequests();
    sandbox.advance(240);
    await waitUntil(
      'the new listings were queued',
      async () => (await delivered()) + (await outboxLeft()) > 0,
      30_000,
      instances,
    );
    await waitUntil('everything queued was posted', async () => (await outboxLeft()) === 0, 60_000, instances);
    // Two whole runs from a quiet moment to the next: each queued every distinct query once, and the service was
    // called once per query of each run.
    await waitUntil('a moment between runs', quiet, 30_000, instances);
    const since = new Date();
    sandbox.clearRequests();
    await waitUntil(
      'two more runs, done',
      async () => (await runsSince(since)).length >= 2 && (await quiet()),
      40_000,
      instances,
    );
    const runs = await runsSince(since);
    for (const run of runs) {
      expect(run).toHaveLength(QUERIES);
      expect(new Set(run).size).toBe(QUERIES);
    }
    expect(searchCalls()).toBe(QUERIES * runs.length);
    const firstWave = await delivered();
    expect(firstWave).toBeGreaterThan(20);

    // The market moves again, and each query answers slowly: runs last long enough to be cut in the middle.
    sandbox.addFault({ latencyMs: 250, path: '/search-' });
    sandbox.advance(240);
    // The gateway's holder, killed while it runs queries of a run.
    await waitUntil(
      'the gateway’s holder in the middle of a run',
      async () => {
        const held = await sql.query<{ holder: string }>(
          `select holder from job_lease where name like 'alerts-poll:%' and until > $1`,
          [Date.now()],
        );
        return held.rows.some((r) => pidOf(r.holder) === leader.pid);
      },
      30_000,
      instances,
    );
    leader.child.kill('SIGKILL');
    const killedAt = Date.now();
    await waitUntil(
      'another instance took the gateway over',
      () => discord.sessions().identified === 2,
      20_000,
      instances,
    );
    expect(Date.now() - killedAt).toBeLessThan(15_000);

    // Another instance killed in the middle of a post: its entry `sending`, the message on Slack, the answer held back.
    // The market moves once more so that the posts come from the instances left.
    const others = instances.filter(alive);
    const held = slack.holdNext('chat.postMessage');
    let posting = false;
    void held.arrived.then(() => (posting = true));
    sandbox.advance(240);
    await waitUntil('a post on its way', () => posting, 90_000, instances);
    const sending = await sql.query<{ claimed_by: string }>(`select claimed_by from outbox where state = 'sending'`);
    const victim = others.find((i) => sending.rows.some((r) => pidOf(r.claimed_by) === i.pid));
    expect(victim).toBeDefined();
    victim!.child.kill('SIGKILL');
    await waitUntil('the poster is gone', () => others.filter(alive).length === 1, 10_000, instances);
    const cutAt = Date.now();
    sandbox.clearFaults();

    // The one left runs every search again and delivers everything, the post cut off included, once.
    await waitUntil(
      'every search run since the kills',
      async () =>
        Number(
          (await one<{ at: string }>("select min(last_run_at) as at from standing_order where kind = 'alert'")).at,
        ) > cutAt,
      // One instance left for all 1,000 searches, after the killed ones' parts expire: past 60 s on a loaded machine.
      120_000,
      instances,
    );
    // The post cut off waits out its 60 s claim before the one left asks Slack about it: past 90 s on a loaded machine.
    await waitUntil('everything queued was posted', async () => (await outboxLeft()) === 0, 180_000, instances);
    const total = await delivered();
    expect(total).toBeGreaterThan(firstWave);
    const posts = allPosts();
    const ids = posts.map(deliveryIdOf);
    expect(new Set(ids).size).toBe(ids.length);
    expect(posts).toHaveLength(total);
    expect(Number((await one<{ n: string }>('select count(*) as n from outbox where possible_duplicate')).n)).toBe(0);
    // Nothing lost: every listing a query shows now (asked as the poller asks it) is recorded as seen by its searches.
    const asAsked = new Map(
      sandbox
        .requests()
        .filter((r) => r.path.startsWith('/search-'))
        .map((r) => [`${r.path}:${r.params.location_id}:${r.params.bedrooms ?? ''}`, r]),
    );
    for (const saved of queries.slice(0, 20)) {
      const request = asAsked.get(
        `/${saved.query.operation}:${saved.location!.id}:${saved.query.params.bedrooms ?? ''}`,
      )!;
      const res = await fetch(`${sandbox.url}${request.path}?${new URLSearchParams(request.params).toString()}`, {
        headers: { 'x-gateway-key': KEY },
      });
      const shown = ((await res.json()) as { data: { property_id: string }[] }).data.map((l) => l.property_id);
      expect(shown.length).toBeGreaterThan(0);
      const missing = await sql.query(
        `select s.id, p.id as property from saved_search s cross join unnest($2::text[]) as p(id)
         where s.params_key = $1 and not exists (select 1 from search_seen x where x.search_id = s.id and x.property_id = p.id)`,
        [paramsKey(saved), shown],
      );
      expect(missing.rows).toEqual([]);
    }
    // The gateway answers from the instance that took it over.
    const asked = await discord.slashCommand('rent', [{ name: 'query', type: 3, value: 'marina 2br' }], {
      channelId: discord.channelId,
    });
    await discord.waitFor(
      () => discord.original(asked.token)?.content !== undefined || discord.responses(asked.token).length > 1,
      15_000,
    );
  }, 480_000);
});
