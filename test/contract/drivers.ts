// One way to talk to Manzil per chat platform, so the same scenarios run against each: the terminal chat (the real
// chat loop on in-memory streams), Slack (signed requests to the real Bolt app, replies on the fake response_url) and
// Discord (the real discord.js client logged in to the fake Discord). Each driver starts its own Manzil with its own
// SQLite file against the one shared sandbox.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { runTerminalChat } from '../../adapters/console/chat.js';
import { ConsolePoster } from '../../adapters/console/poster.js';
import { startManzil, type Manzil } from '../../src/app/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { startFakeDiscord, type DiscordJson, type FakeDiscord } from '../fakes/discord.js';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';
import { blockAction, signedPost, slashCommand, viewSubmission } from '../fakes/slack-sign.js';

/** What a person sees of one reply. */
export interface Seen {
  /** All the visible text: titles, fields, links, messages. */
  text: string;
  buttons: { label: string }[];
  /** Seen only by the person who asked. */
  private: boolean;
}

/** An alert form as a person fills it, whatever fields the platform draws (Slack: one a filter; Discord: fewer). */
export interface AlertFill {
  /** The area as typed (Slack: typed into its picker and the first match chosen). */
  area: string;
  deal: 'rent' | 'buy';
  priceMin?: string;
  priceMax?: string;
  every?: 'instant' | 'daily';
  time?: string;
}

/** A digest form as a person fills it. */
export interface DigestFill {
  areas: string[];
  every: 'daily' | 'weekly' | 'monthly';
  day?: string;
  time?: string;
}

/**
 * What a submitted form brings: the form as it was opened (the text of every value it was filled with: an edit form
 * is filled from the order), and then its confirmation, or the fields it was refused on (`price`, `time`, `area`…,
 * whatever the platform calls them) with the message that says why.
 */
export type FormAnswer = { filled: string } & ({ saved: Seen } | { refused: { fields: string[]; text: string } });

/** The forms (modals) of a platform that has them: each opened as a person opens it, filled and submitted. */
export interface FormsDriver {
  /** `/alerts new`, or the edit form of alert `edit`. */
  alert(fill: AlertFill, edit?: number): Promise<FormAnswer>;
  /** `/digest new`, or the edit form of digest `edit`. */
  digest(fill: DigestFill, edit?: number): Promise<FormAnswer>;
  /** Presses a result's Save button (the first whose label matches): its form, submitted as it was filled. */
  save(label: RegExp, on: Seen): Promise<FormAnswer>;
}

export interface ChatDriver {
  name: string;
  /** The platform's forms; undefined where it has none (the terminal). */
  forms?: FormsDriver;
  /** Whether the platform can show a reply to one person only (the terminal has one person). */
  privateReplies: boolean;
  manzil: Manzil;
  /** Log lines written so far (LOG_LEVEL warn). */
  logs: string[];
  /** A command as typed in the terminal: "rent marina 2br"; chat platforms get the verb as the slash command. */
  command(text: string): Promise<Seen>;
  /** Presses the first button whose label matches, on a reply seen before; resolves with the reply it brings. */
  press(label: RegExp, on: Seen): Promise<Seen>;
  /** The texts of the alert messages posted in the channel the commands come from, in order. */
  alerts(): Promise<string[]>;
  /**
   * What the platform's fake found wrong in everything sent so far (payloads over its limits, answers out of turn);
   * empty when all was valid. Where the fake refuses a bad payload outright, the scenario fails there instead.
   */
  violations(): string[];
  close(): Promise<void>;
}

export interface DriverContext {
  sandbox: Sandbox;
  key: string;
}

export type DriverFactory = {
  name: string;
  /** Whether its drivers have forms (ChatDriver.forms). */
  forms: boolean;
  start: (ctx: DriverContext) => Promise<ChatDriver>;
};

