// Issue 30's market answers on Slack end to end: the real Bolt app started by the composition root, signed requests
// over HTTP, its Web API calls and response_urls on the fake Slack, the sandbox as the property service, SQLite in a
// temp dir. `/compare`'s chart is uploaded as a private file and shown in the reply by its `slack_file` (its text and a
// note when Slack refuses the upload: a token without files:write); a listing's Details then "What is it worth?" brings
// the estimate; `/compare` and `/value`, typed or by button, count against the person's hourly limits, and a person
// past them is told so without a call to the service.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHART_NOT_ATTACHED } from '../../adapters/slack/upload.js';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { decodePng } from '../charts/png.js';
import { DEFAULT_SLACK_SCOPES, startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';
import { blockAction, signedPost, slashCommand } from '../fakes/slack-sign.js';

const KEY = 'sk-slack-market-answers-3030';
const SECRET = 'market-answers-signing-secret';
const WAIT_MS = 30_000;
const LIMIT_TEXT = /the most one person can/;
let sandbox: Sandbox;
let fake: FakeSlack;
let manzil: Manzil;
let events: string;

beforeAll(async () => {
  sandbox = createSandbox({ key: KEY });
  await sandbox.listen();
  fake = await startFakeSlack();
  manzil = await startManzil({
    env: {
      UAE_API_KEY: KEY,
      UAE_API_BASE_URL: sandbox.url!,
      UAE_API_RETRY_ATTEMPTS: '2',
      SLACK_BOT_TOKEN: 'xoxb-test',
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: fake.apiUrl,
      PORT: '0',
      MANZIL_DB_PATH: join(mkdtempSync(join(tmpdir(), 'manzil-slack-market-')), 'manzil.db'),
      LOG_LEVEL: 'warn',
      // One comparison an hour, and four lookups: a search, a listing's details, its value and one typed /value.
      PERSON_RUNS_PER_HOUR: '1',
      PERSON_SEARCHES_PER_HOUR: '4',
    },
    host: '127.0.0.1',
    writeLog: () => {},
  });
  events = `http://127.0.0.1:${manzil.slackPort}/slack/events`;
}, 60_000);
afterAll(async () => {
  await manzil?.stop();
  await fake?.close();
  await sandbox?.close();
});
afterEach(() => fake.grantScopes(DEFAULT_SLACK_SCOPES));

type Block = { type: string; slack_file?: { id?: string }; elements?: Element[]; accessory?: Element };
type Element = { type?: string; action_id?: string; value?: string; text?: { text?: string } };
type Payload = { text?: string; response_type?: string; blocks?: Block[] };

let seq = 0;
/** Sends a signed request whose response_url is fresh; resolves with the reply the person saw there. */
async function reply(form: (responseUrl: string) => Record<string, string>): Promise<Payload> {
  const id = `market${++seq}`;
  const res = await signedPost(events, SECRET, form(fake.responseUrl(id)));
  expect(res.status).toBe(200);
  await fake.waitFor(() => fake.responses(id).length > 0, WAIT_MS);
  return fake.responses(id).at(-1) as Payload;
}

const command = (name: string, text: string, user: string) =>
  reply((url) => slashCommand(`/${name}`, text, url, { user_id: user }));
const press = (button: Element, user: string) =>
  reply((url) =>
    blockAction(button.action_id!, button.value ?? '', url, 'b1', {
      user: { id: user, username: user, team_id: 'T0TEST' },
    }),
  );

/** Every `text` string in a payload: the fallback, sections, fields, context and button labels. */
function textOf(node: unknown): string {
  if (Array.isArray(node)) return node.map(textOf).join('\n');
  if (node === null || typeof node !== 'object') return '';
  return Object.entries(node)
    .map(([k, v]) => (k === 'text' && typeof v === 'string' ? v : textOf(v)))
    .filter(Boolean)
    .join('\n');
}

/** The `nth` button (from 0) whose label matches. */
function buttonOf(p: Payload, label: RegExp, nth = 0): Element {
  const found = (p.blocks ?? [])
    .flatMap((b) => [
      ...(b.type === 'actions' ? (b.elements ?? []) : []),
      ...(b.accessory ? [b.accessory] : []),
      // A carousel's cards carry their own buttons.
      ...(b.type === 'carousel'
        ? (b.elements ?? []).flatMap((card) => (card as { actions?: Element[] }).actions ?? [])
        : []),
    ])
    .filter((e) => e.type === 'button' && e.action_id && label.test(e.text?.text ?? ''))[nth];
  if (!found) throw new Error(`no button ${label} in ${textOf(p).slice(0, 300)}`);
  return found;
}

/** What the sandbox was asked while `work` ran. */
async function callsDuring(work: () => Promise<unknown>): Promise<number> {
  const before = sandbox.requests().length;
  await work();
  return sandbox.requests().length - before;
}

describe('Slack: /compare with its chart, /value by button, and the person limits', () => {
  it(
    "/compare's reply shows the chart uploaded as a PNG file; a second compare is over the limit, with no call",
    {
      timeout: 90_000,
    },
    async () => {
      const uploadsBefore = fake.uploads().length;
      const seen = await command('compare', 'marina, jlt 2br', 'U0CHART1');
      expect(seen.response_type).toBe('in_channel');
      expect(textOf(seen)).toMatch(/Dubai Marina vs Jumeirah Lake Towers/);
      const shown = (seen.blocks ?? []).filter((b) => b.type === 'image' && b.slack_file);
      expect(shown).toHaveLength(1);
      const upload = fake.uploads().slice(uploadsBefore);
      expect(upload.map((u) => [u.id, u.filename, u.complete])).toEqual([
        [shown[0]!.slack_file!.id, 'compare.png', true],
      ]);
      const png = decodePng(upload[0]!.bytes!);
      expect(png.width).toBeGreaterThan(200);
      expect(png.height).toBeGreaterThan(100);
      expect(textOf(seen)).not.toContain(CHART_NOT_ATTACHED);

      let over: Payload | undefined;
      const calls = await callsDuring(async () => {
        over = await command('compare', 'downtown, business bay', 'U0CHART1');
      });
      expect(over!.response_type).toBe('ephemeral');
      expect(textOf(over)).toMatch(LIMIT_TEXT);
      expect(textOf(over)).toMatch(/asked for 1 alert test, digest on request or comparison in the last hour/);
      expect(calls).toBe(0);
    },
  );

  it(
    'answers with the chart as text and a note when Slack refuses the upload (no files:write)',
    {
      timeout: 90_000,
    },
    async () => {
      fake.grantScopes(DEFAULT_SLACK_SCOPES.filter((s) => s !== 'files:write'));
      const seen = await command('compare', 'marina, jlt 2br', 'U0CHART2');
      expect(textOf(seen)).toMatch(/Dubai Marina vs Jumeirah Lake Towers/);
      expect(textOf(seen)).toMatch(/AED per sqft, compared/);
      expect(textOf(seen)).toContain(CHART_NOT_ATTACHED);
      expect((seen.blocks ?? []).some((b) => b.type === 'image' && b.slack_file)).toBe(false);
    },
  );

  it(
    'shows a chart Slack is still processing once it is ready, asking again after a wait',
    { timeout: 90_000 },
    async () => {
      // Long enough that the reply sent right after the upload finds the file processing on a loaded machine (as in the
      // uploads contract), shorter than the reply's one wait (1.5 s).
      fake.fileProcessing(1_000);
      try {
        const id = `market${seq + 1}`;
        const seen = await command('compare', 'marina, jlt 2br', 'U0CHART3');
        const refused = fake.responseAttempts(id).filter((a) => !a.accepted);
        expect(refused.map((a) => a.errors.join())).toEqual([expect.stringMatching(/invalid slack file/)]);
        expect((seen.blocks ?? []).filter((b) => b.type === 'image' && b.slack_file)).toHaveLength(1);
        expect(textOf(seen)).not.toContain(CHART_NOT_ATTACHED);
      } finally {
        fake.fileProcessing(0);
      }
    },
  );

  it(
    "a listing's Details, then What is it worth?, brings the estimate; /value, Details and the button count as lookups",
    {
      timeout: 120_000,
    },
    async () => {
      const user = 'U0VALUE1';
      const results = await command('rent', 'marina 2br', user);
      const card = await press(buttonOf(results, /^Details\b/), user);
      const worth = buttonOf(card, /What is it worth/);
      const estimate = textOf(await press(worth, user));
      expect(estimate).toMatch(/What a 2-bed .+ in Dubai Marina is worth/);
      expect(estimate).toMatch(/(Sale price|Annual rent): AED [\d,]+ to AED [\d,]+/);
      expect(estimate).toMatch(/From the middle half of \d+/);
      expect(estimate).toMatch(/is (\d+ % (above|below) the range's (top|bottom)|within the range)/);
      expect(estimate).toMatch(/not a valuation/);

      expect(textOf(await command('value', 'jvc 2br', user))).toMatch(/in Jumeirah Village Circle is worth/);

      // Four lookups made: the button, /value and Details again are past the limit, and ask the service nothing.
      let byButton: Payload | undefined;
      let byCommand: Payload | undefined;
      let details: Payload | undefined;
      const calls = await callsDuring(async () => {
        byButton = await press(worth, user);
        byCommand = await command('value', 'downtown 1br', user);
        details = await press(buttonOf(results, /^Details\b/, 1), user);
      });
      for (const over of [byButton, byCommand, details]) {
        expect(over!.response_type).toBe('ephemeral');
        expect(textOf(over)).toMatch(LIMIT_TEXT);
      }
      expect(calls).toBe(0);
    },
  );
});
