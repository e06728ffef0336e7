// Issue 30's market answers on Discord end to end: the real discord.js client started by the composition root, logged
// in to the fake Discord, the sandbox as the property service, SQLite in a temp dir. `/compare`'s chart arrives as a PNG
// attached to the interaction's answer and shown by its embed (its text when Discord refuses the file); a listing's
// Details then "What is it worth?" brings the estimate; `/compare` and `/value`, typed or by button, count against the
// person's hourly limits, and a person past them is told so without a call to the service.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHART_NOT_ATTACHED } from '../../adapters/discord/charts.js';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { decodePng } from '../charts/png.js';
import { startFakeDiscord, type DiscordJson, type FakeDiscord } from '../fakes/discord.js';

const KEY = 'sk-discord-market-answers-3030';
const WAIT_MS = 30_000;
const LIMIT_TEXT = /the most one person can/;
let sandbox: Sandbox;
let fake: FakeDiscord;
let manzil: Manzil;

beforeAll(async () => {
  sandbox = createSandbox({ key: KEY });
  await sandbox.listen();
  fake = await startFakeDiscord();
  manzil = await startManzil({
    env: {
      UAE_API_KEY: KEY,
      UAE_API_BASE_URL: sandbox.url!,
      UAE_API_RETRY_ATTEMPTS: '2',
      DISCORD_TOKEN: fake.botToken,
      DISCORD_API_URL: fake.apiUrl,
      PORT: '0',
      MANZIL_DB_PATH: join(mkdtempSync(join(tmpdir(), 'manzil-discord-market-')), 'manzil.db'),
      LOG_LEVEL: 'warn',
      SHUTDOWN_TIMEOUT_S: '0.5',
      // One comparison an hour, and four lookups: a search, a listing's details, its value and one typed /value.
      PERSON_RUNS_PER_HOUR: '1',
      PERSON_SEARCHES_PER_HOUR: '4',
    },
    host: '127.0.0.1',
    writeLog: () => {},
    discord: { autocompleteDeadlineMs: 400 },
  });
  await fake.ready();
}, 60_000);
afterAll(async () => {
  await manzil?.stop();
  await fake?.close();
  await sandbox?.close();
});

/** The message a person sees as the answer to an interaction: its last follow-up, else the @original as edited. */
async function answer(token: string): Promise<{ message: DiscordJson; id: string; ephemeral: boolean }> {
  const done = () => fake.responses(token).some((r) => r.kind === 'edit' || r.kind === 'followup');
  await fake.waitFor(done, WAIT_MS);
  const log = fake.responses(token);
  const followUp = log.filter((r) => r.kind === 'followup').at(-1);
  if (followUp) return { message: fake.message(followUp.messageId!)!, id: followUp.messageId!, ephemeral: true };
  const edit = log.filter((r) => r.kind === 'edit').at(-1)!;
  return { message: fake.original(token)!, id: token, ephemeral: edit.ephemeral };
}

/** Every component of a message, however nested (Components V2 containers, sections and their accessories). */
const componentsOf = (list: DiscordJson[]): DiscordJson[] =>
  list.flatMap((c) => [c, ...componentsOf(c.components ?? []), ...componentsOf(c.accessory ? [c.accessory] : [])]);

const textOf = (m: DiscordJson): string =>
  [
    m.content ?? '',
    ...componentsOf(m.components ?? []).flatMap((c) => (c.type === 10 ? [c.content] : [])),
    ...((m.embeds ?? []) as DiscordJson[]).flatMap((e) => [
      e.title,
      e.description,
      ...((e.fields ?? []) as DiscordJson[]).flatMap((f) => [f.name, f.value]),
      e.footer?.text,
    ]),
  ]
    .filter((s): s is string => typeof s === 'string')
    .join('\n');

/** The custom_id of the `nth` button (from 0) whose label matches. */
const buttonOf = (m: DiscordJson, label: RegExp, nth = 0): string => {
  const found = componentsOf(m.components ?? []).filter(
    (c) => c.type === 2 && c.custom_id && label.test(String(c.label)),
  )[nth];
  if (!found) throw new Error(`no button ${label} in ${textOf(m).slice(0, 300)}`);
  return String(found.custom_id);
};

const command = (name: string, query: string, user: string) =>
  fake.slashCommand(name, [{ name: 'query', type: 3, value: query }], { user });

/** What the sandbox was asked while `work` ran. */
async function callsDuring(work: () => Promise<unknown>): Promise<number> {
  const before = sandbox.requests().length;
  await work();
  return sandbox.requests().length - before;
}

