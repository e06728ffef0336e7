// `/alerts` and `/digest` on Discord go to the core as the command their options say, with no text in between
// (issue 37): the real discord.js client, logged in to the fake Discord, over the core the composition root builds
// (the sandbox as the property service, SQLite in a temp dir). The core the client talks to is the real one, seen
// through a window that keeps each request, so the test can read what arrived.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiscordApp, type DiscordApp } from '../../adapters/discord/app.js';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { createLogger } from '../../src/log.js';
import { delegateTo, type CommandRequest } from '../../src/ports/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { startFakeDiscord, type DiscordJson, type FakeDiscord } from '../fakes/discord.js';

const KEY = 'sk-discord-structured-4141';
const SUBCOMMAND = 1;
const STRING = 3;
const INTEGER = 4;
const OWNER = '1180000000000000041';
let sandbox: Sandbox;
let fake: FakeDiscord;
let manzil: Manzil;
let app: DiscordApp;
/** Every command request the Discord client handed the core, in order. */
const arrived: CommandRequest[] = [];

beforeAll(async () => {
  sandbox = createSandbox({ key: KEY });
  await sandbox.listen();
  fake = await startFakeDiscord();
  // Manzil without a platform of its own: the Discord client below is given its core.
  manzil = await startManzil({
    env: {
      UAE_API_KEY: KEY,
      UAE_API_BASE_URL: sandbox.url!,
      UAE_API_RETRY_ATTEMPTS: '2',
      PORT: '0',
      MANZIL_DB_PATH: join(mkdtempSync(join(tmpdir(), 'manzil-discord-structured-')), 'manzil.db'),
      LOG_LEVEL: 'warn',
      SHUTDOWN_TIMEOUT_S: '0.5',
    },
    host: '127.0.0.1',
    writeLog: () => {},
  });
  const core = manzil.bot;
  app = createDiscordApp({
    bot: {
      ...delegateTo(core),
      handleCommand: (req) => {
        arrived.push(req);
        return core.handleCommand(req);
      },
    },
    token: fake.botToken,
    apiUrl: fake.apiUrl,
    logger: createLogger({ level: 'warn', write: () => {} }),
  });
  await app.start();
  await fake.ready();
}, 30_000);
afterAll(async () => {
  await app?.stop();
  await manzil?.stop();
  await fake?.close();
  await sandbox?.close();
});

const string = (name: string, value: string) => ({ name, type: STRING, value });
const sub = (name: string, options: unknown[] = []) => [{ name, type: SUBCOMMAND, options }];
const numbered = (name: string, n: number) => sub(name, [{ name: 'number', type: INTEGER, value: n }]);

/** Runs a slash command; resolves with what the person sees (the last answer's text) and the request that arrived. */
async function slash(name: string, options: unknown[]): Promise<{ text: string; request: CommandRequest }> {
  const before = arrived.length;
  const { token } = await fake.slashCommand(name, options, { user: OWNER });
  const answered = () =>
    fake
      .responses(token)
      .filter((r) => r.kind === 'edit' || r.kind === 'followup' || (r.kind === 'callback' && r.type === 4));
  await fake.waitFor(() => answered().length > 0, 15_000);
  const last = answered().at(-1)!;
  const body: DiscordJson = last.kind === 'edit' ? (fake.original(token) ?? last.body) : last.body;
  return { text: JSON.stringify(body), request: arrived.slice(before)[0]! };
}

/** The reply to the same command typed (as Slack or the terminal send it), through the same core. */
const typed = (text: string) =>
  manzil.bot.handleCommand({ user: OWNER, channel: `discord:${fake.guildId}:${fake.channelId}`, text });

describe('/alerts from its options', () => {
  it('add arrives as the search it names, saves, and says the command that saves it typed', async () => {
    const { text, request } = await slash('alerts', sub('add', [string('query', 'rent marina 2br')]));
    expect(request.order).toEqual({ kind: 'alert', sub: 'add', search: 'rent marina 2br' });
    expect(text).toMatch(/Saved as alert #1: 2-bedroom homes for rent in Dubai Marina/);
    expect(text).toContain('Typed: `/alerts add rent marina 2br`');
    // That command, typed, is the same alert: it reads back as what saved it.
    expect((await typed('/alerts add rent marina 2br')).text).toMatch(
      /^That search is already alert #1 in this channel: nothing new was saved/,
    );
  });

  it('pause 1 arrives as the number, and is answered word for word as the typed one', async () => {
    const { text, request } = await slash('alerts', numbered('pause', 1));
    expect(request.order).toEqual({ kind: 'alert', sub: 'pause', number: 1 });
    const paused = 'Paused alert #1 (2-bedroom homes for rent in Dubai Marina). `/alerts resume 1` starts it again.';
    expect(text).toContain(JSON.stringify(paused).slice(1, -1));
    expect((await typed('/alerts resume 1')).text).toBe('Resumed alert #1 (2-bedroom homes for rent in Dubai Marina).');
    expect((await typed('/alerts pause 1')).text).toBe(paused);
  });

  it('the core runs the command it is given and never reads the text beside it', async () => {
    const reply = await manzil.bot.handleCommand({
      user: OWNER,
      channel: `discord:${fake.guildId}:${fake.channelId}`,
      text: '/rent marina 3br',
      order: { kind: 'alert', sub: 'list' },
    });
    expect(reply.text).toMatch(/^Alerts in this channel \(1\):/);
  });
});

describe('/digest from its options', () => {
  it('add arrives as a list of places and the schedule as picked, and says the command typed', async () => {
    const { text, request } = await slash(
      'digest',
      sub('add', [string('places', 'Dubai Marina, Business Bay'), string('day', 'friday'), string('time', '6:30 pm')]),
    );
    expect(request.order).toEqual({
      kind: 'digest',
      sub: 'add',
      areas: ['Dubai Marina', 'Business Bay'],
      when: { every: 'week', day: 'friday', time: '6:30 pm' },
    });
    expect(text).toMatch(/Saved digest #1: Dubai Marina, Business Bay, every Friday at 18:30 \(Asia\/Dubai\)/);
    expect(text).toContain('Typed: `/digest add Dubai Marina, Business Bay weekly on friday at 6:30 pm`');
  });

  it('a place is a place: schedule words in the places option are not read as a schedule, as typed text is', async () => {
    const { text, request } = await slash('digest', sub('add', [string('places', 'jvc daily')]));
    expect(request.order).toEqual({ kind: 'digest', sub: 'add', areas: ['jvc daily'], when: {} });
    expect(text).toMatch(/I couldn't find a place called \\"jvc daily\\"/);
    // Typed, the same words are a place and a schedule.
    expect((await typed('/digest add jvc daily')).text).toMatch(/^Saved digest #2: Jumeirah Village Circle, daily at/);
    expect(await manzil.digests.repo.listByChannel(`discord:${fake.guildId}:${fake.channelId}`)).toHaveLength(2);
  });
});
