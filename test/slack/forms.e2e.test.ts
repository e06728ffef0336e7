// Forms on Slack, end to end through the real Bolt app: `/alerts new` opens a modal with views.open inside the
// trigger's 3 s, its area field is typed into (block_suggestion), a bad submission is answered on its field and saves
// nothing, a good one saves the alert through the core and says the command that saves the same; the alert edited in
// the form (opened by `/alerts edit 1` and by the Home tab's Edit button) then posts each new listing once.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';
import { blockAction, signedPost, slashCommand, viewSubmission } from '../fakes/slack-sign.js';
import type { FakeView } from '../fakes/slack-views.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests walk Slack's JSON freely
type SlackJson = any;

const SECRET = 'forms-signing-secret-01';
const KEY = 'sk-forms-e2e-key-4242';
const CHANNEL = 'C0DEALS';
let sandbox: Sandbox;
let slack: FakeSlack;
let manzil: Manzil;
const events = () => `http://127.0.0.1:${manzil.slackPort}/slack/events`;

beforeAll(async () => {
  sandbox = createSandbox({ key: KEY });
  await sandbox.listen();
  slack = await startFakeSlack();
  const dbPath = join(mkdtempSync(join(tmpdir(), 'manzil-forms-e2e-')), 'manzil.db');
  manzil = await startManzil({
    env: {
      UAE_API_KEY: KEY,
      UAE_API_BASE_URL: sandbox.url,
      SLACK_BOT_TOKEN: 'xoxb-test',
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      MANZIL_DB_PATH: dbPath,
      LOG_LEVEL: 'warn',
    },
    host: '127.0.0.1',
    writeLog: () => {},
  });
});
afterAll(async () => {
  await manzil.stop();
  await slack.close();
  await sandbox.close();
});

/** A slash command with a fresh trigger; resolves with the view it opened. */
async function openBy(text: string, command = '/alerts'): Promise<FakeView> {
  const before = slack.views().length;
  const res = await signedPost(
    events(),
    SECRET,
    slashCommand(command, text, slack.responseUrl(), { trigger_id: slack.trigger() }),
  );
  expect(res.status).toBe(200);
  await slack.waitFor(() => slack.views().length > before, 15_000);
  return slack.views().at(-1)!;
}

async function list(command = '/alerts'): Promise<{ text: string }> {
  const id = `l${slack.views().length}${Date.now()}`;
  await signedPost(events(), SECRET, slashCommand(command, 'list', slack.responseUrl(id)));
  await slack.waitFor(() => slack.responses(id).length > 0, 15_000);
  return slack.responses(id).at(-1) as { text: string };
}

async function submit(view: FakeView, values: Record<string, Record<string, unknown>>) {
  const res = await signedPost(events(), SECRET, viewSubmission(view, values));
  expect(res.status).toBe(200);
  return res.text === '' ? {} : (JSON.parse(res.text) as { response_action?: string; errors?: Record<string, string> });
}