describe('Discord: /compare with its chart, /value by button, and the person limits', () => {
  it(
    "/compare's answer carries the chart as a PNG attachment its embed shows; a second compare is over the limit, with no call",
    {
      timeout: 90_000,
    },
    async () => {
      const { token } = await command('compare', 'marina, jlt 2br', '1300000000000000001');
      const { message } = await answer(token);
      expect(textOf(message)).toMatch(/Dubai Marina vs Jumeirah Lake Towers/);
      const attachments = (message.attachments ?? []) as DiscordJson[];
      expect(attachments.map((a) => a.filename)).toEqual(['compare.png']);
      const shown = ((message.embeds ?? []) as DiscordJson[]).map((e) => e.image?.url).filter(Boolean);
      expect(shown).toContain('attachment://compare.png');
      const png = decodePng(fake.attachmentBytes(String(attachments[0]!.id))!);
      expect(png.width).toBeGreaterThan(200);
      expect(png.height).toBeGreaterThan(100);
      expect(textOf(message)).not.toContain(CHART_NOT_ATTACHED);
      expect(fake.violations()).toEqual([]);

      let over: DiscordJson | undefined;
      const calls = await callsDuring(async () => {
        const again = await command('compare', 'downtown, business bay', '1300000000000000001');
        const seen = await answer(again.token);
        expect(seen.ephemeral).toBe(true);
        over = seen.message;
      });
      expect(textOf(over!)).toMatch(LIMIT_TEXT);
      expect(textOf(over!)).toMatch(/asked for 1 alert test, digest on request or comparison in the last hour/);
      expect(calls).toBe(0);
    },
  );

  it(
    'answers with the chart as text and a note when Discord refuses the file (no Attach Files)',
    {
      timeout: 90_000,
    },
    async () => {
      const off = fake.refuseFiles(403, 50013);
      try {
        const { token } = await command('compare', 'marina, jlt 2br', '1300000000000000002');
        const { message } = await answer(token);
        expect(textOf(message)).toMatch(/Dubai Marina vs Jumeirah Lake Towers/);
        expect(textOf(message)).toMatch(/AED per sqft, compared/);
        expect(textOf(message)).toContain(CHART_NOT_ATTACHED);
        expect(message.attachments ?? []).toEqual([]);
      } finally {
        off();
      }
    },
  );

  it(
    "a listing's Details, then What is it worth?, brings the estimate; /value, Details and the button count as lookups",
    {
      timeout: 120_000,
    },
    async () => {
      const user = '1300000000000000003';
      const search = await command('rent', 'marina 2br', user);
      const results = await answer(search.token);
      const details = await fake.clickButton(buttonOf(results.message, /^Details\b/), { id: results.id }, { user });
      const card = await answer(details.token);
      const worth = await fake.clickButton(buttonOf(card.message, /What is it worth/), { id: card.id }, { user });
      const estimate = await answer(worth.token);
      const text = textOf(estimate.message);
      expect(text).toMatch(/What a 2-bed .+ in Dubai Marina is worth/);
      expect(text).toMatch(/(Sale price|Annual rent): AED [\d,]+ to AED [\d,]+/);
      expect(text).toMatch(/From the middle half of \d+/);
      expect(text).toMatch(/is (\d+ % (above|below) the range's (top|bottom)|within the range)/);
      expect(text).toMatch(/not a valuation/);

      const typed = await answer((await command('value', 'jvc 2br', user)).token);
      expect(textOf(typed.message)).toMatch(/in Jumeirah Village Circle is worth/);

      // Four lookups made: the button, /value and Details again are past the limit, and ask the service nothing.
      const over: { message: DiscordJson; ephemeral: boolean }[] = [];
      const calls = await callsDuring(async () => {
        const again = await fake.clickButton(buttonOf(card.message, /What is it worth/), { id: card.id }, { user });
        over.push(await answer(again.token));
        over.push(await answer((await command('value', 'downtown 1br', user)).token));
        const other = buttonOf(results.message, /^Details\b/, 1);
        over.push(await answer((await fake.clickButton(other, { id: results.id }, { user })).token));
      });
      expect(over).toHaveLength(3);
      for (const seen of over) {
        expect(seen.ephemeral).toBe(true);
        expect(textOf(seen.message)).toMatch(LIMIT_TEXT);
      }
      expect(calls).toBe(0);
    },
  );
});