/** A form's field names as the scenarios say them: a price's two ends are the price, a weekly day how often. */
const NEUTRAL: Record<string, string> = { priceMin: 'price', priceMax: 'price', day: 'every' };
const neutral = (fields: string[]) => [...new Set(fields.map((f) => NEUTRAL[f] ?? f))];

// A bound against a hang only: `digest now` composes its figures and charts before it answers, past 10 s on a loaded
// machine.
const WAIT_MS = 30_000;

function tempDb(name: string): string {
  return join(mkdtempSync(join(tmpdir(), `manzil-contract-${name}-`)), 'manzil.db');
}

function baseEnv(ctx: DriverContext, name: string): Record<string, string> {
  if (!ctx.sandbox.url) throw new Error('start the sandbox (listen) before the drivers');
  return {
    UAE_API_KEY: ctx.key,
    UAE_API_BASE_URL: ctx.sandbox.url,
    UAE_API_RETRY_ATTEMPTS: '2',
    MANZIL_DB_PATH: tempDb(name),
    LOG_LEVEL: 'warn',
    PORT: '0',
  };
}

async function until(predicate: () => boolean | Promise<boolean>, what: string, timeoutMs = WAIT_MS): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function find<T extends { label: string }>(buttons: readonly T[], label: RegExp, seen: Seen): T {
  const found = buttons.find((b) => label.test(b.label));
  if (!found)
    throw new Error(
      `no button ${label} among [${buttons.map((b) => b.label).join(', ')}] in: ${seen.text.slice(0, 300)}`,
    );
  return found;
}

/** "rent marina 2br" → ["rent", "marina 2br"]; anything not a slash command goes to /manzil whole. */
const VERBS = new Set([
  'rent',
  'buy',
  'projects',
  'transactions',
  'trend',
  'agents',
  'brokers',
  'developers',
  'property',
  'location',
  'alerts',
  'value',
  'compare',
]);
function split(text: string): [string, string] {
  const [verb = '', ...rest] = text.trim().split(/\s+/);
  return VERBS.has(verb) ? [verb, rest.join(' ')] : ['manzil', text.trim()];
}

// ---- terminal ------------------------------------------------------------------------------------------------

const terminal: DriverFactory = {
  name: 'terminal',
  forms: false,
  async start(ctx) {
    const logs: string[] = [];
    const chunks: string[] = [];
    const output = new Writable({
      write(chunk, _enc, done) {
        chunks.push(String(chunk));
        done();
      },
    });
    const input = new PassThrough();
    const poster = new ConsolePoster(output, false);
    const manzil = await startManzil({
      env: baseEnv(ctx, 'terminal'),
      host: '127.0.0.1',
      terminal: poster,
      writeLog: (l) => logs.push(l),
    });
    const chat = runTerminalChat(manzil.bot, { input, output, poster, color: false });
    await until(() => chunks.length > 0, 'the banner');
    // With piped input the chat prints an alert as "\n" + its text, and a reply as its text alone.
    const isAlert = (chunk: string) => chunk.startsWith('\n');
    const numbers = new WeakMap<Seen, Map<string, number>>();
    const seen = (text: string): Seen => {
      const byLabel = new Map<string, number>();
      for (const m of text.matchAll(/\[(\d+)\] (.+?)(?=\s{2}\[\d+\]|\n|$)/g))
        if (!byLabel.has(m[2]!.trim())) byLabel.set(m[2]!.trim(), Number(m[1]));
      const s: Seen = { text, buttons: [...byLabel.keys()].map((label) => ({ label })), private: false };
      numbers.set(s, byLabel);
      return s;
    };
    const send = async (line: string): Promise<Seen> => {
      const from = chunks.length;
      input.write(`${line}\n`);
      await until(() => chunks.slice(from).some((c) => !isAlert(c)), `the answer to "${line}"`);
      return seen(chunks.slice(from).find((c) => !isAlert(c))!);
    };
    return {
      name: 'terminal',
      privateReplies: false,
      manzil,
      logs,
      command: send,
      press: (label, on) => {
        const byLabel = numbers.get(on)!;
        const found = find(
          [...byLabel.keys()].map((l) => ({ label: l })),
          label,
          on,
        );
        return send(String(byLabel.get(found.label)));
      },
      alerts: async () => chunks.filter(isAlert).map((c) => c.trim()),
      violations: () => [], // a terminal has no payload limits
      async close() {
        input.end();
        await chat;
        await manzil.stop();
      },
    };
  },
};