const sel = (value: string) => ({ v: { type: 'static_select', selected_option: { value } } });
const txt = (value: string) => ({ v: { type: 'plain_text_input', value } });
const alertPosts = () => slack.messages(CHANNEL).filter((m) => m.metadata?.event_type === 'manzil_alert');
const confirmations = () => slack.messages(CHANNEL).filter((m) => /Typed(, this form is)?: `/.test(String(m.text)));

describe('alert forms on Slack', () => {
  let marina = '';

  it('opens the new alert form from /alerts new, a valid modal, and suggests areas as the area field is typed', async () => {
    const view = await openBy('new');
    expect(view.method).toBe('views.open');
    expect(view.view).toMatchObject({ type: 'modal', callback_id: 'manzil:form:alert', title: { text: 'New alert' } });
    const blocks = view.view.blocks as { block_id: string; element: { type: string; action_id: string } }[];
    expect(blocks.map((b) => b.block_id)).toEqual(
      expect.arrayContaining(['area', 'deal', 'priceMin', 'priceMax', 'wordsIn', 'wordsOut', 'every', 'time', 'to']),
    );
    expect(blocks.find((b) => b.block_id === 'area')!.element).toMatchObject({ type: 'external_select' });
    const typed = await signedPost(events(), SECRET, {
      payload: JSON.stringify({
        type: 'block_suggestion',
        user: { id: 'U0ALICE', team_id: 'T0TEST' },
        team: { id: 'T0TEST' },
        action_id: 'manzil:form:area',
        block_id: 'area',
        value: 'marina',
        view: { ...view.view, id: view.id },
      }),
    });
    const options = (JSON.parse(typed.text) as { options: { value: string; text: { text: string } }[] }).options;
    marina = options.find((o) => o.text.text === 'Dubai Marina')!.value;
    expect(marina).toMatch(/^\d+:Dubai Marina$/);
  });

  it('a used or stale trigger opens nothing (Slack refuses it), and says nothing wrong to the person', async () => {
    const trigger = slack.trigger();
    const before = slack.views().length;
    await signedPost(events(), SECRET, slashCommand('/alerts', 'new', slack.responseUrl(), { trigger_id: trigger }));
    await slack.waitFor(() => slack.views().length > before, 15_000);
    await signedPost(events(), SECRET, slashCommand('/alerts', 'new', slack.responseUrl(), { trigger_id: trigger }));
    await slack.waitFor(() => slack.callsTo('views.open').length >= 3, 15_000);
    expect(slack.views()).toHaveLength(before + 1);
  });

  it('answers a minimum price above the maximum on the price field and saves nothing', async () => {
    const view = await openBy('new');
    const answer = await submit(view, {
      area: { v: { type: 'external_select', selected_option: { value: marina } } },
      deal: sel('rent'),
      priceMin: txt('150k'),
      priceMax: txt('100k'),
      every: sel('instant'),
      to: sel('channel'),
    });
    expect(answer.response_action).toBe('errors');
    expect(Object.keys(answer.errors!)).toEqual(['priceMax']);
    expect(answer.errors!.priceMax).toContain('below the least (150,000)');
    expect((await list()).text).toMatch(/No alerts in this channel yet/);
  });

  it(
    'saves the form as an alert, edits it in the form, and then posts each new listing once',
    { timeout: 120_000 },
    async () => {
      const view = await openBy('new');
      const answer = await submit(view, {
        area: { v: { type: 'external_select', selected_option: { value: marina } } },
        deal: sel('rent'),
        every: sel('instant'),
        to: sel('channel'),
      });
      expect(answer.response_action).toBeUndefined();
      await slack
        .waitFor(() => confirmations().length === 1, 30_000)
        .catch(() => {
          throw new Error(
            JSON.stringify(slack.callsTo('chat.postMessage').concat(slack.callsTo('chat.postEphemeral'))),
          );
        });
      expect(String(confirmations()[0]!.text)).toMatch(/^Saved as alert #1: Homes for rent in Dubai Marina/);
      expect(String(confirmations()[0]!.text)).toContain('`/alerts add rent "Dubai Marina" instant`');

      // `/alerts edit 1` alone opens the edit form, filled from the alert.
      const edit = await openBy('edit 1');
      expect(edit.view).toMatchObject({ title: { text: 'Edit alert #1' } });
      const area = (edit.view.blocks as { block_id: string; element: { initial_option?: { value: string } } }[]).find(
        (b) => b.block_id === 'area',
      )!;
      expect(area.element.initial_option?.value).toBe(marina);
      // The Home tab's Edit button (its value the order's id) opens the same form.
      // A fresh database: the alert is standing order 1.
      const before = slack.views().length;
      await signedPost(
        events(),
        SECRET,
        blockAction('manzil:form:edit:alert', '1', slack.responseUrl(), 'home', {
          trigger_id: slack.trigger(),
          channel: undefined,
          container: { type: 'view', view_id: 'VHOME' },
        }),
      );
      await slack.waitFor(() => slack.views().length > before, 15_000);
      expect(slack.views().at(-1)!.view).toMatchObject({ title: { text: 'Edit alert #1' } });

      const edited = await submit(edit, {
        area: { v: { type: 'external_select', selected_option: { value: marina } } },
        deal: sel('rent'),
        type: sel('apartment'),
        every: sel('instant'),
      });
      expect(edited.response_action).toBeUndefined();
      await slack.waitFor(() => confirmations().length === 2, 30_000);
      expect(String(confirmations()[1]!.text)).toMatch(/^Alert #1 changed: Apartments for rent in Dubai Marina/);
      expect(String(confirmations()[1]!.text)).toContain('`/alerts edit 1 rent "Dubai Marina" apartment instant`');
      expect((await list()).text).toMatch(
        /^Alerts in this channel \(1\):[\s\S]*\n#1 · Apartments for rent in Dubai Marina/,
      );

      for (let i = 0; i < 10 && alertPosts().length === 0; i++) {
        sandbox.advance(120);
        await manzil.alerts.poll();
        await manzil.alerts.drainer.drain();
      }
      const posted = alertPosts().length;
      expect(posted).toBeGreaterThan(0);
      expect(alertPosts().every((m) => /New listing for alert #1/.test(String(m.text)))).toBe(true);
      await manzil.alerts.poll();
      await manzil.alerts.drainer.drain();
      expect(alertPosts()).toHaveLength(posted);
    },
  );

  it('answers a form the core refuses (the same search again) with Try again, which opens the form as typed', async () => {
    const view = await openBy('new');
    const ephemerals = () => slack.callsTo('chat.postEphemeral');
    const before = ephemerals().length;
    const answer = await submit(view, {
      area: { v: { type: 'external_select', selected_option: { value: marina } } },
      deal: sel('rent'),
      type: sel('apartment'),
      every: sel('daily'),
      to: sel('channel'),
    });
    // The form could not know: it closes, and the core's refusal says so to the person alone.
    expect(answer.response_action).toBeUndefined();
    await slack.waitFor(() => ephemerals().length > before, 30_000);
    const refusal = ephemerals().at(-1)!.args as SlackJson;
    expect(refusal.user).toBe('U0ALICE');
    expect(String(refusal.text)).toMatch(/already alert #1 in this channel: nothing new was saved/);
    const button = (refusal.blocks as SlackJson[]).flatMap((b) => b.elements ?? []).find((e: SlackJson) => e.value);
    expect(button.text.text).toBe('Try again');
    expect((await list()).text).toMatch(/^Alerts in this channel \(1\)/);

    const opened = slack.views().length;
    const press = (user: string) =>
      signedPost(
        events(),
        SECRET,
        blockAction(button.action_id, button.value, slack.responseUrl(`again-${user}`), 'b1', {
          trigger_id: slack.trigger(),
          user: { id: user, username: user.toLowerCase(), team_id: 'T0TEST' },
        }),
      );
    // Another person's press opens nothing of Alice's.
    await press('U0BOB');
    await slack.waitFor(() => slack.responses('again-U0BOB').length > 0, 15_000);
    expect((slack.responses('again-U0BOB')[0] as { text: string }).text).toMatch(/form has expired/);
    await press('U0ALICE');
    await slack.waitFor(() => slack.views().length > opened, 15_000);
    const again = slack.views().at(-1)!.view as SlackJson;
    expect(again.title.text).toBe('New alert');
    const initial = (id: string) => {
      const e = (again.blocks as SlackJson[]).find((b) => b.block_id === id)?.element;
      return e?.initial_option?.value ?? e?.initial_value;
    };
    expect([initial('area'), initial('deal'), initial('type'), initial('every')]).toEqual([
      marina,
      'rent',
      'apartment',
      'daily',
    ]);
  });
});

describe('digest forms on Slack', () => {
  const time = (t: string) => ({ v: { type: 'timepicker', selected_time: t } });
  const digestConfirmations = () => confirmations().filter((m) => /`\/digest (add|edit)/.test(String(m.text)));

  it("opens a result's Save as a new alert form filled from the search; with a stale trigger it saves at once", async () => {
    const id = `search${Date.now()}`;
    await signedPost(events(), SECRET, slashCommand('/rent', 'marina 2br furnished', slack.responseUrl(id)));
    await slack.waitFor(() => slack.responses(id).length > 0, 15_000);
    const result = slack.responses(id).at(-1) as SlackJson;
    const saves = JSON.stringify(result.blocks).match(/"action_id":"manzil:save:[^"]*","value":"[^"]*"/g) ?? [];
    const [, actionId, value] = /"action_id":"([^"]+)","value":"([^"]+)"/.exec(saves[0] ?? '') ?? [];
    expect(actionId).toBeDefined();

    const listed = (await list()).text;
    const before = slack.views().length;
    const press = (trigger: string, url = slack.responseUrl()) =>
      signedPost(events(), SECRET, blockAction(actionId!, value!, url, 'b1', { trigger_id: trigger }));
    expect((await press(slack.trigger())).status).toBe(200);
    await slack.waitFor(() => slack.views().length > before, 15_000);
    const form = slack.views().at(-1)!;
    expect(form.view).toMatchObject({ callback_id: 'manzil:form:alert', title: { text: 'New alert' } });
    const field = (block: string) =>
      (form.view.blocks as SlackJson[]).find((b: SlackJson) => b.block_id === block)?.element as SlackJson;
    expect(field('area').initial_option.text.text).toBe('Dubai Marina');
    expect(field('deal').initial_option.value).toBe('rent');
    expect(field('bedrooms').initial_options.map((o: SlackJson) => o.value)).toEqual(['2']);
    expect(field('furnishing').initial_option.value).toBe('furnished');
    expect((await list()).text).toBe(listed); // nothing saved by opening the form

    // The click's trigger gone stale (Slack refuses the form): the search is saved as the button always did.
    const answered = `stale${Date.now()}`;
    await press('1.2.3', slack.responseUrl(answered));
    await slack.waitFor(() => slack.responses(answered).length > 0, 15_000);
    expect((slack.responses(answered).at(-1) as { text: string }).text).toMatch(
      /Saved as alert #\d+: 2-bedroom homes for rent/i,
    );
    const saved = /alert #(\d+)/.exec((slack.responses(answered).at(-1) as { text: string }).text)![1];
    const removed = `remove${Date.now()}`;
    await signedPost(events(), SECRET, slashCommand('/alerts', `remove ${saved}`, slack.responseUrl(removed)));
    await slack.waitFor(() => slack.responses(removed).length > 0, 15_000);
    expect((await list()).text).toBe(listed);
  });

  it('makes a digest in its form, refuses too many areas on their field, then edits its schedule in the form', async () => {
    const view = await openBy('new', '/digest');
    expect(view.view).toMatchObject({ callback_id: 'manzil:form:digest', title: { text: 'New digest' } });
    const blocks = view.view.blocks as { block_id: string; element: Record<string, unknown> }[];
    expect(blocks.map((b) => b.block_id)).toEqual(['areas', 'every', 'day', 'time']);

    const six = await submit(view, {
      areas: txt('jvc, jlt, dubai marina, business bay, downtown dubai, palm jumeirah'),
      every: sel('weekly'),
    });
    expect(six.response_action).toBe('errors');
    expect(Object.keys(six.errors!)).toEqual(['areas']);
    expect(six.errors!.areas).toContain('at most 5 areas');
    expect((await list('/digest')).text).not.toMatch(/#1/);

    const made = await submit(view, {
      areas: txt('dubai marina, business bay'),
      every: sel('weekly'),
      day: sel('friday'),
      time: time('18:30'),
    });
    expect(made.response_action).toBeUndefined();
    await slack.waitFor(() => digestConfirmations().length === 1, 30_000);
    expect(String(digestConfirmations()[0]!.text)).toMatch(/`\/digest add .*weekly on friday at 18:30`/);
    expect((await list('/digest')).text).toMatch(/#1 .*[\s\S]*friday[\s\S]*18:30/i);

    // `/digest edit 1` alone opens its form, filled from the digest.
    const edit = await openBy('edit 1', '/digest');
    expect(edit.view).toMatchObject({ title: { text: 'Edit digest #1' } });
    const filled = edit.view.blocks as { block_id: string; element: Record<string, SlackJson> }[];
    const el = (id: string) => filled.find((b) => b.block_id === id)!.element;
    expect(String(el('areas').initial_value)).toMatch(/Dubai Marina, Business Bay/i);
    expect(el('day').initial_option).toMatchObject({ value: 'friday' });
    expect(el('time').initial_time).toBe('18:30');
    const edited = await submit(edit, {
      areas: txt(String(el('areas').initial_value)),
      every: sel('daily'),
      time: time('07:15'),
    });
    expect(edited.response_action).toBeUndefined();
    await slack.waitFor(() => digestConfirmations().length === 2, 30_000);
    expect(String(digestConfirmations()[1]!.text)).toMatch(/`\/digest edit 1 .*daily at 07:15`/);
    const listed = (await list('/digest')).text;
    expect(listed).toMatch(/07:15/);
    expect(listed).not.toMatch(/18:30/);
  });
});
