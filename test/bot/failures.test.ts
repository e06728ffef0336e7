// What a person reads when the property service or Manzil's budget gets in the way, and what the operator's log says.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { Reply } from '../../src/views/model.js';
import { roughly } from '../../src/bot/friendly-error.js';

let sandbox: Sandbox;
let basic: Sandbox;
const running: Manzil[] = [];
const logs: string[] = [];

beforeAll(async () => {
  sandbox = createSandbox({ key: 'right-key-1234' });
  await sandbox.listen();
  basic = createSandbox({ key: 'right-key-1234', plan: 'basic' });
  await basic.listen();
});
afterEach(async () => {
  while (running.length) await running.pop()!.stop();
  sandbox.clearFaults();
});
afterAll(async () => {
  await sandbox.close();
  await basic.close();
});

async function manzil(env: Record<string, string>) {
  const m = await startManzil({
    env: {
      UAE_API_BASE_URL: sandbox.url,
      UAE_API_KEY: 'right-key-1234',
      UAE_API_RETRY_ATTEMPTS: '2',
      MANZIL_DB_PATH: join(mkdtempSync(join(tmpdir(), 'manzil-f-')), 'm.db'),
      ...env,
    },
    writeLog: (l) => logs.push(l),
  });
  running.push(m);
  return m;
}
const ask = (m: Manzil, text: string) => m.bot.handleCommand({ user: 'U1', channel: 'test:1', text });
const text = (r: Reply) => r.text;

describe('waits in words', () => {
  it('says minutes under an hour and a half, hours beyond', () => {
    expect(roughly(30)).toBe('1 minute');
    expect(roughly(25 * 60)).toBe('25 minutes');
    expect(roughly(3 * 3600 + 100)).toBe('3 hours');
  });
});

describe('failures, as the person sees them', () => {
  it('says Manzil cannot sign in when the key is wrong, and logs it as an error for the operator', async () => {
    const m = await manzil({ UAE_API_KEY: 'wrong-key-5678' });
    const reply = await ask(m, '/rent marina 1br');
    expect(reply.ephemeral).toBe(true);
    expect(text(reply)).toMatch(/can't sign in to the property service/);
    expect(logs.some((l) => l.includes('"level":"error"') && l.includes('401'))).toBe(true);
    expect(logs.join('\n')).not.toContain('wrong-key-5678');
  });

  it('says an operation is outside the plan (403) rather than that nothing was found', async () => {
    const m = await manzil({ UAE_API_BASE_URL: basic.url! });
    expect(text(await ask(m, '/agents detailed marina'))).toMatch(/isn't included in Manzil's current plan/);
    expect(text(await ask(m, '/agents marina'))).toMatch(/Agents/);
  });

  it('says the id is unknown for a property that does not exist', async () => {
    const m = await manzil({});
    expect(text(await ask(m, '/property 99999999'))).toMatch(/nothing under that id/);
  });

  it('refuses politely once the daily call budget is spent, and sends nothing more', async () => {
    const m = await manzil({ UAE_API_BUDGET_PER_DAY: '2', UAE_API_BUDGET_MAX_WAIT_S: '0' });
    expect(text(await ask(m, '/rent business bay 1br'))).toMatch(/Business Bay/); // a lookup and a search: 2 calls
    sandbox.clearRequests();
    const reply = await ask(m, '/buy downtown 2br');
    // The daily window is the UTC calendar day: it opens again at the next UTC midnight.
    expect(text(reply)).toMatch(/used its property-data allowance for now\. Try again in about \d+ (minutes?|hours)\./);
    expect(sandbox.requests()).toEqual([]);
  });

  it('says the service is busy when its answers stay malformed, never "no results"', async () => {
    const m = await manzil({});
    sandbox.addFault({ malformed: true, count: 5 });
    const reply = await ask(m, '/location marina');
    expect(text(reply)).toMatch(/property service is busy/);
  });
});
