// "Save as alert" under a search with no results, on every chat (terminal, Slack, Discord, through their renderers),
// and the summary card's button, which shows the listings it stands for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERT_KINDS, alertKind, decodeSavedQuery } from '../../src/alerts/index.js';
import { KindRegistry, OutboxDrainer } from '../../src/outbox/index.js';
import { Bot } from '../../src/bot/index.js';
import { LocationResolver } from '../../src/locations/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createButtonStateRepo, createLocationCacheRepo } from '../../src/store/index.js';
import { drivers, type ChatDriver, type DriverFactory } from '../contract/drivers.js';
import { alertsRig, ctx, RecordingPoster } from './helpers.js';

const KEY = 'sk-empty-search-key-7070';
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = createSandbox({ key: KEY });
  await sandbox.listen();
});
afterAll(async () => {
  await sandbox.close();
});

describe.each(drivers)('an empty search on $name', (factory: DriverFactory) => {
  let chat: ChatDriver;
  beforeAll(async () => {
    chat = await factory.start({ sandbox, key: KEY });
  }, 20_000);
  afterAll(async () => {
    await chat?.close();
  });

  it('offers Save as alert, says so, and saving it works', async () => {
    const empty = await chat.command('rent marina 4br under 20k');
    expect(empty.text).toMatch(/Nothing matches today\. Save as alert to hear when something does\./);
    expect(empty.buttons.map((b) => b.label)).toEqual(expect.arrayContaining([expect.stringMatching(/Save as alert/)]));
    // Where the platform has forms, Save opens the new alert's form filled from the search, submitted as it is.
    const answer = chat.forms ? await chat.forms.save(/Save as alert/, empty) : undefined;
    if (answer && !('saved' in answer)) throw new Error(`the form was refused: ${JSON.stringify(answer.refused)}`);
    const saved = answer ? answer.saved : await chat.press(/Save as alert/, empty);
    expect(saved.text).toMatch(/Saved as alert #1: .*none match today/);
  });
});

describe('the summary card', () => {
  it('has a button that shows the newest listings of its search', async () => {
    const rig = await alertsRig();
    await rig.commands.handle(ctx(), 'add rent dubai marina');
    for (let i = 0; i < 3; i++) rig.sandbox.advance(600);
    const report = await rig.poll();
    expect(report.newListings).toBeGreaterThan(5);
    const bot = new Bot({
      api: rig.api,
      logger: rig.logger,
      state: createButtonStateRepo(rig.store, Date.now, rig.service),
      locations: new LocationResolver(rig.api, createLocationCacheRepo(rig.store, Date.now, rig.service), 3_600_000),
    });
    const poster = new RecordingPoster();
    const buttons = bot.alertButtons(async (id) => {
      const row = await rig.repo.byId(id);
      const saved = row && decodeSavedQuery(row.query);
      return saved && { ...saved, channel: row.channel };
    });
    await new OutboxDrainer({
      outbox: rig.outbox,
      kinds: new KindRegistry().register(ALERT_KINDS, alertKind(buttons)),
      posters: [poster],
      logger: rig.logger,
      options: { giveUpMs: 3_600_000, perChannelIntervalMs: 0 },
    }).drain();
    const summary = poster.posts.find((p) => /more new listings/.test(p.reply.text))!;
    const button = summary.reply.blocks.flatMap((b) => (b.kind === 'actions' ? b.buttons : []))[0]!;
    expect(button.label).toBe('Show the newest');
    const shown = await bot.handleAction({
      user: 'U2',
      channel: 'test:c1',
      action: button.action,
      token: button.token,
    });
    const cards = shown.blocks.filter((b) => b.kind === 'card');
    expect(cards.length).toBeGreaterThan(0);
    expect(shown.text).toMatch(/Dubai Marina/);
    // The newest listings: the ones the alert posted as cards are among them.
    const posted = poster.postedIds();
    const listed = JSON.stringify(cards);
    expect(posted.some((id) => listed.includes(id))).toBe(true);
  });
});
