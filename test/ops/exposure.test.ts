// Issue 25: /healthz and /metrics are not open to the world. Manzil as main wires it, read over HTTP as an operator, a
// scraper or a stranger would: the ops server on loopback by default (OPS_HOST to change it), /metrics never on Slack's
// public port unless asked, OPS_TOKEN required when set, the team label bounded, and probes that do not write a row
// each.
import Database from 'better-sqlite3';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';
import { ask, sample, tempDir } from './helpers.js';

const TOKEN = 'ops-token-4c1d9e7f2a8b6053';

let manzil: Manzil | undefined;
let slack: FakeSlack | undefined;
afterEach(async () => {
  await manzil?.stop();
  await slack?.close();
  manzil = slack = undefined;
});

/**
 * Manzil as `manzil start` builds it: no bind address passed in, so OPS_HOST alone decides where the ops server
 * listens.
 */
async function start(env: Record<string, string>) {
  const dbPath = join(tempDir(), 'manzil.db');
  const logs: string[] = [];
  manzil = await startManzil({
    env: { MANZIL_DB_PATH: dbPath, MANZIL_DEMO_TICK_S: '0', LOG_LEVEL: 'debug', ...env },
    writeLog: (l) => logs.push(l),
  });
  return { manzil, logs, dbPath };
}

/** Slack over HTTP on a free port, against the fake Slack Web API. */
async function startWithSlack(env: Record<string, string> = {}) {
  slack = await startFakeSlack({ token: 'xoxb-test-exposure' });
  return start({
    PORT: '0',
    MANZIL_SANDBOX: '1',
    SLACK_BOT_TOKEN: 'xoxb-test-exposure',
    SLACK_SIGNING_SECRET: 'exposure-signing-secret',
    SLACK_API_URL: slack.apiUrl,
    ...env,
  });
}

/** Counts the writes of /healthz's probe in the database file itself: triggers on its row of job_lease. */
function countProbeWrites(dbPath: string): { count(): number; close(): void } {
  const db = new Database(dbPath);
  db.exec(`CREATE TABLE probe_writes (at INTEGER);
    CREATE TRIGGER probe_inserted AFTER INSERT ON job_lease WHEN NEW.name = 'healthz' BEGIN INSERT INTO probe_writes VALUES (NEW.last_run_at); END;
    CREATE TRIGGER probe_updated AFTER UPDATE ON job_lease WHEN NEW.name = 'healthz' BEGIN INSERT INTO probe_writes VALUES (NEW.last_run_at); END;`);
  return {
    count: () => (db.prepare('SELECT count(*) AS n FROM probe_writes').get() as { n: number }).n,
    close: () => db.close(),
  };
}

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });

