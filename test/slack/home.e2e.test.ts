// The Home tab, end to end: the real Bolt app started by the composition root, signed app_home_opened events and
// button presses from the tab, typed slash commands, and the fake Slack recording each view views.publish accepted
// (a home view, at most 100 blocks, each block within Block Kit's rules).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';
import { blockAction, sign, signedPost, slashCommand } from '../fakes/slack-sign.js';

const SECRET = 'home-signing-secret-0001';
const KEY = 'sk-home-e2e-key-4242';
const TEAM = 'T0TEST';
const ALICE = 'U0ALICE';
const BOB = 'U0BOB';
let sandbox: Sandbox;
let slack: FakeSlack;
let manzil: Manzil;
let seq = 0;

const events = () => `http://127.0.0.1:${manzil.slackPort}/slack/events`;

async function command(cmd: string, text: string, user = ALICE, channel = 'C0DEALS'): Promise<string> {
  const id = `h${++seq}`;
  const res = await signedPost(
    events(),
    SECRET,
    slashCommand(cmd, text, slack.responseUrl(id), { user_id: user, channel_id: channel }),
  );
  expect(res.status).toBe(200);
  await slack.waitFor(() => slack.responses(id).length > 0, 15_000);
  return (slack.responses(id).at(-1) as { text: string }).text;
}

/** app_home_opened as Slack sends it: with the view last published to the person, or none on a first visit. */
async function openHome(user: string, view?: unknown) {
  const body = JSON.stringify({
    type: 'event_callback',
    team_id: TEAM,
    api_app_id: 'A0MANZIL',
    event_id: `Ev${++seq}`,
    event_time: 1,
    event: { type: 'app_home_opened', user, channel: `D${user}`, tab: 'home', ...(view ? { view } : {}) },
  });
  const timestamp = Math.floor(Date.now() / 1000);
  const res = await fetch(events(), {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': sign(SECRET, timestamp, body),
    },
  });
  expect(res.status).toBe(200);
}

type View = { type: string; blocks: Block[] };
type Block = {
  type: string;
  text?: { text: string };
  elements?: { action_id?: string; value?: string; text?: { text: string } }[];
};

const views = (user: string) => slack.homeViews(TEAM, user) as View[];
const last = (user: string) => views(user).at(-1)!;
/** What the person reads on the tab: every text, one line per block. */
const read = (view: View) =>
  view.blocks
    .map((b) => [b.text?.text, ...(b.elements ?? []).map((e) => e.text?.text ?? (e as { text?: string }).text)])
    .flat()
    .filter(Boolean)
    .join('\n');
const buttons = (view: View) => view.blocks.flatMap((b) => b.elements ?? []).filter((e) => e.action_id);

/** Waits for the person's tab to be published again, after `count` views, and answers the newest. */
async function republished(user: string, count: number, until: (text: string) => boolean = () => true) {
  await slack.waitFor(() => views(user).length > count && until(read(last(user))), 15_000);
  return last(user);
}

