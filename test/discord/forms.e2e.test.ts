// Forms on Discord, end to end through the real discord.js client logged in to the fake Discord: `/alerts new` shows
// a modal (callback type 9, checked against Discord's limits by the fake), its submission (MODAL_SUBMIT) is read by
// the core's forms and saved, its confirmation shows the typed command; the alert edited in its form (`/alerts edit
// number:1` alone) then posts each new listing once. A minimum price above the maximum is refused naming the price
// field and quoting back what was typed, nothing saved, and Try again opens the form with it. A digest is made and
// edited in its form, its schedule saved.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { shownText, startFakeDiscord, type DiscordJson, type FakeDiscord } from '../fakes/discord.js';
import type { ModalInput } from '../fakes/discord-modals.js';

const KEY = 'sk-discord-forms-7171';
const OWNER = '1180000000000000071';
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
      DISCORD_TOKEN: fake.botToken,
      DISCORD_API_URL: fake.apiUrl,
      PORT: '0',
      MANZIL_DB_PATH: join(mkdtempSync(join(tmpdir(), 'manzil-discord-forms-')), 'manzil.db'),
      LOG_LEVEL: 'warn',
      SHUTDOWN_TIMEOUT_S: '0.5',
    },
    host: '127.0.0.1',
    writeLog: () => {},
  });
  await fake.ready();
}, 60_000);
afterAll(async () => {
  await manzil?.stop();
  await fake?.close();
  await sandbox?.close();
});
// Every modal and message sent was one Discord takes (the fake refuses the rest, and notes what it shows badly).
afterEach(() => {
  expect(fake.violations()).toEqual([]);
});

const sub = (name: string, options: unknown[] = []) => [{ name, type: 1, options }];
const numberOption = (n: number) => ({ name: 'number', type: 4, value: n });

/** A slash command that should open a form: resolves with the modal shown and the interaction's token. */
async function openForm(command: string, options: unknown[]): Promise<{ modal: DiscordJson; token: string }> {
  const { token } = await fake.slashCommand(command, options, { user: OWNER });
  await fake.waitFor(() => fake.responses(token).length > 0, 15_000);
  const first = fake.responses(token)[0]!;
  if (first.type !== 9) throw new Error(`no modal, but: ${JSON.stringify(first)}`);
  return { modal: fake.modal(token), token };
}

interface Answer {
  text: string;
  private: boolean;
  body: DiscordJson;
  /** The submission's interaction (its reply is its @original). */
  token: string;
}

/** Submits the form; resolves with what the person sees of the answer and whether only they see it. */
async function submit(token: string, input: ModalInput): Promise<Answer> {
  const { token: submitted } = await fake.submitModal(token, input, { user: OWNER });
  const answered = () =>
    fake
      .responses(submitted)
      .filter((r) => r.kind === 'edit' || r.kind === 'followup' || (r.kind === 'callback' && r.type === 4));
  await fake.waitFor(() => answered().length > 0, 30_000);
  const last = answered().at(-1)!;
  const body: DiscordJson = last.kind === 'followup' ? last.body : (fake.original(submitted) ?? last.body);
  const embeds = ((body.embeds ?? []) as DiscordJson[]).flatMap((e) => [
    e.title,
    e.description,
    ...((e.fields ?? []) as DiscordJson[]).map((f) => `${f.name}\n${f.value}`),
    e.footer?.text,
  ]);
  return {
    text: [shownText(body), ...embeds].filter(Boolean).join('\n'),
    private: last.ephemeral,
    body,
    token: submitted,
  };
}

/** `/alerts list` or `/digest list`, as the person sees it. */
async function list(command: string): Promise<string> {
  const { token } = await fake.slashCommand(command, sub('list'), { user: OWNER });
  await fake.waitFor(() => fake.responses(token).some((r) => r.kind === 'edit' || r.kind === 'followup'), 15_000);
  return JSON.stringify(fake.original(token) ?? fake.responses(token).at(-1)!.body);
}

const fieldIds = (modal: DiscordJson) => (modal.components as DiscordJson[]).map((l) => l.component.custom_id);
const field = (modal: DiscordJson, id: string) =>
  (modal.components as DiscordJson[]).find((l) => l.component.custom_id === id)!.component;
const alertPosts = () => fake.messages(fake.channelId).filter((m) => /New listing/.test(String(m.body.content)));

