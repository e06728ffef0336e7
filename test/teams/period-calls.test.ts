// The pages a transactions reply reads for its period's figures are calls like any other: made for the team that
// asked, counted in its share of the month and on /metrics. The real composition root on a sandbox over loopback.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createTeamRepo, openStore } from '../../src/store/index.js';
import { periodTruth } from '../support/period-truth.js';

const KEY = 'sk-period-calls-2626';
const CHANNEL = 'slack:T0PERIOD:C0PERIOD';
let sandbox: Sandbox;
let manzil: Manzil;

beforeAll(async () => {
  sandbox = createSandbox({ key: KEY });
  await sandbox.listen();
  manzil = await startManzil({
    env: {
      UAE_API_KEY: KEY,
      UAE_API_BASE_URL: sandbox.url!,
      PORT: '0',
      MANZIL_DB_PATH: join(mkdtempSync(join(tmpdir(), 'manzil-period-calls-')), 'manzil.db'),
      LOG_LEVEL: 'warn',
      ALERTS_CRON: '0 0 1 1 *',
      UAE_API_BUDGET_PER_MONTH: '1000',
    },
    host: '127.0.0.1',
    writeLog: () => {},
  });
});
afterAll(async () => {
  await manzil?.stop();
  await sandbox.close();
});

/** Asks as one person of the team, from a clean request log: the reply and the transactions pages the sandbox served. */
async function askTransactions(text: string) {
  sandbox.clearRequests();
  const reply = await manzil.bot.handleCommand({ user: 'U0ASK', channel: CHANNEL, text });
  return { reply, asked: sandbox.requests().filter((r) => r.path === '/get-get-transactions') };
}

describe('the calls of a period’s figures', () => {
  it('are counted for the team that asked, every page of them', { timeout: 60_000 }, async () => {
    const truth = periodTruth(sandbox, { area: 'Dubai Marina', kind: 'rented', months: 3 });
    const { reply, asked } = await askTransactions('transactions rented dubai marina last 3 months');
    expect(reply.text).toMatch(/Rental transactions in Dubai Marina/);
    const pages = asked.length;
    // Every page of the period, the table's first among them (read once: the table's page is the period's first), and
    // the next one asked to know whether to offer Next (a full page may be the last).
    expect(truth.count).toBeGreaterThan(15);
    expect(pages).toBe(1 + Math.floor(truth.count / 15) + 1);
    const calls = sandbox.requests().length;
    const store = openStore(manzil.config.dbPath);
    try {
      expect(await createTeamRepo(store).spent('slack:T0PERIOD')).toBe(calls);
    } finally {
      store.close();
    }
    expect(await manzil.metrics.text()).toMatch(
      new RegExp(`manzil_team_upstream_calls_total\\{team="slack:T0PERIOD"\\} ${calls}\\b`),
    );
  });

  it('read the period from its first page when the table is sorted otherwise', { timeout: 60_000 }, async () => {
    const truth = periodTruth(sandbox, { area: 'Dubai Marina', kind: 'sold', months: 3 });
    const { reply, asked } = await askTransactions('transactions sold dubai marina last 3 months lowest price');
    expect(reply.text).toMatch(/Sold transactions in Dubai Marina/);
    // The table's page and the next one, by price; every page of the period, newest first.
    expect(truth.count).toBeGreaterThan(15);
    expect(asked.filter((r) => r.params.sort === 'low_price')).toHaveLength(2);
    expect(asked).toHaveLength(2 + Math.floor(truth.count / 15) + 1);
  });
});
