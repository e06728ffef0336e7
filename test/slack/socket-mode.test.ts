// Socket Mode: with SLACK_APP_TOKEN the real Bolt app opens a WebSocket (here to a fake Slack) instead of serving HTTP.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';
import { slashCommand } from '../fakes/slack-sign.js';
import { startFakeSocketMode, type FakeSocketMode } from '../fakes/slack-socket.js';

let sandbox: Sandbox;
let socket: FakeSocketMode;
let slack: FakeSlack;
let manzil: Manzil;

beforeAll(async () => {
  sandbox = createSandbox();
  await sandbox.listen();
  socket = await startFakeSocketMode();
  slack = await startFakeSlack({ socketModeUrl: socket.url });
  manzil = await startManzil({
    env: {
      UAE_API_KEY: sandbox.key,
      UAE_API_BASE_URL: sandbox.url,
      SLACK_BOT_TOKEN: 'xoxb-test',
      SLACK_SIGNING_SECRET: 'unused-in-socket-mode',
      SLACK_APP_TOKEN: 'xapp-test',
      SLACK_API_URL: slack.apiUrl,
      MANZIL_DB_PATH: join(mkdtempSync(join(tmpdir(), 'manzil-sm-')), 'm.db'),
    },
    writeLog: () => {},
  });
  await socket.connected;
});
afterAll(async () => {
  await manzil.stop();
  await socket.close();
  await slack.close();
  await sandbox.close();
});

describe('Socket Mode', () => {
  it('connects over the WebSocket Slack names, serves no HTTP port, acks a command and answers on its response_url', async () => {
    expect(manzil.slackPort).toBeUndefined();
    expect(slack.callsTo('apps.connections.open')).toHaveLength(1);
    const responseUrl = slack.responseUrl('sm1');
    const ack = await socket.send('slash_commands', slashCommand('/rent', 'marina 1br', responseUrl));
    expect(ack.envelope_id).toBe('env-1');
    await slack.waitFor(() => slack.responses('sm1').length > 0, 15_000);
    expect(JSON.stringify(slack.responses('sm1')[0])).toMatch(/Dubai Marina/);
  });
});
