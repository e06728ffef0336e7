// A fair share of the operator's monthly quota for each team: the real composition root on a sandbox over loopback,
// commands from two Slack workspaces, the poller, /metrics and `manzil teams`. One team spends its share: it is told so
// plainly and its alerts wait; the other is untouched; the operator raises the share and it goes on.
import { readingOf } from '../../src/bot/pipeline/read.js';
import { understand } from '../../src/bot/pipeline/understand.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { runTeamsCli } from '../../src/ops/teams-cli.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { teamOf } from '../../src/ports/index.js';
import { createPersonUseRepo, createTeamRepo, openStore } from '../../src/store/index.js';
import { createLogger } from '../../src/log.js';
import { limitingPeople, PersonLimiter, TeamShares } from '../../src/teams/index.js';
import type { ChatCore, OrderCommand } from '../../src/ports/index.js';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';

const KEY = 'sk-fair-share-1818';
let sandbox: Sandbox;
let slack: FakeSlack;
let manzil: Manzil;
const HOT = 'slack:T0HOT:C0HOT';
const COOL = 'slack:T0COOL:C0COOL';

beforeAll(async () => {
  sandbox = createSandbox({ key: KEY });
  await sandbox.listen();
  slack = await startFakeSlack();
  manzil = await startManzil({
    env: {
      UAE_API_KEY: KEY,
      UAE_API_BASE_URL: sandbox.url!,
      SLACK_BOT_TOKEN: 'xoxb-test',
      SLACK_SIGNING_SECRET: 'fair-share-secret',
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      MANZIL_DB_PATH: join(mkdtempSync(join(tmpdir(), 'manzil-teams-')), 'manzil.db'),
      LOG_LEVEL: 'warn',
      ALERTS_CRON: '0 0 1 1 *',
      // 200 calls a month for everyone; each team may spend a tenth of them: 20.
      UAE_API_BUDGET_PER_MONTH: '200',
      TEAM_SHARE_PCT: '10',
    },
    host: '127.0.0.1',
    writeLog: () => {},
  });
});
afterAll(async () => {
  await manzil?.stop();
  await slack.close();
  await sandbox.close();
});

const ask = (channel: string, text: string) => manzil.bot.handleCommand({ user: 'U0ALICE', channel, text });
const SPENT = /This workspace has used its share of this month's property lookups/;

const quiet = createLogger({ level: 'error', secrets: [] });

