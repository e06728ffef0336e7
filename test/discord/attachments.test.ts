// A message with a file (a chart, say) through the bot's own discord.js client, in a process that has loaded the
// project's undici 7, as every Manzil process has (the API client is built on it). undici 7 installs itself as the
// process's global dispatcher when it loads; discord.js's default request path would hand it a multipart body it
// cannot read. The client createDiscordApp builds must send it all the same.
import 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDiscordApp, type DiscordApp } from '../../adapters/discord/app.js';
import type { Bot } from '../../src/bot/index.js';
import { silentLogger } from '../../src/log.js';
import { startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';

let fake: FakeDiscord;
let app: DiscordApp;

beforeAll(async () => {
  fake = await startFakeDiscord();
  const unused = {} as Bot; // no interaction reaches the bot here: only the REST client is used
  app = createDiscordApp({ bot: unused, token: fake.botToken, apiUrl: fake.apiUrl, logger: silentLogger });
});
afterAll(async () => {
  await app.stop();
  await fake.close();
});

it('posts a message with an attached file, which arrives as multipart and becomes an attachment', async () => {
  const sent = (await app.client.rest.post(`/channels/${fake.channelId}/messages`, {
    body: { embeds: [{ title: 'Trend', image: { url: 'attachment://trend.png' } }] },
    files: [{ data: Buffer.from('png-bytes'), name: 'trend.png' }],
  })) as { attachments: { filename: string }[] };
  const request = fake
    .requests()
    .findLast((r) => r.method === 'POST' && r.path === `/channels/${fake.channelId}/messages`)!;
  expect(request.files).toEqual([{ field: 'files[0]', name: 'trend.png', size: 9 }]);
  expect(sent.attachments.map((a) => a.filename)).toEqual(['trend.png']);
});
