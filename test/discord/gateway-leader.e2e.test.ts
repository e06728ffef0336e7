// One bot token, one gateway connection, whatever the number of instances: two Manzil instances on one database and
// the fake Discord; the one that leads connects and answers, the other stands by (and posts over REST); when the
// leader stops, the other takes the gateway over within seconds and answers from then on.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { shownText, startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';
import { nodeArgs } from '../support/child.js';

const CHILD = fileURLToPath(new URL('../delivery/serve-child.ts', import.meta.url));
let fake: FakeDiscord;
const opened: Manzil[] = [];
const dbPath = join(mkdtempSync(join(tmpdir(), 'manzil-gateway-')), 'manzil.db');

beforeAll(async () => {
  fake = await startFakeDiscord();
});
afterAll(async () => {
  for (const m of opened) await m.stop();
  await fake.close();
});

async function instance(logs: string[]): Promise<Manzil> {
  const manzil = await startManzil({
    env: {
      DISCORD_TOKEN: fake.botToken,
      DISCORD_API_URL: fake.apiUrl,
      MANZIL_SANDBOX: '1',
      PORT: '0',
      MANZIL_DB_PATH: dbPath,
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      ALERTS_CRON: '0 0 1 1 *',
    },
    host: '127.0.0.1',
    writeLog: (l) => logs.push(l),
  });
  opened.push(manzil);
  return manzil;
}

const said = (logs: string[], msg: RegExp) => logs.some((l) => msg.test((JSON.parse(l) as { msg: string }).msg));

describe('the Discord gateway across instances', () => {
  it('is held by one instance; the other takes it over within seconds of the leader stopping, and answers', async () => {
    const [firstLogs, secondLogs] = [[] as string[], [] as string[]];
    const first = await instance(firstLogs);
    const second = await instance(secondLogs);
    expect(fake.sessions().identified).toBe(1);
    expect(said(firstLogs, /^leading$/)).toBe(true);
    expect(said(secondLogs, /another instance leads; standing by/)).toBe(true);

    const before = await fake.slashCommand('rent', [{ name: 'query', type: 3, value: 'marina 2br' }], {
      channelId: fake.channelId,
    });
    await fake.waitFor(
      () => fake.original(before.token)?.content !== undefined || (fake.responses(before.token).length ?? 0) > 1,
      15_000,
    );

    const stoppedAt = Date.now();
    await first.stop();
    await fake.waitFor(() => fake.sessions().identified === 2, 10_000);
    expect(Date.now() - stoppedAt).toBeLessThan(10_000);
    await fake.waitFor(() => said(secondLogs, /^leading$/), 10_000);

    const after = await fake.slashCommand('rent', [{ name: 'query', type: 3, value: 'marina 2br' }], {
      channelId: fake.channelId,
    });
    await fake.waitFor(() => shownText(fake.original(after.token)).includes('Dubai Marina'), 15_000);
    expect(fake.violations()).toEqual([]);
    expect(second.discord).toBeDefined();
  }, 120_000);

  it('is taken over within seconds from a leader killed with SIGKILL (its heartbeat gone, its lease not yet expired)', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'manzil-gateway-kill-')), 'manzil.db');
    const env = {
      DISCORD_TOKEN: fake.botToken,
      DISCORD_API_URL: fake.apiUrl,
      MANZIL_SANDBOX: '1',
      PORT: '0',
      MANZIL_DB_PATH: db,
      LOG_LEVEL: 'info',
      ALERTS_CRON: '0 0 1 1 *',
    };
    const child = spawn(process.execPath, nodeArgs(CHILD), {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', () => out.includes('{"loaded":true}') && resolve());
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
      });
      const identified = fake.sessions().identified;
      child.stdin.write('start\n');
      await fake.waitFor(() => fake.sessions().identified === identified + 1 && out.includes('"ready":true'), 20_000);
      const logs: string[] = [];
      const standby = await startManzil({
        env: { ...env, LOG_FORMAT: 'json' },
        host: '127.0.0.1',
        writeLog: (l) => logs.push(l),
      });
      opened.push(standby);
      expect(said(logs, /another instance leads; standing by/)).toBe(true);
      child.kill('SIGKILL');
      await once(child, 'exit');
      const killedAt = Date.now();
      await fake.waitFor(() => fake.sessions().identified === identified + 2, 20_000);
      // Sooner than its lease could have run out (15 s from its last renewal, at most 3 s before the kill): the dead
      // process was seen gone (no such pid on this host) and taken over at the next turn.
      expect(Date.now() - killedAt).toBeLessThan(12_000);
      // Said once its login completes, a moment after the fake counted the identify.
      await fake.waitFor(() => said(logs, /^leading$/), 10_000);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 60_000);
});