describe('a fair share of the quota for each team', () => {
  it('counts each team’s calls; a team that spends its share is told so plainly, while the other is answered', async () => {
    expect((await ask(HOT, 'alerts add rent marina')).text).toMatch(/Saved as alert #1/);
    expect((await ask(COOL, 'alerts add rent marina')).text).toMatch(/Saved as alert #1/);
    let last = '';
    for (let page = 0; page < 40 && !SPENT.test(last); page++)
      last = (await ask(HOT, `rent marina ${page % 2 ? '1br' : '2br'} under ${100 + page}k`)).text;
    expect(last).toMatch(SPENT);
    expect(last).not.toMatch(/T0HOT|slack:/); // no internals in chat
    expect((await ask(COOL, 'rent marina 3br')).text).not.toMatch(SPENT);
    const spent = createTeamRepo(openStore(manzil.config.dbPath));
    expect(await spent.spent('slack:T0HOT')).toBe(20);
    expect(await spent.spent('slack:T0COOL')).toBeGreaterThan(0);
    expect(await manzil.metrics.text()).toMatch(/manzil_team_upstream_calls_total\{team="slack:T0HOT"\} 20/);
  });

  it('the spent team’s alerts wait while the other’s are checked; `manzil teams` shows why', async () => {
    sandbox.advance(120);
    const report = await manzil.alerts.poll();
    expect(report.searches).toBe(1); // only the cool team's alert was due to run
    const lines: string[] = [];
    expect(
      await runTeamsCli(
        [],
        manzil.config,
        (l) => lines.push(l),
        () => {},
      ),
    ).toBe(0);
    expect(lines.find((l) => l.includes('slack:T0HOT'))).toMatch(/20\s+20 {2}SPENT: its alerts and digests wait/);
    expect(lines.find((l) => l.includes('slack:T0COOL'))).not.toMatch(/SPENT/);
    // And the channel says why its alerts went quiet; the other's does not.
    expect((await ask(HOT, 'alerts list')).text).toMatch(
      /This workspace has used its share of this month's property lookups: its alerts are not checked/,
    );
    expect((await ask(COOL, 'alerts list')).text).not.toMatch(/used its share/);
  });

  it('the operator raises one team’s share (manzil teams set): it is answered again, and its alerts run', async () => {
    const lines: string[] = [];
    expect(
      await runTeamsCli(
        ['set', 'slack:T0HOT', '500'],
        manzil.config,
        (l) => lines.push(l),
        () => {},
      ),
    ).toBe(0);
    expect(lines).toEqual(['slack:T0HOT may spend 500 calls a month.']);
    expect((await ask(HOT, 'rent marina 4br')).text).not.toMatch(SPENT);
    sandbox.advance(120);
    expect((await manzil.alerts.poll()).searches).toBe(2);
    expect(
      await runTeamsCli(
        ['set', 'slack:T0HOT'],
        manzil.config,
        () => {},
        () => {},
      ),
    ).toBe(2); // a usage error
  });
});

describe('the share policy', () => {
  const store = () => openStore(':memory:');
  it('leaves teams unlimited without a monthly quota, unless the operator set their own share', async () => {
    const teams = createTeamRepo(store());
    const shares = new TeamShares(teams, {
      perMonth: undefined,
      sharePct: 10,
      chatReservePct: 10,
      monthSpent: async () => 0,
    });
    expect(await shares.shareOf('slack:T1')).toBeUndefined();
    await teams.setBudget('slack:T1', 2);
    await teams.charge(['slack:T1']);
    await teams.charge(['slack:T1', 'slack:T2']);
    expect((await shares.check({ teams: ['slack:T1'], purpose: 'chat' }))?.reason).toMatch(
      /slack:T1 has used its share of this month's calls \(2 of 2\)/,
    );
    expect(await shares.check({ teams: ['slack:T2'], purpose: 'chat' })).toBeUndefined();
    expect(await shares.check(undefined)).toBeUndefined();
  });

  it('keeps the end of the month for chat: background work stops there, chat lookups go on', async () => {
    let spent = 0;
    const shares = new TeamShares(createTeamRepo(store()), {
      perMonth: 1_000,
      sharePct: 100,
      chatReservePct: 10,
      monthSpent: async () => spent,
    });
    spent = 899;
    expect(await shares.check({ teams: ['slack:T1'], purpose: 'background' })).toBeUndefined();
    spent = 900;
    expect((await shares.check({ teams: ['slack:T1'], purpose: 'background' }))?.reason).toMatch(
      /kept for chat lookups/,
    );
    expect(await shares.check({ teams: ['slack:T1'], purpose: 'chat' })).toBeUndefined();
  });

  it('names the team of a channel by its platform and workspace', () => {
    expect(teamOf('slack:T1:C1')).toBe('slack:T1');
    expect(teamOf('discord:G1:123')).toBe('discord:G1');
    expect(teamOf('console:local')).toBe('console:local');
  });
});

describe('per-person limits on the costliest asks', () => {
  /** A core that answers every request, and counts what reached it. */
  const counting = () => {
    const reached: string[] = [];
    const reply = async (what: string) => (reached.push(what), { text: `ran ${what}`, blocks: [] });
    const core: ChatCore = {
      // The real reading of stage 1, every part on: what a command costs is what the bot reads it as.
      read: (req) => readingOf(understand(req, { alerts: true, digests: true, compare: true, value: true }, quiet)),
      handleCommand: (req) => reply(req.text),
      handleAction: (req) => reply(req.action),
      handlePick: () => reply('pick'),
      suggestLocations: async () => [],
      immediateReply: () => undefined,
      describe: async () => undefined,
      orderForm: async () => ({ ok: false, reply: { text: 'no form', blocks: [] } }),
    };
    return { core, reached };
  };

  it('lets one person search, page, test alerts and ask for digests up to the hour’s limits, then says when to try again; others go on', async () => {
    let t = Date.UTC(2026, 10, 24, 9);
    const { core, reached } = counting();
    const uses = createPersonUseRepo(openStore(':memory:'), () => t);
    const limited = limitingPeople(
      core,
      new PersonLimiter(
        uses,
        { pagesPerHour: 3, runsPerHour: 2, searchesPerHour: 2 },
        createLogger({ level: 'error', secrets: [] }),
      ),
    );
    const page = (user: string, channel = HOT) => limited.handleAction({ user, channel, action: 'page', token: 'x' });
    for (let i = 0; i < 3; i++) expect((await page('U1')).text).toBe('ran page');
    const refused = await page('U1');
    expect(refused).toMatchObject({
      ephemeral: true,
      text: expect.stringMatching(
        /You've asked for 3 pages of results in the last hour.*Try again in about 60 minutes/,
      ),
    });
    expect((await page('U2')).text).toBe('ran page'); // another person of the same team
    expect((await page('U1', COOL)).text).toBe('ran page'); // the same id in another workspace is another person
    // Tests of alerts and digests on request share one limit; other alert and digest commands have none.
    expect((await limited.handleCommand({ user: 'U1', channel: HOT, text: 'alerts test 1' })).text).toBe(
      'ran alerts test 1',
    );
    expect((await limited.handleCommand({ user: 'U1', channel: HOT, text: '/digest now marina' })).text).toBe(
      'ran /digest now marina',
    );
    expect((await limited.handleCommand({ user: 'U1', channel: HOT, text: 'alerts test 2' })).text).toMatch(
      /2 alert tests, digests on request and comparisons/,
    );
    expect((await limited.handleCommand({ user: 'U1', channel: HOT, text: 'alerts list' })).text).toBe(
      'ran alerts list',
    );
    // Searches have their own: an area chosen from "which one?" is one too.
    t += 30 * 60_000;
    expect((await limited.handleCommand({ user: 'U1', channel: HOT, text: 'rent marina' })).text).toBe(
      'ran rent marina',
    );
    expect((await limited.handleAction({ user: 'U1', channel: HOT, action: 'choose', token: 'x' })).text).toBe(
      'ran choose',
    );
    expect((await limited.handleCommand({ user: 'U1', channel: HOT, text: 'rent jvc' })).text).toMatch(
      /You've asked for 2 searches in the last hour.*Try again in about 60 minutes/,
    );
    t += 30 * 60_000 + 1; // the pages and runs of an hour ago have left the window; the searches not yet
    expect((await page('U1')).text).toBe('ran page');
    expect((await limited.handleCommand({ user: 'U1', channel: HOT, text: 'rent jvc' })).text).toMatch(
      /Try again in about 30 minutes/,
    );
    expect(reached.filter((r) => r === 'page')).toHaveLength(6);
    expect(reached).not.toContain('rent jvc');
  });

  it('counts a test or a digest on request that came as Discord options (no text) as the typed ones', async () => {
    const { core } = counting();
    const limited = limitingPeople(
      core,
      new PersonLimiter(
        createPersonUseRepo(openStore(':memory:'), () => Date.UTC(2026, 10, 24, 9)),
        { pagesPerHour: 3, runsPerHour: 2, searchesPerHour: 5 },
        createLogger({ level: 'error', secrets: [] }),
      ),
    );
    const ask = (order: OrderCommand) => limited.handleCommand({ user: 'U1', channel: HOT, text: '', order });
    expect((await ask({ kind: 'alert', sub: 'test', number: 1 })).text).toBe('ran ');
    expect((await ask({ kind: 'digest', sub: 'now', areas: ['marina'] })).text).toBe('ran ');
    expect((await ask({ kind: 'alert', sub: 'test', number: 2 })).text).toMatch(
      /2 alert tests, digests on request and comparisons/,
    );
    // Listing and pausing cost no lookup: never limited.
    for (let i = 0; i < 6; i++) expect((await ask({ kind: 'alert', sub: 'list' })).text).toBe('ran ');
    expect((await ask({ kind: 'digest', sub: 'pause', number: 1 })).text).toBe('ran ');
  });

  it('lets the ask through, and logs why, when the database cannot count it', async () => {
    const { core } = counting();
    const store = openStore(':memory:');
    const uses = createPersonUseRepo(store);
    store.close();
    const lines: string[] = [];
    const logger = createLogger({ level: 'warn', secrets: [], format: 'json', write: (l) => lines.push(l) });
    const limited = limitingPeople(
      core,
      new PersonLimiter(uses, { pagesPerHour: 1, runsPerHour: 1, searchesPerHour: 1 }, logger),
    );
    expect((await limited.handleCommand({ user: 'U1', channel: HOT, text: 'rent marina' })).text).toBe(
      'ran rent marina',
    );
    expect(lines.map((l) => JSON.parse(l) as { msg: string; kind: string })).toContainEqual(
      expect.objectContaining({ msg: expect.stringMatching(/per-person limit could not be counted/), kind: 'search' }),
    );
  });
});