describe('where the ops server listens', () => {
  it('binds loopback by default: 127.0.0.1 answers, another address of the machine is refused', async () => {
    const { manzil } = await start({ OPS_PORT: '0' });
    expect(manzil.opsHost).toBe('127.0.0.1');
    expect((await get(`http://127.0.0.1:${manzil.opsPort}/healthz`)).status).toBe(200);
    // 127.0.0.2 is this machine too, but not the address bound: a server on 0.0.0.0 would answer it.
    await expect(get(`http://127.0.0.2:${manzil.opsPort}/metrics`)).rejects.toThrow();
  });

  it('binds the address OPS_HOST names', async () => {
    // The test holds the port on 127.0.0.1 first, so that nothing else can answer there: Manzil binding it too (or all
    // addresses) would fail to start, and a request to 127.0.0.1 reaches the test's own server, never another's.
    const holder: Server = createServer((_req, res) => res.writeHead(418).end());
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    try {
      const port = (holder.address() as AddressInfo).port;
      const { manzil, logs } = await start({ OPS_PORT: String(port), OPS_HOST: '127.0.0.2' });
      expect(manzil.opsHost).toBe('127.0.0.2');
      expect((await get(`http://127.0.0.2:${port}/metrics`)).status).toBe(200);
      expect((await get(`http://127.0.0.1:${port}/metrics`)).status).toBe(418);
      expect(
        logs.some((l) => /ops: serving GET \/healthz and GET \/metrics/.test(l) && l.includes('"host":"127.0.0.2"')),
      ).toBe(true);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});

describe("Slack's public port", () => {
  it('answers a liveness /healthz that reads and writes nothing, and no /metrics, unless OPS_ON_SLACK_PORT asks', async () => {
    const { manzil, dbPath, logs } = await startWithSlack();
    const writes = countProbeWrites(dbPath);
    try {
      const port = manzil.slackPort!;
      expect(manzil.opsPort).toBeUndefined(); // PORT is Slack's: no ops server beside it without OPS_PORT
      expect((await get(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
      for (let i = 0; i < 20; i++) {
        const res = await get(`http://127.0.0.1:${port}/healthz`);
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ status: 'ok' }); // no teams, budgets or errors for strangers
      }
      expect(writes.count()).toBe(0);
      expect(logs.some((l) => /\/metrics and the detailed \/healthz are not served: set OPS_PORT/.test(l))).toBe(true);
    } finally {
      writes.close();
    }
  });

  it('keeps /metrics on the ops server, on loopback, when OPS_PORT is set beside Slack', async () => {
    const { manzil } = await startWithSlack({ OPS_PORT: '0' });
    expect(manzil.opsHost).toBe('127.0.0.1');
    expect((await get(`http://127.0.0.1:${manzil.slackPort}/metrics`)).status).toBe(404);
    const metrics = await get(`http://127.0.0.1:${manzil.opsPort}/metrics`);
    expect(await metrics.text()).toMatch(/^# HELP manzil_/m);
    const health = (await (await get(`http://127.0.0.1:${manzil.opsPort}/healthz`)).json()) as {
      checks: Record<string, unknown>;
    };
    expect(health.checks.database).toEqual({ ok: true });
  });

  it('serves /metrics and the detailed /healthz there with OPS_ON_SLACK_PORT=on, with a warning when no OPS_TOKEN guards them', async () => {
    const { manzil, logs } = await startWithSlack({ OPS_ON_SLACK_PORT: 'on' });
    const port = manzil.slackPort!;
    expect(await (await get(`http://127.0.0.1:${port}/metrics`)).text()).toMatch(/^# HELP manzil_/m);
    const health = (await (await get(`http://127.0.0.1:${port}/healthz`)).json()) as {
      checks: Record<string, unknown>;
    };
    expect(health.checks.database).toEqual({ ok: true });
    expect(
      logs.some(
        (l) => l.includes('"level":"warn"') && /\/metrics is served on the public Slack port without OPS_TOKEN/.test(l),
      ),
    ).toBe(true);
  });
});

describe('OPS_TOKEN', () => {
  it('is required as a bearer token on /metrics; /healthz without it tells the verdict alone; the token is never logged', async () => {
    const { manzil, logs } = await start({ OPS_PORT: '0', OPS_TOKEN: TOKEN });
    const url = (path: string) => `http://127.0.0.1:${manzil.opsPort}${path}`;

    const none = await get(url('/metrics'));
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await none.text()).toMatch(/Authorization: Bearer/);
    const wrong = await get(url('/metrics'), { authorization: `Bearer ${TOKEN.slice(0, -1)}x` });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toMatch(/manzil_/);
    const right = await get(url('/metrics'), { authorization: `Bearer ${TOKEN}` });
    expect(right.status).toBe(200);
    expect(await right.text()).toMatch(/^# HELP manzil_/m);

    const verdict = await get(url('/healthz'));
    expect(verdict.status).toBe(200);
    expect(await verdict.json()).toEqual({ status: 'ok' });
    const detailed = (await (await get(url('/healthz'), { authorization: `Bearer ${TOKEN}` })).json()) as {
      status: string;
      checks: Record<string, unknown>;
    };
    expect(detailed).toMatchObject({ status: 'ok', checks: { database: { ok: true }, budget: { ok: true } } });

    expect(
      logs.some((l) => l.includes('"level":"warn"') && /GET \/metrics refused: missing or wrong bearer token/.test(l)),
    ).toBe(true);
    expect(logs.join('\n')).not.toContain(TOKEN.slice(0, -1)); // neither the token nor the wrong one sent
  });

  it('refuses to start with a token too short to protect anything, and says why without echoing it', async () => {
    const refused = await start({ OPS_PORT: '0', OPS_TOKEN: 'letmein' }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(refused?.message).toMatch(/OPS_TOKEN is not valid \(too short: use at least 16 characters/);
    expect(refused?.message).not.toMatch(/letmein/);
  });
});

describe('the team label of /metrics', () => {
  it('has at most METRICS_MAX_TEAMS teams of its own, the rest under team="other", and loses no call', async () => {
    const { manzil } = await start({ OPS_PORT: '0', METRICS_MAX_TEAMS: '3' });
    const teams = Array.from({ length: 8 }, (_, i) => `slack:T0EXP${i}`);
    // A search of its own for each team (one already made is answered from the cache, with no call).
    for (const [i, team] of teams.entries())
      expect((await ask(manzil, `rent marina 2br under ${150 + i}k`, `${team}:C0EXP`)).text).toMatch(/Dubai Marina/);

    const text = await (await get(`http://127.0.0.1:${manzil.opsPort}/metrics`)).text();
    const labels = [...text.matchAll(/^manzil_team_upstream_calls_total\{team="([^"]+)"\} /gm)].map((m) => m[1]);
    expect(labels).toHaveLength(4);
    expect(labels).toContain('other');
    expect(labels.filter((l) => l !== 'other').every((l) => teams.includes(l!))).toBe(true);
    // Every call is still counted: the labelled teams and "other" add up to the calls made for the eight teams.
    const perTeamCalls = sample(text, 'manzil_team_upstream_calls_total');
    expect(perTeamCalls).toBeGreaterThanOrEqual(teams.length);
    expect(sample(text, 'manzil_team_upstream_calls_total', { team: 'other' })).toBeGreaterThanOrEqual(
      teams.length - 3,
    );
  });
});

describe('/healthz probes', () => {
  it('write to the database at most once in 5 seconds however many ask, and still prove it takes writes', async () => {
    const { manzil, dbPath } = await start({ OPS_PORT: '0' });
    const writes = countProbeWrites(dbPath);
    try {
      const url = `http://127.0.0.1:${manzil.opsPort}/healthz`;
      const began = Date.now();
      const asked = async () => {
        const res = await get(url);
        expect(res.status).toBe(200);
        expect(((await res.json()) as { checks: { database: unknown } }).checks.database).toEqual({ ok: true });
      };
      await Promise.all(Array.from({ length: 10 }, asked)); // ten at once (a fleet of probes)...
      for (let i = 0; i < 10; i++) await asked(); // ...then ten in a row
      const windows = Math.ceil((Date.now() - began + 1) / 5_000); // a loaded machine may take longer than one window
      expect(writes.count()).toBeGreaterThanOrEqual(1);
      expect(writes.count()).toBeLessThanOrEqual(windows);
    } finally {
      writes.close();
    }
  });
});