// ---- Slack ---------------------------------------------------------------------------------------------------

type SlackPayload = { text?: string; response_type?: string; blocks?: SlackBlock[] };
type SlackElement = { type?: string; action_id?: string; value?: string; text?: { text?: string } };
type SlackBlock = {
  type: string;
  elements?: (SlackElement & { actions?: SlackElement[] })[];
  accessory?: SlackElement;
};

/**
 * Every `text` string in a Slack payload: the fallback, mrkdwn sections, fields, context, cards and button labels, and
 * the links its buttons open (a carousel card's link is its View listing button).
 */
function slackText(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(slackText);
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([k, v]) =>
    (k === 'text' || k === 'url') && typeof v === 'string' ? [v] : slackText(v),
  );
}

const slack: DriverFactory = {
  name: 'Slack',
  forms: true,
  async start(ctx) {
    const SECRET = 'contract-signing-secret-01';
    const CHANNEL = 'C0DEALS'; // where the signed requests of test/fakes/slack-sign.ts come from
    const logs: string[] = [];
    const fake = await startFakeSlack();
    const manzil = await startManzil({
      env: {
        ...baseEnv(ctx, 'slack'),
        SLACK_BOT_TOKEN: 'xoxb-test',
        SLACK_SIGNING_SECRET: SECRET,
        SLACK_API_URL: fake.apiUrl,
      },
      host: '127.0.0.1',
      writeLog: (l) => logs.push(l),
    });
    const events = `http://127.0.0.1:${manzil.slackPort}/slack/events`;
    const payloads = new WeakMap<Seen, SlackPayload>();
    let seq = 0;
    const answer = async (post: (responseUrl: string) => Promise<{ status: number }>): Promise<Seen> => {
      const id = `c${++seq}`;
      const res = await post(fake.responseUrl(id));
      if (res.status !== 200) throw new Error(`Slack request answered ${res.status}`);
      await fake.waitFor(() => fake.responses(id).length > 0, WAIT_MS);
      const p = fake.responses(id).at(-1) as SlackPayload;
      const s: Seen = {
        text: slackText(p).join('\n'),
        buttons: slackButtons(p).map((b) => ({ label: b.text?.text ?? '' })),
        private: p.response_type === 'ephemeral',
      };
      payloads.set(s, p);
      return s;
    };
    const slackButtons = (p: SlackPayload): SlackElement[] =>
      (p.blocks ?? [])
        .flatMap((b) => [
          ...(b.type === 'actions' ? (b.elements ?? []) : []),
          ...(b.accessory ? [b.accessory] : []),
          // A carousel's cards carry their own buttons (Details, Save, a link).
          ...(b.type === 'carousel' ? (b.elements ?? []).flatMap((card) => card.actions ?? []) : []),
        ])
        .filter((e) => e.type === 'button' && e.action_id);
    const buttonOf = (label: RegExp, on: Seen) =>
      find(
        slackButtons(payloads.get(on)!).map((e) => ({ ...e, label: e.text?.text ?? '' })),
        label,
        on,
      );
    const forms = slackForms(fake, events, SECRET, CHANNEL, buttonOf);
    return {
      name: 'Slack',
      forms,
      privateReplies: true,
      manzil,
      logs,
      command: (text) => {
        const [verb, rest] = split(text);
        return answer((url) => signedPost(events, SECRET, slashCommand(`/${verb}`, rest, url)));
      },
      press: (label, on) => {
        const p = payloads.get(on)!;
        const b = find(
          slackButtons(p).map((e) => ({ ...e, label: e.text?.text ?? '' })),
          label,
          on,
        );
        return answer((url) => signedPost(events, SECRET, blockAction(b.action_id!, b.value ?? '', url)));
      },
      alerts: async () =>
        fake
          .messages(CHANNEL)
          .filter((m) => m.metadata?.event_type === 'manzil_alert')
          .map((m) => slackText(m).join('\n')),
      violations: () => [], // the fake Slack refuses invalid blocks outright (invalid_blocks), failing the scenario there
      async close() {
        await manzil.stop();
        await fake.close();
      },
    };
  },
};

