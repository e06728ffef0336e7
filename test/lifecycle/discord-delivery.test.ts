// A stop waits for a Discord answer to be delivered, not only computed: the composition root with Discord on the
// embedded sandbox (MANZIL_SANDBOX=1), the real discord.js client logged in to the fake Discord, a slow upstream
// (sandbox latency) and a slow edit of the deferred reply (the fake holds it). The stop begins while it is in flight.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { shownText, startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';

let fake: FakeDiscord;
let manzil: Manzil;

beforeAll(async () => {
  fake = await startFakeDiscord();
  manzil = await startManzil({
    env: {
      DISCORD_TOKEN: fake.botToken,
      DISCORD_API_URL: fake.apiUrl,
      MANZIL_SANDBOX: '1',
      PORT: '0',
      SHUTDOWN_TIMEOUT_S: '10',
      MANZIL_DB_PATH: join(mkdtempSync(join(tmpdir(), 'manzil-discord-stop-')), 'manzil.db'),
    },
    host: '127.0.0.1',
    writeLog: () => {},
  });
});
afterAll(async () => {
  await manzil.stop();
  await fake.close();
});

describe('a stop with a Discord command in flight', () => {
  it('answers a command deferred before the stop, and waits until the reply has been edited with it', async () => {
    manzil.sandbox!.addFault({ latencyMs: 600, count: 1 }); // the upstream is slow
    // The stop begins after the bot deferred the reply but before the command reached the core.
    const deferral = fake.holdNext('POST', /\/interactions\/\d+\/[^/]+\/callback$/);
    const edit = fake.holdNext('PATCH', /\/messages\/@original$/); // and Discord is slow to take the answer
    const { token } = await fake.slashCommand('rent', [{ name: 'query', type: 3, value: 'marina 2br' }], {
      channelId: fake.channelId,
    });
    await deferral.arrived;
    let stoppedAt = 0;
    const stopped = manzil.shutdown('SIGTERM').then(() => (stoppedAt = Date.now()));
    deferral.release();

    await edit.arrived;
    // Discord is still taking the answer: the interaction is still counted in flight, so the stop's first step (waiting
    // for the requests in flight) cannot have ended, and the stop is still waiting.
    expect(manzil.lifecycle.inFlight.size).toBe(1);
    expect(stoppedAt).toBe(0);
    const releasedAt = Date.now();
    edit.release();
    await stopped;
    expect(stoppedAt).toBeGreaterThanOrEqual(releasedAt);
    expect(shownText(fake.original(token))).toMatch(/for rent in Dubai Marina/);
  });
});
