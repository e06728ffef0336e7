// Per-person limits counted in the database: two Manzil instances started by the composition root on one real Postgres
// and one property service (the sandbox on loopback). One person's searches and pages are counted across both, so two
// (or three) instances do not double (or triple) what one person may spend of the team's share; others go on.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { Button, Reply } from '../../src/views/model.js';
import { freshPostgres } from '../support/postgres.js';

const KEY = 'sk-person-limits-2525';
const CHANNEL = 'slack:T0TEAM:C0CHAT';
let sandbox: Sandbox;
let database: { url: string; drop(): Promise<void> };
const running: Manzil[] = [];

/** One instance: the live-service configuration against the shared sandbox, its state in the shared Postgres. */
async function instance(): Promise<Manzil> {
  const manzil = await startManzil({
    env: {
      UAE_API_BASE_URL: sandbox.url!,
      UAE_API_KEY: KEY,
      DATABASE_URL: database.url,
      DATABASE_POOL_SIZE: '4',
      SLACK_BOT_TOKEN: 'xoxb-test',
      SLACK_SIGNING_SECRET: 'person-limits-secret',
      MANZIL_DB_PATH: join(mkdtempSync(join(tmpdir(), 'manzil-people-')), 'unused.db'),
      LOG_LEVEL: 'error',
      ALERTS_CRON: '0 0 1 1 *',
      PERSON_SEARCHES_PER_HOUR: '4',
      PERSON_PAGES_PER_HOUR: '2',
    },
    host: '127.0.0.1',
    serve: false,
    writeLog: () => {},
  });
  running.push(manzil);
  return manzil;
}

beforeAll(async () => {
  sandbox = createSandbox({ key: KEY });
  await sandbox.listen(0, '127.0.0.1');
  database = await freshPostgres();
});
afterAll(async () => {
  for (const m of running.splice(0)) await m.stop();
  await sandbox?.close();
  await database?.drop();
});

const ask = (m: Manzil, user: string, text: string) => m.bot.handleCommand({ user, channel: CHANNEL, text });
const next = (reply: Reply): Button => {
  const found = reply.blocks.flatMap((b) => (b.kind === 'actions' ? b.buttons : [])).find((b) => /Next/.test(b.label));
  if (!found) throw new Error(`no Next button in ${reply.text}`);
  return found;
};
const RESULTS = /homes for rent in Dubai Marina/;

describe('per-person limits on Postgres, across instances', () => {
  it('counts one person’s searches and pages on every instance together; others go on', async () => {
    const a = await instance();
    const b = await instance();
    const answers = [];
    for (const [m, beds] of [
      [a, 1],
      [b, 2],
      [a, 3],
      [b, 4],
    ] as const) {
      answers.push(await ask(m, 'U0ALICE', `rent marina ${beds}br`));
    }
    for (const reply of answers) expect(reply.text).toMatch(RESULTS);
    const calls = sandbox.requests().length;

    // The fifth in the hour, on either instance: refused privately, with when to try again, and nothing is fetched.
    for (const m of [a, b]) {
      const refused = await ask(m, 'U0ALICE', 'rent marina 5br');
      expect(refused).toMatchObject({
        ephemeral: true,
        text: expect.stringMatching(/You've asked for 4 searches in the last hour.*Try again in about 60 minutes\./),
      });
    }
    expect(sandbox.requests().length).toBe(calls);
    expect((await ask(b, 'U0BOB', 'rent marina 5br')).text).toMatch(RESULTS);

    // Pages: two in the hour, one on each instance; the third is refused on either.
    expect(
      (await a.bot.handleAction({ user: 'U0ALICE', channel: CHANNEL, action: 'page', token: next(answers[0]!).token }))
        .text,
    ).toMatch(RESULTS);
    expect(
      (await b.bot.handleAction({ user: 'U0ALICE', channel: CHANNEL, action: 'page', token: next(answers[1]!).token }))
        .text,
    ).toMatch(RESULTS);
    const third = await a.bot.handleAction({
      user: 'U0ALICE',
      channel: CHANNEL,
      action: 'page',
      token: next(answers[2]!).token,
    });
    expect(third).toMatchObject({
      ephemeral: true,
      text: expect.stringMatching(/You've asked for 2 pages of results in the last hour/),
    });
  });
});