type SlackView = { id: string; view: Record<string, unknown> };
type SlackInput = { block_id: string; element: Record<string, DiscordJson> };

/** Slack's forms: opened by a slash command's fresh trigger, the area picked from what its picker suggests. */
function slackForms(
  fake: FakeSlack,
  events: string,
  secret: string,
  channel: string,
  buttonOf: (label: RegExp, on: Seen) => SlackElement,
): FormsDriver {
  const open = async (command: string, text: string): Promise<SlackView> => {
    const before = fake.views().length;
    const res = await signedPost(
      events,
      secret,
      slashCommand(command, text, fake.responseUrl(), { trigger_id: fake.trigger() }),
    );
    if (res.status !== 200) throw new Error(`Slack answered ${res.status}`);
    await fake.waitFor(() => fake.views().length > before, WAIT_MS);
    return fake.views().at(-1)!;
  };
  /** What the form was opened with: each field's initial value, option or time. */
  const filled = (v: SlackView) =>
    ((v.view.blocks ?? []) as SlackInput[])
      .flatMap((b) => [
        b.element?.initial_value,
        b.element?.initial_option?.text?.text,
        b.element?.initial_time,
        ...((b.element?.initial_options ?? []) as DiscordJson[]).map((o) => o.text?.text),
      ])
      .filter((x): x is string => typeof x === 'string')
      .join('\n');
  const pickArea = async (v: SlackView, typed: string): Promise<string> => {
    const res = await signedPost(events, secret, {
      payload: JSON.stringify({
        type: 'block_suggestion',
        user: { id: 'U0ALICE', team_id: 'T0TEST' },
        team: { id: 'T0TEST' },
        action_id: 'manzil:form:area',
        block_id: 'area',
        value: typed,
        view: { ...v.view, id: v.id },
      }),
    });
    const options = (JSON.parse(res.text) as { options: { value: string }[] }).options;
    if (!options[0]) throw new Error(`Slack's area picker suggests nothing for "${typed}"`);
    return options[0].value;
  };
  const sel = (value: string) => ({ v: { type: 'static_select', selected_option: { value } } });
  const txt = (value: string) => ({ v: { type: 'plain_text_input', value } });
  const time = (t: string) => ({ v: { type: 'timepicker', selected_time: t } });
  const submit = async (v: SlackView, values: Record<string, Record<string, unknown>>): Promise<FormAnswer> => {
    const confirmations = () => fake.messages(channel).filter((m) => /Typed(, this form is)?: `/.test(String(m.text)));
    const before = confirmations().length;
    const res = await signedPost(events, secret, viewSubmission(v, values));
    const answer = res.text === '' ? {} : (JSON.parse(res.text) as { errors?: Record<string, string> });
    if (answer.errors)
      return {
        filled: filled(v),
        refused: { fields: neutral(Object.keys(answer.errors)), text: Object.values(answer.errors).join('\n') },
      };
    await fake.waitFor(() => confirmations().length > before, WAIT_MS);
    const m = confirmations().at(-1)!;
    return { filled: filled(v), saved: { text: slackText(m).join('\n'), buttons: [], private: false } };
  };
  return {
    async alert(fill, edit) {
      const v = await open('/alerts', edit === undefined ? 'new' : `edit ${edit}`);
      return submit(v, {
        area: { v: { type: 'external_select', selected_option: { value: await pickArea(v, fill.area) } } },
        deal: sel(fill.deal),
        ...(fill.priceMin ? { priceMin: txt(fill.priceMin) } : {}),
        ...(fill.priceMax ? { priceMax: txt(fill.priceMax) } : {}),
        every: sel(fill.every ?? 'instant'),
        ...(fill.time ? { time: time(fill.time) } : {}),
        ...(edit === undefined ? { to: sel('channel') } : {}),
      });
    },
    async save(label, on) {
      const b = buttonOf(label, on);
      const before = fake.views().length;
      const action = blockAction(b.action_id!, b.value ?? '', fake.responseUrl(), 'b1', { trigger_id: fake.trigger() });
      const res = await signedPost(events, secret, action);
      if (res.status !== 200) throw new Error(`Slack answered ${res.status}`);
      await fake.waitFor(() => fake.views().length > before, WAIT_MS);
      const v = fake.views().at(-1)!;
      // Submitted as the form was filled: each input's initial value as its state.
      const values: Record<string, Record<string, unknown>> = {};
      for (const block of (v.view.blocks ?? []) as SlackInput[]) {
        const e = block.element;
        if (!e) continue;
        const state = e.initial_option
          ? { type: e.type, selected_option: e.initial_option }
          : e.initial_options
            ? { type: e.type, selected_options: e.initial_options }
            : e.initial_value !== undefined
              ? { type: e.type, value: e.initial_value }
              : e.initial_time !== undefined
                ? { type: e.type, selected_time: e.initial_time }
                : undefined;
        if (state) values[block.block_id] = { [String(e.action_id ?? 'v')]: state };
      }
      return submit(v, values);
    },
    async digest(fill, edit) {
      const v = await open('/digest', edit === undefined ? 'new' : `edit ${edit}`);
      return submit(v, {
        areas: txt(fill.areas.join(', ')),
        every: sel(fill.every),
        ...(fill.day ? { day: sel(fill.day) } : {}),
        ...(fill.time ? { time: time(fill.time) } : {}),
      });
    },
  };
}

// ---- Discord -------------------------------------------------------------------------------------------------

/** What a Discord message shows: its content, and each embed's title, link, text, fields and footer. */
/** Every component of a message, however nested (Components V2 containers, sections and their accessories). */
const discordComponents = (list: DiscordJson[]): DiscordJson[] =>
  list.flatMap((c) => [
    c,
    ...discordComponents(c.components ?? []),
    ...discordComponents(c.accessory ? [c.accessory] : []),
  ]);

/**
 * What a Discord message says: its content and embeds, or in Components V2 its text displays and the links its
 * buttons open (a listing's link is its View listing button there, as on a Slack card).
 */
function discordText(m: DiscordJson): string {
  const embeds = (m?.embeds ?? []) as DiscordJson[];
  return [
    m?.content ?? '',
    ...discordComponents(m?.components ?? []).flatMap((c) =>
      c.type === 10 ? [c.content] : c.type === 2 && c.url ? [c.url] : [],
    ),
    ...embeds.flatMap((e) => [
      e.author?.name,
      e.title,
      e.url,
      e.description,
      ...(e.fields ?? []).flatMap((f: DiscordJson) => [f.name, f.value]),
      e.footer?.text,
    ]),
  ]
    .filter((s): s is string => typeof s === 'string' && s !== '')
    .join('\n');
}
const discordButtons = (m: DiscordJson): { label: string; custom_id?: string }[] =>
  discordComponents(m?.components ?? []).filter((c: DiscordJson) => c.type === 2 && c.custom_id);

const discord: DriverFactory = {
  name: 'Discord',
  forms: true,
  async start(ctx) {
    const logs: string[] = [];
    const fake = await startFakeDiscord();
    const manzil = await startManzil({
      env: {
        ...baseEnv(ctx, 'discord'),
        DISCORD_TOKEN: fake.botToken,
        DISCORD_API_URL: fake.apiUrl,
        SHUTDOWN_TIMEOUT_S: '0.5',
      },
      host: '127.0.0.1',
      writeLog: (l) => logs.push(l),
      discord: { autocompleteDeadlineMs: 400 },
    });
    await fake.ready();
    /** Which message a Seen is (for pressing its buttons): a message id, or an interaction token for its @original. */
    const refs = new WeakMap<Seen, { ref: string; message: DiscordJson }>();
    const make = (message: DiscordJson, ref: string, ephemeral: boolean): Seen => {
      const s: Seen = {
        text: discordText(message),
        buttons: discordButtons(message).map((b) => ({ label: b.label })),
        private: ephemeral,
      };
      refs.set(s, { ref, message });
      return s;
    };
    /**
     * The bot's answer to an interaction: a follow-up (the ephemeral path), an edit of a message, or an update
     * callback.
     */
    const answerTo = async (token: string, sourceRef?: string): Promise<Seen> => {
      const done = () =>
        fake
          .responses(token)
          .some(
            (r) =>
              r.kind === 'edit' || r.kind === 'followup' || (r.kind === 'callback' && (r.type === 4 || r.type === 7)),
          );
      await fake.waitFor(done, WAIT_MS);
      const log = fake.responses(token);
      const followUp = log.filter((r) => r.kind === 'followup').at(-1);
      if (followUp) return make(followUp.body, followUp.messageId!, followUp.ephemeral);
      const reply = log.find((r) => r.kind === 'callback' && r.type === 4);
      if (reply) return make(fake.original(token) ?? reply.body, token, reply.ephemeral);
      const edit = log.filter((r) => r.kind === 'edit').at(-1);
      if (edit) {
        const ref = edit.messageId ?? sourceRef ?? token;
        return make(fake.message(ref) ?? fake.original(token) ?? edit.body, ref, edit.ephemeral);
      }
      const update = log.find((r) => r.kind === 'callback' && r.type === 7)!;
      return make(fake.message(sourceRef!) ?? update.body, sourceRef!, update.ephemeral);
    };
    const forms = discordForms(fake, answerTo, (label, on) => {
      const { ref, message } = refs.get(on)!;
      return { ref, button: find(discordButtons(message), label, on) };
    });
    return {
      name: 'Discord',
      forms,
      privateReplies: true,
      manzil,
      logs,
      async command(text) {
        const [verb, rest] = split(text);
        // `/alerts add <search>` is a subcommand with its own query option; `/alerts pause 2` one with a number.
        const [sub = '', ...search] = rest.split(' ');
        const arg = search.join(' ');
        const subOptions = /^\d+$/.test(arg)
          ? [{ name: 'number', type: 4, value: Number(arg) }]
          : sub === 'add'
            ? [{ name: 'query', type: 3, value: arg }]
            : [];
        const options =
          verb === 'alerts' ? [{ name: sub, type: 1, options: subOptions }] : [{ name: 'query', type: 3, value: rest }];
        const { token } = await fake.slashCommand(verb, options);
        return answerTo(token);
      },
      async press(label, on) {
        const { ref, message } = refs.get(on)!;
        const b = find(discordButtons(message), label, on);
        const { token } = await fake.clickButton(b.custom_id!, { id: ref });
        return answerTo(token, ref);
      },
      async alerts() {
        await fake.waitFor(
          async () => (await manzil.alerts.outbox.stats()).pending + (await manzil.alerts.outbox.stats()).sending === 0,
          WAIT_MS,
        );
        return fake.messages(fake.channelId).map((m) => discordText(m.body));
      },
      violations: () => fake.violations(),
      async close() {
        await manzil.stop();
        await fake.close();
      },
    };
  },
};

/** The labels of Discord's form fields (adapters/discord/form-modals.ts), as the scenarios name the fields. */
const DISCORD_FIELDS: Record<string, string> = {
  Search: 'search',
  'Price (AED)': 'price',
  'How often': 'every',
  'Time of day': 'time',
  Areas: 'areas',
};

/**
 * Discord's forms: a slash command shows the modal, the person submits it (MODAL_SUBMIT); a refusal is an ephemeral
 * reply naming each wrong field in bold.
 */
function discordForms(
  fake: FakeDiscord,
  answerTo: (token: string) => Promise<Seen>,
  buttonOf: (label: RegExp, on: Seen) => { ref: string; button: DiscordJson },
): FormsDriver {
  const open = async (command: string, edit: number | undefined) => {
    const options =
      edit === undefined
        ? [{ name: 'new', type: 1, options: [] }]
        : [{ name: 'edit', type: 1, options: [{ name: 'number', type: 4, value: edit }] }];
    const { token } = await fake.slashCommand(command, options);
    await fake.waitFor(() => fake.responses(token).length > 0, WAIT_MS);
    const modal = fake.modal(token);
    if (!modal) throw new Error(`no form, but: ${JSON.stringify(fake.responses(token))}`);
    const filled = (modal.components as DiscordJson[])
      .flatMap((l) => [
        l.component.value,
        ...((l.component.options ?? []) as DiscordJson[]).filter((o) => o.default).map((o) => o.label),
      ])
      .filter((x): x is string => typeof x === 'string')
      .join('\n');
    return { token, filled };
  };
  const submit = async (form: { token: string; filled: string }, input: Record<string, string>) => {
    const { token } = await fake.submitModal(form.token, input);
    const seen = await answerTo(token);
    const first = fake.responses(token)[0];
    if (first?.kind === 'callback' && first.type === 4 && /^Not saved/.test(seen.text)) {
      const labels = [...seen.text.matchAll(/^• \*\*(.+?)\*\*:/gm)].map((m) => DISCORD_FIELDS[m[1]!] ?? m[1]!);
      return { filled: form.filled, refused: { fields: neutral(labels), text: seen.text } };
    }
    return { filled: form.filled, saved: seen };
  };
  const price = (min?: string, max?: string) =>
    min && max ? `${min}-${max}` : min ? `from ${min}` : max ? `up to ${max}` : '';
  return {
    async alert(fill, edit) {
      const form = await open('alerts', edit);
      return submit(form, {
        search: `${fill.deal} ${fill.area}`,
        price: price(fill.priceMin, fill.priceMax),
        every: fill.every ?? 'instant',
        time: fill.time ?? '',
        ...(edit === undefined ? { to: 'channel' } : {}),
      });
    },
    async save(label, on) {
      const { ref, button } = buttonOf(label, on);
      const { token } = await fake.clickButton(String(button.custom_id), { id: ref });
      await fake.waitFor(() => fake.responses(token).length > 0, WAIT_MS);
      const modal = fake.modal(token);
      if (!modal) throw new Error(`no form, but: ${JSON.stringify(fake.responses(token))}`);
      // Submitted as the form was filled: each field's value, or its default option.
      const input: Record<string, string> = {};
      const shown: string[] = [];
      for (const l of modal.components as DiscordJson[]) {
        const c = l.component;
        const chosen = ((c.options ?? []) as DiscordJson[]).find((o) => o.default);
        const value = typeof c.value === 'string' ? c.value : chosen ? String(chosen.value) : '';
        input[String(c.custom_id)] = value;
        if (typeof c.value === 'string') shown.push(c.value);
        if (chosen) shown.push(String(chosen.label));
      }
      return submit({ token, filled: shown.join('\n') }, input);
    },
    async digest(fill, edit) {
      const form = await open('digest', edit);
      return submit(form, {
        areas: fill.areas.join(', '),
        every: fill.every === 'weekly' ? `weekly:${fill.day ?? 'monday'}` : fill.every,
        time: fill.time ?? '',
      });
    },
  };
}

export const drivers: DriverFactory[] = [terminal, slack, discord];
