// A word saying how often ("daily", "every morning", "once a week") in `/alerts add` is never read as the rent period
// of the search: it is left out, and the reply says so and how often the alert is really checked. Through the bot core,
// on the sandbox, as a person types it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Bot } from '../../src/bot/index.js';
import { LocationResolver } from '../../src/locations/index.js';
import { createButtonStateRepo, createLocationCacheRepo } from '../../src/store/index.js';
import { alertsRig, type Rig } from './helpers.js';

const DELIVERY_WORDS = [
  'daily',
  'weekly',
  'nightly',
  'hourly',
  'every morning',
  'each day',
  'every day',
  'every hour',
  'once a week',
  'twice a day',
  'every 2 hours',
  'every evening',
  'on fridays',
  'in the morning',
];
const SEARCHES = [
  { verb: 'rent', filters: ['2br', 'under 150k'] },
  { verb: 'rent', filters: ['studio', 'furnished'] },
  { verb: 'buy', filters: ['villa', 'over 2m'] },
  { verb: 'rent', filters: ['office', '1000-2000 sqft'] },
];

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

describe('a delivery word in /alerts add', () => {
  it('is never turned into a rent period: the reply names it and says how often alerts are checked', async () => {
    const rig = await alertsRig();
    const bot = botOn(rig);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...DELIVERY_WORDS),
        fc.constantFrom(...SEARCHES),
        fc.nat(),
        fc.boolean(),
        async (word, search, at, upper) => {
          // The word anywhere among the search's words: after "add", after the verb, between filters, at the end.
          const parts = [search.verb, 'marina', ...search.filters];
          const k = at % (parts.length + 1);
          const typed = [...parts.slice(0, k), upper ? word.toUpperCase() : word, ...parts.slice(k)].join(' ');
          const channel = `test:delivery${n++}`;
          const reply = await bot.handleCommand({ user: `U${n}`, channel, text: `alerts add ${typed}` });
          expect(reply.text).toMatch(/^Saved as alert #1: /);
          // At the end, a word of how often makes a summary alert (issue 40), said so; anywhere else it is named unused.
          const unused = `I didn't use "${upper ? word.toUpperCase() : word}": alerts are checked every 15 minutes`;
          if (!/I'll post one (daily|weekly) summary here/.test(reply.text)) expect(reply.text).toContain(unused);
          else expect(k).toBe(parts.length);
          // The saved search says no period it was not given: no "a day", "paid weekly".
          const [row] = await rig.repo.listByChannel(channel);
          expect(row!.summary).not.toMatch(/a day|a week|paid (daily|weekly)|an hour/);
          expect(JSON.parse(row!.query).query.params.rent_frequency ?? 'unset').not.toMatch(/daily|weekly/);
          expect(row!.summary).toContain('Dubai Marina');
        },
      ),
      { numRuns: 40 },
    );
  }, 60_000);

  it('leaves a rent period written as one: "per week" is still the period, said in the summary', async () => {
    const rig = await alertsRig();
    const reply = await botOn(rig).handleCommand({
      user: 'U1',
      channel: 'test:c1',
      text: 'alerts add rent marina 2br under 3k per week every morning',
    });
    expect(reply.text).toMatch(
      /^Saved as alert #1: 2-bedroom homes for rent in Dubai Marina, up to AED 3,000 a week\./,
    );
    expect(reply.text).toContain(`I didn't use "every morning"`);
  });

  it('says so too when the rest of the search is refused, and saves nothing', async () => {
    const rig = await alertsRig();
    const reply = await botOn(rig).handleCommand({
      user: 'U1',
      channel: 'test:c1',
      text: 'alerts add rent marina 2br hourly under 500',
    });
    expect(reply.ephemeral).toBe(true);
    expect(reply.text).toContain(`I didn't use "hourly"`);
    expect(reply.text).toMatch(/Did you mean 500,000\?/);
    expect(await rig.repo.listByChannel('test:c1')).toEqual([]);
  });

  it('in a plain search, "daily" stays the rent period and the summary says it', async () => {
    const rig = await alertsRig();
    const reply = await botOn(rig).handleCommand({ user: 'U1', channel: 'test:c1', text: 'rent marina 2br daily' });
    expect(reply.text).toMatch(/2-bedroom homes for rent in Dubai Marina, paid daily/);
  });
});
