// `manzil start --console` with Slack configured: one process serves Slack and the terminal chat at once, and
// quitting the terminal chat stops both cleanly.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';
import { signedPost, slashCommand } from '../fakes/slack-sign.js';
import { SGR } from '../console/spawn-chat.js';
import { manzilArgs } from '../support/child.js';

const SECRET = 'console-alongside-secret-01';
let slack: FakeSlack;

beforeAll(async () => {
  slack = await startFakeSlack();
});
afterAll(async () => {
  await slack.close();
});

describe('manzil start --console', () => {
  it('answers in the terminal while Slack is served, and quit stops both', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'manzil-console-'));
    const child = spawn(process.execPath, manzilArgs('start', '--console'), {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: dir,
        MANZIL_FROM_SOURCE: '1',
        MANZIL_SANDBOX: '1',
        MANZIL_DB_PATH: join(dir, 'm.db'),
        MANZIL_LOG_FILE: '-',
        LOG_LEVEL: 'info',
        PORT: '0',
        SLACK_BOT_TOKEN: 'xoxb-test',
        SLACK_SIGNING_SECRET: SECRET,
        SLACK_API_URL: slack.apiUrl,
      },
    });
    let text = '';
    const seen = new Set<() => void>();
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      for (const check of seen) check();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const exited = once(child, 'exit');
    const waitFor = (pattern: RegExp, ms = 20_000) =>
      new Promise<RegExpExecArray>((resolve, reject) => {
        const check = () => {
          const m = pattern.exec(text.replace(SGR, ''));
          if (!m) return;
          seen.delete(check);
          clearTimeout(timer);
          resolve(m);
        };
        const timer = setTimeout(() => {
          seen.delete(check);
          reject(new Error(`timed out waiting for ${pattern} in:\n${text}`));
        }, ms);
        seen.add(check);
        check();
      });

    try {
      const port = Number(
        (
          await waitFor(
            /"port":(\d+)[^\n]*slack: serving POST \/slack\/events|slack: serving POST \/slack\/events[^\n]*"port":(\d+)/,
          )
        )
          .slice(1)
          .find(Boolean),
      );
      await waitFor(/Manzil terminal chat/);

      // The terminal answers with cards...
      child.stdin.write('rent marina\n');
      await waitFor(/== .*Dubai Marina.* ==/);

      // ...while Slack is served from the same process: a signed slash command gets its answer, and /healthz answers.
      const events = `http://127.0.0.1:${port}/slack/events`;
      const res = await signedPost(events, SECRET, slashCommand('/rent', 'marina', slack.responseUrl('c1')));
      expect(res.status).toBe(200);
      await slack.waitFor(() => slack.responses('c1').length > 0, 15_000);
      expect(JSON.stringify(slack.responses('c1').at(-1))).toMatch(/Dubai Marina/);
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

      child.stdin.write('quit\n');
      const [code] = await Promise.race([
        exited,
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still running:\n${text}`)), 10_000)),
      ]);
      expect(code).toBe(0);
      expect(text).toMatch(/"msg":"stopped"/);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 120_000);
});