describe('the alert form on Discord', () => {
  it('opens from /alerts new as a modal of five Labels: the search, the price, how often, the time, where', async () => {
    const { modal } = await openForm('alerts', sub('new'));
    expect(modal).toMatchObject({ custom_id: 'manzil:form:alert:new', title: 'New alert' });
    expect((modal.components as DiscordJson[]).every((c) => c.type === 18)).toBe(true);
    expect(fieldIds(modal)).toEqual(['search', 'price', 'every', 'time', 'to']);
    expect(field(modal, 'search')).toMatchObject({ type: 4, style: 2, required: true });
    expect(field(modal, 'every').type).toBe(3);
    expect(field(modal, 'to').options.map((o: DiscordJson) => o.value)).toEqual(['channel', 'me']);
  });

  it('refuses a minimum price above the maximum on the price field, quotes back what was typed, and saves nothing', async () => {
    const { token } = await openForm('alerts', sub('new'));
    const answer = await submit(token, { search: 'rent dubai marina 2br -shared', price: '150k-100k' });
    expect(answer.private).toBe(true);
    expect(answer.text).toMatch(/Not saved/);
    expect(answer.text).toContain('**Price (AED)**: The most (100,000) is below the least (150,000)');
    expect(answer.text).not.toMatch(/\*\*Search\*\*/);
    expect(answer.text).toContain('Search: `rent dubai marina 2br -shared`');
    expect(answer.text).toContain('Price (AED): `150k-100k`');
    expect(await list('alerts')).toMatch(/No alerts in this channel yet/);

    // Try again opens the form with all that was typed in it.
    const again = (answer.body.components as DiscordJson[])[0].components[0];
    expect(again.label).toBe('Try again');
    // Only by the person who typed it (a button crafted by another opens nothing of theirs).
    const { token: other } = await fake.clickButton(
      again.custom_id,
      { id: answer.token },
      { user: '1180000000000000072' },
    );
    await fake.waitFor(() => fake.responses(other).length > 0, 15_000);
    expect(fake.responses(other)[0]).toMatchObject({ type: 4, ephemeral: true });
    expect(fake.modal(other)).toBeUndefined();
    const { token: pressed } = await fake.clickButton(again.custom_id, { id: answer.token }, { user: OWNER });
    await fake.waitFor(() => fake.responses(pressed).length > 0, 15_000);
    expect(fake.responses(pressed)[0]!.type).toBe(9);
    const retyped = fake.modal(pressed);
    expect(field(retyped, 'search').value).toBe('rent dubai marina 2br -shared');
    expect(field(retyped, 'price').value).toBe('150k-100k');
    // Fixed there, it saves.
    const fixed = await submit(pressed, { price: '100k-150k', to: 'me' });
    expect(fixed.text).toMatch(/Saved as your alert #1 \(to me\): 2-bedroom homes for rent in Dubai Marina/);
    expect(fixed.text).toContain('between 100000 and 150000');
    expect(fixed.private).toBe(true);
    // The same again, to me: the core refuses it (a duplicate) privately, as it confirms, and offers Try again.
    const { token: twice } = await openForm('alerts', sub('new'));
    const dup = await submit(twice, { search: 'rent dubai marina 2br -shared', price: '100k-150k', to: 'me' });
    expect(dup.private).toBe(true);
    expect(dup.text).toMatch(/^Not saved/);
    expect(dup.text).toContain('already alert #1 of yours: nothing new was saved');
    expect((dup.body.components as DiscordJson[])[0].components[0].label).toBe('Try again');
    // Its edit form, by `mine`, edits the person's own alert and keeps it theirs.
    const mine = { name: 'mine', type: 5, value: true };
    const own = await openForm('alerts', sub('edit', [numberOption(1), mine]));
    expect(own.modal.custom_id).toBe('manzil:form:alert:edit:1:me');
    expect(field(own.modal, 'price').value).toBe('100,000-150,000');
    const ownEdited = await submit(own.token, { every: 'daily', time: '08:30' });
    expect(ownEdited.private).toBe(true);
    // The same search at another pace: the alert keeps its number.
    expect(ownEdited.text).toMatch(/^Your alert #1 .* now posts one daily summary at 08:30/);
    expect(ownEdited.text).toMatch(/`\/alerts edit me 1 rent .*daily at 08:30`/);
    const removed = await fake.slashCommand('alerts', sub('remove', [numberOption(1), mine]), {
      user: OWNER,
    });
    await fake.waitFor(
      () => fake.responses(removed.token).some((r) => r.kind === 'edit' || r.kind === 'followup'),
      15_000,
    );
  });

  it('refuses an area it cannot find on the search field, quoting back what was typed, and saves nothing', async () => {
    const { token } = await openForm('alerts', sub('new'));
    const answer = await submit(token, { search: 'rent qwertyville 2br', every: 'weekly:friday' });
    expect(answer.private).toBe(true);
    expect(answer.text).toMatch(/^Not saved/);
    expect(answer.text).toContain('**Search**: I couldn\'t find a place called "qwertyville"');
    expect(answer.text).toContain('Search: `rent qwertyville 2br`');
    expect(answer.text).toContain('How often: `Weekly, on Friday`');
    expect((answer.body.components as DiscordJson[])[0].components[0].label).toBe('Try again');
    expect(await list('alerts')).toMatch(/No alerts in this channel yet/);
  });

  it(
    'saves the form as an alert, edits it in its form, and then posts each new listing once',
    { timeout: 120_000 },
    async () => {
      const { token } = await openForm('alerts', sub('new'));
      const saved = await submit(token, { search: 'rent dubai marina', every: 'instant', to: 'channel' });
      expect(saved.private).toBe(false);
      expect(saved.text).toMatch(/Saved as alert #\d+: Homes for rent in Dubai Marina/);
      expect(saved.text).toMatch(/Typed(, this form is)?: `\/alerts add rent "dubai marina" instant`/i);
      const number = Number(/Saved as alert #(\d+)/.exec(saved.text)![1]);

      // `/alerts edit number:N` alone opens its form, filled from the alert.
      const edit = await openForm('alerts', sub('edit', [numberOption(number)]));
      expect(edit.modal).toMatchObject({
        custom_id: `manzil:form:alert:edit:${number}`,
        title: `Edit alert #${number}`,
      });
      expect(fieldIds(edit.modal)).toEqual(['search', 'price', 'every', 'time']);
      expect(field(edit.modal, 'search').value).toMatch(/^rent "Dubai Marina"/);
      const chosen = field(edit.modal, 'every').options.filter((o: DiscordJson) => o.default);
      expect(chosen.map((o: DiscordJson) => o.value)).toEqual(['instant']);

      const edited = await submit(edit.token, { search: 'rent "Dubai Marina" apartment', price: 'up to 500k' });
      expect(edited.private).toBe(false);
      expect(edited.text).toMatch(new RegExp(`Alert #${number} changed: Apartments for rent in Dubai Marina`));
      expect(edited.text).toMatch(
        new RegExp(`\`/alerts edit ${number} rent "Dubai Marina" apartment under 500000 instant\``),
      );
      // It keeps its number, and is the channel's one alert.
      const now = number;
      const listed = await list('alerts');
      expect(listed).toMatch(new RegExp(`#${now} · Apartments for rent in Dubai Marina`));
      expect(listed.match(/#\d+ · /g)).toHaveLength(1);

      for (let i = 0; i < 10 && alertPosts().length === 0; i++) {
        sandbox.advance(120);
        await manzil.alerts.poll();
        await manzil.alerts.drainer.drain();
      }
      const posted = alertPosts().length;
      expect(posted).toBeGreaterThan(0);
      expect(
        alertPosts().every((m) =>
          new RegExp(`Alert #${now} · Apartments for rent in Dubai Marina`).test(JSON.stringify(m.body)),
        ),
      ).toBe(true);
      await manzil.alerts.poll();
      await manzil.alerts.drainer.drain();
      expect(alertPosts()).toHaveLength(posted);
    },
  );
});

describe('the digest form on Discord', () => {
  it('makes a digest in its form, then edits its schedule in the form, and the list says the one saved', async () => {
    const { modal, token } = await openForm('digest', sub('new'));
    expect(modal).toMatchObject({ custom_id: 'manzil:form:digest:new', title: 'New digest' });
    expect(fieldIds(modal)).toEqual(['areas', 'every', 'time']);
    const saved = await submit(token, { areas: 'dubai marina, business bay', every: 'weekly:friday', time: '18:30' });
    expect(saved.text).toMatch(/Dubai Marina/);
    expect(saved.text).toMatch(/`\/digest add .*weekly on friday at 18:30`/);
    expect(await list('digest')).toMatch(/friday|Friday/);

    const edit = await openForm('digest', sub('edit', [numberOption(1)]));
    expect(edit.modal.title).toBe('Edit digest #1');
    expect(field(edit.modal, 'areas').value).toMatch(/Dubai Marina, Business Bay/i);
    expect(field(edit.modal, 'time').value).toBe('18:30');
    expect(field(edit.modal, 'every').options.find((o: DiscordJson) => o.default).value).toBe('weekly:friday');
    const edited = await submit(edit.token, { every: 'daily', time: '07:15' });
    expect(edited.text).toMatch(/`\/digest edit 1 .*daily at 07:15`/);
    const listed = await list('digest');
    expect(listed).toMatch(/07:15/);
    expect(listed).not.toMatch(/18:30/);
  });

  it('refuses an area it cannot find on the areas field, and saves nothing', async () => {
    const { token } = await openForm('digest', sub('new'));
    const answer = await submit(token, { areas: 'dubai marina, qwertyville' });
    expect(answer.private).toBe(true);
    expect(answer.text).toMatch(/^Not saved[\s\S]*\*\*Areas\*\*: [\s\S]*qwertyville/);
    expect(answer.text).toContain('Areas: `dubai marina, qwertyville`');
    expect((await list('digest')).match(/#\d+ /g) ?? []).toHaveLength(1);
  });

  it('refuses a time that is none on its field, quotes back the areas typed, and saves nothing', async () => {
    const { token } = await openForm('digest', sub('new'));
    const answer = await submit(token, { areas: 'jvc', time: '25:99' });
    expect(answer.private).toBe(true);
    expect(answer.text).toContain('**Time of day**: "25:99" is not a time of day');
    expect(answer.text).toContain('Areas: `jvc`');
    expect((await list('digest')).match(/#\d+ /g) ?? []).toHaveLength(1);
  });
});
