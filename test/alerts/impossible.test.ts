// Searches no listing can match, in chat: refused with a friendly message before anything is searched or saved; and an
// alert the property service refuses (400) says so in `/alerts list`, rather than blaming a service that is answering.
import { describe, expect, it } from 'vitest';
import { Bot } from '../../src/bot/index.js';
import { LocationResolver } from '../../src/locations/index.js';
import { createButtonStateRepo, createLocationCacheRepo } from '../../src/store/index.js';
import { alertsRig, ctx, type Rig } from './helpers.js';

const NINES_26 = '9'.repeat(26);
const NINES_400 = '9'.repeat(400);

/** The bot core on the rig's service and database, with the rig's alert commands. */
function botOn(rig: Rig): Bot {
  const locations = new LocationResolver(rig.api, createLocationCacheRepo(rig.store, Date.now, rig.service), 3_600_000);
  return new Bot({
    api: rig.api,
    locations,
    state: createButtonStateRepo(rig.store, Date.now, rig.service),
    logger: rig.logger,
    alerts: rig.commands,
  });
}

const say = (bot: Bot, text: string) => bot.handleCommand({ user: 'U1', channel: 'test:c1', text });

describe('a search no listing can match, typed in chat', () => {
  it.each([
    [
      '26 nines',
      `rent marina under ${NINES_26}`,
      /^"under 9{26}" is more than any property costs, so I didn't search\. I search prices up to AED 10 billion/,
    ],
    [
      '400 nines',
      `rent marina under ${NINES_400}`,
      /^"under 9{24}…" is more than any property costs, so I didn't search\./,
    ],
    ['20000 million', 'buy marina under 20000 million', /^"under 20000 million" is more than any property costs/],
    [
      'a million sqm',
      'rent marina over 1000000 sqm',
      /^"over 1000000 sqm" is bigger than any property, so I didn't search\. I search sizes up to 10 million sqft/,
    ],
    [
      '1 to 99999999999 bedrooms',
      'rent marina 1-99999999999 br',
      /^99999999999 bedrooms is more than I can search for; the most is 20\./,
    ],
  ])('%s gets a friendly refusal, and nothing is searched', async (_label, text, expected) => {
    const rig = await alertsRig();
    const reply = await say(botOn(rig), text);
    expect(reply.text).toMatch(expected);
    expect(reply.text).not.toMatch(/Infinity|e\+\d|went wrong|ref /);
    expect(rig.upstreamCalls('/search-rent') + rig.upstreamCalls('/search-buy')).toBe(0);
  });

  it('is not saved as an alert, in any form', async () => {
    const rig = await alertsRig();
    const bot = botOn(rig);
    for (const text of [
      `alerts add rent marina under ${NINES_400}`,
      `alerts add buy marina under ${NINES_26}`,
      'alerts add rent marina 2br over 20000000 sqft',
      'alerts add rent marina 50 baths',
    ]) {
      const reply = await say(bot, text);
      expect(reply.ephemeral).toBe(true);
      expect(reply.text).toMatch(/more than any property costs|bigger than any property|more than I can search for/);
      expect(reply.text).not.toMatch(/Saved as alert|Infinity/);
    }
    expect(await rig.repo.listByChannel('test:c1')).toEqual([]);
    expect(rig.upstreamCalls('/search-rent') + rig.upstreamCalls('/search-buy')).toBe(0);
  });
});

describe('an alert whose search the property service refuses', () => {
  it('says in /alerts list that the service refused the search, while a search the service fails (503) is "not answering"', async () => {
    const rig = await alertsRig();
    expect((await rig.commands.handle(ctx(), 'add rent marina 2br')).text).toMatch(/^Saved as alert #1/);
    expect((await rig.commands.handle(ctx(), 'add buy marina 2br')).text).toMatch(/^Saved as alert #2/);
    rig.sandbox.addFault({ status: 400, path: '/search-rent' });
    rig.sandbox.addFault({ status: 503, path: '/search-buy' });
    const report = await rig.poll();
    expect(report.failedQueries).toBe(2);

    const lines = (await rig.commands.handle(ctx(), 'list')).text.split('\n');
    const [rent, buy] = [lines.find((l) => l.startsWith('#1 ')), lines.find((l) => l.startsWith('#2 '))];
    expect(rent).toMatch(
      / · ⚠️ failing for .*: the property service refused this search as invalid; save it again with other filters · /,
    );
    expect(rent).not.toMatch(/not answering/);
    expect(buy).toMatch(/ · ⚠️ failing for .*: the property service is not answering · /);
  });
});