/** A press of a button on the person's Home tab (no channel, no response_url: a view's container). */
async function press(user: string, button: { action_id?: string; value?: string }) {
  const res = await signedPost(
    events(),
    SECRET,
    blockAction(button.action_id!, button.value ?? '', '', 'b1', {
      user: { id: user, username: user, team_id: TEAM },
      channel: undefined,
      response_url: undefined,
      container: { type: 'view', view_id: 'V1' },
      view: { id: 'V1', type: 'home', team_id: TEAM },
    }),
  );
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  sandbox = createSandbox({ key: KEY });
  await sandbox.listen();
  slack = await startFakeSlack();
  manzil = await startManzil({
    env: {
      UAE_API_KEY: KEY,
      UAE_API_BASE_URL: sandbox.url,
      SLACK_BOT_TOKEN: 'xoxb-test',
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      MANZIL_DB_PATH: join(mkdtempSync(join(tmpdir(), 'manzil-home-e2e-')), 'manzil.db'),
      LOG_LEVEL: 'warn',
      // Open tabs drawn again every second when what they show changed in the background.
      SLACK_HOME_REFRESH_S: '1',
    },
    host: '127.0.0.1',
    writeLog: (l) => process.env.DEBUG_E2E && console.log(l),
  });
  expect(await command('/alerts', 'add rent marina')).toMatch(/^Saved as alert #1/);
  expect(await command('/alerts', 'add me buy jvc daily at 9:00')).toMatch(/^Saved as your alert #1 \(to me\)/);
  expect(await command('/digest', 'add dubai marina')).toMatch(/^Saved digest #1/);
  expect(await command('/alerts', 'add rent downtown', BOB, 'C0OTHER')).toMatch(/^Saved as alert #1/);
});
afterAll(async () => {
  await manzil.stop();
  await slack.close();
  await sandbox.close();
});

describe('the Home tab on Slack', () => {
  it("lists each person's own alerts and digests, with channel, schedule, state and last post, and no one else's", async () => {
    // Saved before either opened the tab: nothing was published for them, so their first visit is still one.
    expect(views(ALICE)).toHaveLength(0);
    await openHome(ALICE);
    await slack.waitFor(() => views(ALICE).length > 0, 15_000);
    const alice = read(last(ALICE));
    expect(last(ALICE).type).toBe('home');
    expect(alice).toMatch(/\*Your alerts\* \(2\)/);
    expect(alice).toMatch(
      /#1 · Homes for rent in Dubai Marina\*\n<#C0DEALS> · instant · 🟢 active · nothing posted yet/,
    );
    expect(alice).toMatch(/#1 · Homes for sale in Jumeirah Village Circle[^\n]*\*\nto me · daily at 09:00 · 🟢 active/);
    expect(alice).toMatch(/\*Your digests\* \(1\)/);
    expect(alice).toMatch(
      /#1 · Dubai Marina\*\n<#C0DEALS> · every Monday at 09:00 \([^)]+\) · 🟢 active · nothing posted yet/,
    );
    expect(alice).not.toMatch(/Downtown/);
    const ids = buttons(last(ALICE)).map((b) => b.action_id);
    expect(ids).toEqual(expect.arrayContaining(['manzil:form:new:alert', 'manzil:form:new:digest']));
    expect(ids.filter((a) => a === 'manzil:form:edit:alert')).toHaveLength(2);
    expect(ids.filter((a) => a === 'manzil:form:edit:digest')).toHaveLength(1);

    await openHome(BOB);
    await slack.waitFor(() => views(BOB).length > 0, 15_000);
    const bob = read(last(BOB));
    expect(bob).toMatch(/\*Your alerts\* \(1\)/);
    expect(bob).toMatch(/#1 · Homes for rent in Downtown Dubai\*\n<#C0OTHER>/);
    expect(bob).toMatch(/\*Your digests\* \(0\)\nNo digests yet\./);
    expect(bob).not.toMatch(/Marina|Jumeirah/);
  });

  it('shows "try this" on a first visit, and not on a later one', async () => {
    const first = views(ALICE)[0]!;
    expect(read(first)).toMatch(/\*Try this\*/);
    const count = views(ALICE).length;
    await openHome(ALICE, { id: 'V1', type: 'home', blocks: first.blocks });
    const later = await republished(ALICE, count);
    expect(read(later)).not.toMatch(/Try this/);
    expect(read(later)).toMatch(/Your alerts/);
  });

  it('pauses, resumes and removes from its buttons, each drawn again with what it did', async () => {
    const rent = () => buttons(last(ALICE)).filter((b) => b.value?.startsWith('alert:'));
    const marina = (await manzil.alerts.repo.listByChannel(`slack:${TEAM}:C0DEALS`))[0]!;
    let count = views(ALICE).length;
    const pause = rent().find((b) => b.action_id === `manzil:home:pause:alert:${marina.id}`)!;
    expect(pause.text!.text).toBe('Pause');
    await press(ALICE, pause);
    let view = await republished(ALICE, count, (t) => t.includes('Paused alert #1'));
    expect(read(view)).toMatch(/#1 · Homes for rent in Dubai Marina\*\n<#C0DEALS> · instant · ⏸️ paused ·/);
    expect(await command('/alerts', 'list')).toMatch(/#1 · Homes for rent in Dubai Marina · paused/);

    count = views(ALICE).length;
    const resume = rent().find((b) => b.action_id === `manzil:home:resume:alert:${marina.id}`)!;
    expect(resume.text!.text).toBe('Resume');
    await press(ALICE, resume);
    view = await republished(ALICE, count, (t) => t.includes('Resumed alert #1'));
    expect(read(view)).toMatch(/#1 · Homes for rent in Dubai Marina\*\n<#C0DEALS> · instant · 🟢 active/);

    // Bob presses a button crafted with Alice's alert: the typed commands' rights check refuses it, nothing changes.
    const bobCount = views(BOB).length;
    await press(BOB, { action_id: `manzil:home:pause:alert:${marina.id}`, value: `alert:${marina.id}` });
    const bobs = await republished(BOB, bobCount);
    expect(read(bobs)).toMatch(/Only the person who saved alert #1, or a workspace or server admin, can pause it\./);
    expect((await manzil.alerts.repo.byId(marina.id))!.paused).toBe(false);

    count = views(ALICE).length;
    const digest = buttons(last(ALICE)).find((b) => b.action_id?.startsWith('manzil:home:remove:digest:'))!;
    await press(ALICE, digest);
    view = await republished(ALICE, count, (t) => t.includes('Removed digest #1'));
    expect(read(view)).toMatch(/\*Your digests\* \(0\)\nNo digests yet\./);
    expect(await command('/digest', 'list')).toMatch(/^No digests in this channel yet/);
  });

  it("draws the owner's tab again after a typed /alerts pause, and not another person's", async () => {
    const [alice, bob] = [views(ALICE).length, views(BOB).length];
    expect(await command('/alerts', 'pause 1')).toMatch(/^Paused alert #1/);
    const view = await republished(ALICE, alice);
    expect(read(view)).toMatch(/#1 · Homes for rent in Dubai Marina\*\n<#C0DEALS> · instant · ⏸️ paused/);
    // A typed save draws it too.
    expect(await command('/alerts', 'add rent jlt')).toMatch(/^Saved as alert #2/);
    expect(read(await republished(ALICE, alice + 1, (t) => t.includes('(3)')))).toMatch(
      /#2 · Homes for rent in Jumeirah Lake Towers/,
    );
    expect(views(BOB)).toHaveLength(bob);
  });

  it('draws an open tab again when its alert posts in the background, with no press or command', async () => {
    await openHome(BOB);
    const before = views(BOB).length;
    expect(read(last(BOB))).toMatch(/nothing posted yet/);
    await manzil.alerts.poll(); // the first look: nothing posted
    sandbox.advance(1_440); // a day of market
    const report = await manzil.alerts.poll();
    expect(report.queued).toBeGreaterThan(0);
    await manzil.alerts.drainer.drain();
    const view = await republished(BOB, before, (t) => /last posted/.test(t));
    expect(read(view)).toMatch(/#1 · Homes for rent in Downtown Dubai\*\n<#C0OTHER> · instant · .*last posted/s);
  });
});
