// A command is read once (ChatCore.read): the metrics' verb, the per-person limits' cost and the bot's answer all go
// by that one reading, through a whole Manzil (the composition root's wrappers around the real Bot, the sandbox).
// What shows it: stage 1 logs a text it cannot read, and that line is written once per command, not once per reader.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';

let sandbox: Sandbox;
let manzil: Manzil;
const logs: string[] = [];
const notUnderstood = () => logs.filter((l) => l.includes('command not understood')).length;
const ask = (text: string, user = 'U1') => manzil.bot.handleCommand({ user, channel: 'console:local', text });

beforeAll(async () => {
  sandbox = createSandbox({ key: 'read-once-key-1234' });
  await sandbox.listen();
  manzil = await startManzil({
    env: {
      UAE_API_BASE_URL: sandbox.url,
      UAE_API_KEY: 'read-once-key-1234',
      MANZIL_DB_PATH: join(mkdtempSync(join(tmpdir(), 'manzil-read-once-')), 'm.db'),
      LOG_LEVEL: 'info',
      // The per-person limits on: they read what a command costs.
      PERSON_SEARCHES_PER_HOUR: '1',
    },
    writeLog: (l) => logs.push(l),
  });
});
afterAll(async () => {
  await manzil.stop();
  await sandbox.close();
});

describe('a command read once', () => {
  it('is read once for the metrics, the limits and the answer', async () => {
    const reply = await ask('gibberish that means nothing 12 34');
    expect(reply.ephemeral).toBe(true);
    expect(notUnderstood()).toBe(1);
  });

  it('handed on with its reading, as Discord does for its answer at once and its answer, is not read again', async () => {
    const req = { user: 'U2', channel: 'console:local', text: 'more gibberish 56 78' };
    const reading = manzil.bot.read(req);
    expect(reading).toEqual({ verb: 'not-understood', cost: undefined, immediate: true });
    expect(manzil.bot.immediateReply({ ...req, reading })?.ephemeral).toBe(true);
    await manzil.bot.handleCommand({ ...req, reading });
    expect(notUnderstood()).toBe(2);
  });

  it("limits a person's searches by the reading's cost, and not their help", async () => {
    expect(manzil.bot.read({ user: 'U3', channel: 'console:local', text: 'rent marina' })).toMatchObject({
      verb: 'search-rent',
      cost: 'search',
      immediate: false,
    });
    expect((await ask('rent marina', 'U3')).text).not.toMatch(/in the last hour/);
    expect((await ask('help', 'U3')).text).not.toMatch(/in the last hour/);
    expect((await ask('rent jvc', 'U3')).text).toMatch(/You've asked for 1 searche?s? in the last hour/);
  });
});
