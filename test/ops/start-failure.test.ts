// A start that fails after the configuration was accepted: a platform refuses the login, or the port is taken. The
// operator reads one plain line and the process exits 1 at once (nothing left open keeps it alive), never a stack
// trace and never the token.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';
import { tempDir } from './helpers.js';
import { manzilArgs } from '../support/child.js';

async function start(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const cwd = tempDir();
  const child = spawn(process.execPath, manzilArgs('start'), {
    cwd,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: cwd,
      MANZIL_FROM_SOURCE: '1',
      MANZIL_DB_PATH: join(cwd, 'm.db'),
      MANZIL_SANDBOX: '1',
      LOG_FORMAT: 'json',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  // A process kept alive by what it opened is killed (code null). The bound only tells that from a start that ends: a
  // start from source on a loaded machine took past 15 s.
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, stderr };
}

let fake: FakeDiscord;
let slack: FakeSlack;
beforeAll(async () => {
  fake = await startFakeDiscord();
  slack = await startFakeSlack();
});
afterAll(async () => {
  await fake.close();
  await slack.close();
});

describe('a start that fails after the configuration was accepted', { timeout: 90_000 }, () => {
  it('a Discord token Discord refuses: one line saying so, exit 1, no stack, no token', async () => {
    const wrong = `${fake.botToken.slice(0, -4)}XXXX`;
    const r = await start({ DISCORD_TOKEN: wrong, DISCORD_API_URL: fake.apiUrl, PORT: '0' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Manzil could not start: discord: login failed \(.*(401|invalid token).*\)$/m);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(r.stderr).not.toContain(wrong);
  });

  it('a Slack port already in use: one line naming the port, exit 1', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const r = await start({
        SLACK_BOT_TOKEN: 'xoxb-start-failure',
        SLACK_SIGNING_SECRET: 'start-failure-secret',
        SLACK_API_URL: slack.apiUrl,
        PORT: String(port),
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^Manzil could not start: .*(EADDRINUSE|in use).*${port}`, 'm'));
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stderr).not.toContain('start-failure-secret');
    } finally {
      taken.close();
    }
  });
});
