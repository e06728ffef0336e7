// The contracts of the small repositories (button state, location cache, api usage, teams, Slack installations),
// through the ports only, so they run the same on SQLite and on Postgres (small-repos.test.ts): what a person,
// the bot or the operator would notice. Each repository is made by the opener with the test's clock, service or key,
// since those are fixed when a repository is made.
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Sealer, type NewDigest, type NewAlert } from '../../../src/store/index.js';
import { NEVER, REMOVED_REASON } from '../../../src/store/installations.js';
import type { ButtonStateRepo, LocationCacheRepo } from '../../../src/store/contracts/caches.js';
import type { ApiUsageRepo, TeamRepo } from '../../../src/store/contracts/usage.js';
import type { SlackInstallationRepo } from '../../../src/store/contracts/installations.js';
import type { OutboxRepo } from '../../../src/store/contracts/outbox.js';
import type { AlertsRepo } from '../../../src/store/contracts/alerts.js';
import type { DigestRepo } from '../../../src/store/contracts/digests.js';

type Clock = () => number;

/** Makes the repositories of these contracts on one database (each with its own clock, service or key). */
export interface SmallRepoMakers {
  buttonState(now?: Clock, service?: string): ButtonStateRepo;
  locationCache(now?: Clock, service?: string): LocationCacheRepo;
  apiUsage(baseUrl: string): ApiUsageRepo;
  teams(now?: Clock): TeamRepo;
  installations(sealer: Sealer, now?: Clock): SlackInstallationRepo;
}

interface Closing {
  close(): Promise<void>;
}
/** Another connection to the same database, as a second instance has (when the database has one). */
interface Connecting<R> {
  connect?(): Promise<R & Closing>;
}

export type ButtonStateDatabase = Pick<SmallRepoMakers, 'buttonState'> &
  Closing &
  Connecting<Pick<SmallRepoMakers, 'buttonState'>>;
export type LocationCacheDatabase = Pick<SmallRepoMakers, 'locationCache'> &
  Closing &
  Connecting<Pick<SmallRepoMakers, 'locationCache'>>;
export type ApiUsageDatabase = Pick<SmallRepoMakers, 'apiUsage'> &
  Closing &
  Connecting<Pick<SmallRepoMakers, 'apiUsage'>>;
/** Alerts and digests, when the opener has them, give `list` teams to count. */
export type TeamsDatabase = Pick<SmallRepoMakers, 'teams'> & { alerts?: AlertsRepo; digests?: DigestRepo } & Closing &
  Connecting<Pick<SmallRepoMakers, 'teams'>>;
export type InstallationsDatabase = Pick<SmallRepoMakers, 'installations'> & {
  alerts: AlertsRepo;
  outbox: OutboxRepo;
  digests?: DigestRepo;
} & Closing;

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const SERVICE = 'https://api.example';
const LIMITS = { perChannel: 25, perOwner: 50 };

/** A clock the test moves. */
function clock(start = Date.UTC(2026, 10, 24, 9)) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms), set: (at: number) => (t = at) };
}

/** One database per test, closed after it. */
function eachTest<D extends Closing>(open: () => Promise<D>): () => D {
  let db: D | undefined;
  beforeEach(async () => {
    db = await open();
  });
  afterEach(async () => {
    await db?.close();
    db = undefined;
  });
  return () => db!;
}

const search = (channel: string, name: string): NewAlert => ({
  service: SERVICE,
  channel,
  owner: 'U1',
  text: `rent ${name}`,
  query: JSON.stringify({ v: 1, name }),
  operation: 'search',
  paramsKey: `location=${name}`,
  summary: `Rent in ${name}`,
});

const digestIn = (channel: string): NewDigest => ({
  service: SERVICE,
  channel,
  owner: 'U1',
  areas: JSON.stringify([{ id: 5002, name: 'Dubai Marina' }]),
  schedule: JSON.stringify({ every: 'week', day: 1, time: '09:00' }),
  timezone: 'Asia/Dubai',
  nextRunAt: Date.UTC(2026, 11, 1),
});

async function saveSearch(alerts: AlertsRepo, channel: string, name = 'marina'): Promise<void> {
  const result = await alerts.create(search(channel, name), LIMITS);
  if (!result.ok) throw new Error(`not saved: ${result.reason}`);
}

async function saveDigest(digests: DigestRepo, channel: string): Promise<void> {
  const result = await digests.create(digestIn(channel), { perChannel: 10 });
  if (!result.ok) throw new Error(`not saved: ${result.reason}`);
}

export function buttonStateContract(open: () => Promise<ButtonStateDatabase>): void {
  const db = eachTest(open);

  describe('button state', () => {
    it('loads what was saved, whole, a week later and from another instance', async () => {
      const time = clock();
      const payload = {
        query: { operation: 'search-rent', text: 'rent 2 bed marina' },
        page: 3,
        offset: -1,
        note: 'دبي 🏙️',
      };
      const token = await db().buttonState(time.now).save('page', payload);
      time.advance(7 * DAY);
      expect(await db().buttonState(time.now).load(token)).toEqual({ kind: 'page', payload });
      const other = (await db().connect?.()) ?? db();
      expect(await other.buttonState(time.now).load(token)).toEqual({ kind: 'page', payload });
    });

    it('gives short, url-safe, distinct tokens; an unknown, empty or overlong token loads nothing', async () => {
      const repo = db().buttonState();
      const tokens = await Promise.all(Array.from({ length: 50 }, (_, i) => repo.save('details', { i })));
      for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(new Set(tokens).size).toBe(tokens.length);
      expect((await repo.load(tokens[23]!))?.payload).toEqual({ i: 23 });
      expect(await repo.load('no-such-token')).toBeUndefined();
      expect(await repo.load('')).toBeUndefined();
      expect(await repo.load('x'.repeat(500))).toBeUndefined();
      expect(await repo.load("' or 1=1 --")).toBeUndefined();
    });

    it('keeps undefined as null', async () => {
      const repo = db().buttonState();
      expect(await repo.load(await repo.save('noop', undefined))).toEqual({ kind: 'noop', payload: null });
    });

    it('loads in its own conversation and not in another; state saved without one loads anywhere', async () => {
      const repo = db().buttonState(Date.now, 'sandbox');
      const token = await repo.save('page', { n: 1 }, 'slack:C1');
      expect(await repo.load(token, 'slack:C2')).toBeUndefined();
      expect(await repo.load(token, 'discord:C1')).toBeUndefined();
      expect(await repo.load(token, 'slack:C1')).toEqual({ kind: 'page', payload: { n: 1 } });
      expect(await repo.load(token)).toEqual({ kind: 'page', payload: { n: 1 } });
      const anywhere = await repo.save('page', { n: 2 });
      expect(await repo.load(anywhere, 'slack:C9')).toEqual({ kind: 'page', payload: { n: 2 } });
    });

    it('loads under its own service only; state saved with no service loads only on the sandbox, which keeps it', async () => {
      const sandbox = db().buttonState(Date.now, 'sandbox');
      const live = db().buttonState(Date.now, 'https://api.example.test');
      const token = await sandbox.save('page', { n: 1 });
      expect(await live.load(token)).toBeUndefined();
      expect(await sandbox.load(token)).toEqual({ kind: 'page', payload: { n: 1 } });
      const liveToken = await live.save('page', { n: 3 });
      expect(await sandbox.load(liveToken)).toBeUndefined();
      expect(await live.load(liveToken)).toEqual({ kind: 'page', payload: { n: 3 } });

      const legacy = await db().buttonState().save('search', { page: 2 });
      expect(await live.load(legacy)).toBeUndefined();
      expect(await sandbox.load(legacy)).toEqual({ kind: 'search', payload: { page: 2 } });
      expect(await sandbox.load(legacy)).toBeDefined();
      expect(await live.load(legacy)).toBeUndefined();
    });

    it('gives an identical save in the same conversation the same token, kept as if used; anything else its own', async () => {
      const time = clock();
      const repo = db().buttonState(time.now, 'sandbox');
      const payload = { query: { operation: 'search-rent', text: 'rent 2 bed marina' }, page: 1 };
      const first = await repo.save('page', payload, 'slack:C1');
      time.advance(20 * DAY);
      expect(await repo.save('page', { ...payload }, 'slack:C1')).toBe(first);
      const others = [
        await repo.save('page', payload, 'slack:C2'),
        await repo.save('run', payload, 'slack:C1'),
        await repo.save('page', { ...payload, page: 2 }, 'slack:C1'),
        await db().buttonState(time.now, 'https://api.example.test').save('page', payload, 'slack:C1'),
      ];
      expect(new Set([first, ...others]).size).toBe(5);
      // Saved again 20 days on: not pruned 15 days after that.
      time.advance(15 * DAY);
      expect(await repo.prune(30 * DAY)).toBe(0);
      expect(await repo.load(first, 'slack:C1')).toEqual({ kind: 'page', payload });
      // From another instance too.
      const other = (await db().connect?.()) ?? db();
      expect(await other.buttonState(time.now, 'sandbox').save('page', payload, 'slack:C1')).toBe(first);
    });

    it('prunes state not used for the given time, counting use as well as saving; pruned state loads no more', async () => {
      const time = clock();
      const repo = db().buttonState(time.now);
      const oldUnused = await repo.save('page', { n: 1 });
      const oldButUsed = await repo.save('page', { n: 2 });
      time.advance(20 * DAY);
      await repo.load(oldButUsed);
      const recent = await repo.save('page', { n: 3 });
      time.advance(15 * DAY);
      expect(await repo.prune(30 * DAY)).toBe(1);
      expect(await repo.load(oldUnused)).toBeUndefined();
      expect(await repo.load(oldButUsed)).toEqual({ kind: 'page', payload: { n: 2 } });
      expect(await repo.load(recent)).toEqual({ kind: 'page', payload: { n: 3 } });
      expect(await repo.prune(30 * DAY)).toBe(0);
    });
  });
}

export function locationCacheContract(open: () => Promise<LocationCacheDatabase>): void {
  const db = eachTest(open);
  const marina = [{ id: 5002, name: 'Dubai Marina', path: 'Dubai > Dubai Marina' }];

  describe('location cache', () => {
    it('answers what was put, with when it was fetched, here and on another instance; an unknown query misses', async () => {
      const time = clock();
      const cache = db().locationCache(time.now, SERVICE);
      await cache.put('dubai marina', marina, HOUR);
      expect(await cache.get('dubai marina')).toEqual({ results: marina, fetchedAt: time.now() });
      expect(await cache.get('jvc')).toBeUndefined();
      const other = (await db().connect?.()) ?? db();
      expect(await other.locationCache(time.now, SERVICE).get('dubai marina')).toEqual({
        results: marina,
        fetchedAt: time.now(),
      });
    });

    it('expires entries by the clock; a fresh put replaces one; prune removes only the expired', async () => {
      const time = clock();
      const cache = db().locationCache(time.now, SERVICE);
      await cache.put('marina', marina, HOUR);
      time.advance(HOUR - 1);
      expect((await cache.get('marina'))?.results).toEqual(marina);
      time.advance(1);
      expect(await cache.get('marina')).toBeUndefined();
      await cache.put('marina', [], HOUR);
      expect(await cache.get('marina')).toEqual({ results: [], fetchedAt: time.now() });
      time.advance(2 * HOUR);
      await cache.put('jvc', [], HOUR);
      expect(await cache.prune()).toBe(1);
      expect(await cache.get('jvc')).toEqual({ results: [], fetchedAt: time.now() });
      expect(await cache.prune()).toBe(0);
    });

    it('treats case and spacing variants as one query', async () => {
      const cache = db().locationCache(Date.now, SERVICE);
      await cache.put('  Dubai   MARINA ', marina, HOUR);
      expect((await cache.get('dubai marina'))?.results).toEqual(marina);
      expect((await cache.get('DUBAI\tMarina'))?.results).toEqual(marina);
      await cache.put('dubai marina', [], HOUR);
      expect((await cache.get(' Dubai Marina'))?.results).toEqual([]);
      expect(await cache.answers()).toEqual([[]]);
    });

    it('never serves one service the answers of another', async () => {
      const time = clock();
      await db().locationCache(time.now, SERVICE).put('marina', marina, HOUR);
      const other = db().locationCache(time.now, 'http://127.0.0.1:4010');
      expect(await other.get('marina')).toBeUndefined();
      expect(await other.answers()).toEqual([]);
      await other.put('marina', [], HOUR);
      expect((await db().locationCache(time.now, SERVICE).get('marina'))?.results).toEqual(marina);
      expect(await db().locationCache(time.now, SERVICE).prune()).toBe(0);
    });

    it('answers every entry of the service, expired or not, newest first, at most the limit', async () => {
      const time = clock();
      const cache = db().locationCache(time.now, SERVICE);
      for (const name of ['marina', 'jvc', 'jlt']) {
        await cache.put(name, [{ name }], HOUR);
        time.advance(1_000);
      }
      time.advance(2 * HOUR);
      await cache.put('downtown', [{ name: 'downtown' }], HOUR);
      expect(await cache.answers()).toEqual([
        [{ name: 'downtown' }],
        [{ name: 'jlt' }],
        [{ name: 'jvc' }],
        [{ name: 'marina' }],
      ]);
      expect(await cache.answers(2)).toEqual([[{ name: 'downtown' }], [{ name: 'jlt' }]]);
      time.advance(1_000);
      await cache.put('Marina', [{ name: 'marina', again: true }], HOUR);
      expect((await cache.answers(1))[0]).toEqual([{ name: 'marina', again: true }]);
    });
  });
}

export function apiUsageContract(open: () => Promise<ApiUsageDatabase>): void {
  const db = eachTest(open);
  const at = (day: number, hour = 10) => Date.UTC(2026, 10, day, hour);

  describe('api usage', () => {
    it('counts calls per window, answers each window’s count after the call, and 0 for a window never used', async () => {
      const usage = db().apiUsage(SERVICE);
      expect(await usage.record(['day:2026-11-01', 'month:2026-11'], at(1))).toEqual({
        'day:2026-11-01': 1,
        'month:2026-11': 1,
      });
      expect(await usage.record(['day:2026-11-01', 'month:2026-11'], at(1, 11))).toEqual({
        'day:2026-11-01': 2,
        'month:2026-11': 2,
      });
      expect(await usage.record(['day:2026-11-02', 'month:2026-11'], at(2))).toEqual({
        'day:2026-11-02': 1,
        'month:2026-11': 3,
      });
      expect(await usage.count('day:2026-11-01')).toBe(2);
      expect(await usage.count('day:2026-11-02')).toBe(1);
      expect(await usage.count('month:2026-11')).toBe(3);
      expect(await usage.count('month:2026-12')).toBe(0);
    });

    it('keeps each service apart; two spellings of one base URL are one service', async () => {
      await db().apiUsage(SERVICE).record(['month:2026-11'], at(1));
      expect(await db().apiUsage('http://127.0.0.1:4010').count('month:2026-11')).toBe(0);
      expect(await db().apiUsage('https://API.example/').record(['month:2026-11'], at(1))).toEqual({
        'month:2026-11': 2,
      });
      expect(await db().apiUsage(SERVICE).count('month:2026-11')).toBe(2);
    });

    it('counts every call when two instances record at once: 50 calls are 50, each told a count of its own', async () => {
      const other = (await db().connect?.()) ?? db();
      const [a, b] = [db().apiUsage(SERVICE), other.apiUsage(SERVICE)];
      const told = await Promise.all(
        Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? a : b).record(['day:2026-11-24', 'month:2026-11'], at(24))),
      );
      expect(await a.count('day:2026-11-24')).toBe(50);
      expect(await b.count('month:2026-11')).toBe(50);
      const counts = told.map((t) => t['month:2026-11']).sort((x, y) => x! - y!);
      expect(counts).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    });
  });
}

export function teamsContract(open: () => Promise<TeamsDatabase>): void {
  const db = eachTest(open);
  const november = Date.UTC(2026, 10, 24, 9);

  describe('teams', () => {
    it('counts each team’s calls per UTC month; a team named twice in one call is charged once', async () => {
      const time = clock(november);
      const teams = db().teams(time.now);
      await teams.charge(['slack:T1']);
      await teams.charge(['slack:T1', 'slack:T2', 'slack:T1']);
      await teams.charge([]);
      expect(await teams.spent('slack:T1')).toBe(2);
      expect(await teams.spent('slack:T2')).toBe(1);
      expect(await teams.spent('slack:T3')).toBe(0);
      time.set(Date.UTC(2026, 11, 1, 0, 0, 1));
      expect(await teams.spent('slack:T1')).toBe(0);
      await teams.charge(['slack:T1']);
      expect(await teams.spent('slack:T1')).toBe(1);
      expect(await teams.spent('slack:T1', '2026-11')).toBe(2);
    });

    it('keeps a team’s own monthly share until the operator changes or clears it', async () => {
      const teams = db().teams();
      expect(await teams.budget('slack:T1')).toBeUndefined();
      await teams.setBudget('slack:T1', 20);
      await teams.setBudget('slack:T2', 5);
      expect(await teams.budget('slack:T1')).toBe(20);
      await teams.setBudget('slack:T1', 500);
      expect(await teams.budget('slack:T1')).toBe(500);
      await teams.setBudget('slack:T1', undefined);
      expect(await teams.budget('slack:T1')).toBeUndefined();
      expect(await teams.budget('slack:T2')).toBe(5);
      await teams.setBudget('slack:T9', undefined);
    });

    it('lists every team known, with its alerts, digests, calls this month and own share; biggest spenders first', async () => {
      const time = clock(november);
      const teams = db().teams(time.now);
      const { alerts, digests } = db();
      if (alerts) {
        await saveSearch(alerts, 'slack:T1:C1', 'marina');
        await saveSearch(alerts, 'slack:T1:C2', 'jvc');
        await saveSearch(alerts, 'discord:G1:123');
      }
      if (digests) await saveDigest(digests, 'slack:T1:C1');
      await teams.charge(['slack:T2']);
      await teams.charge(['slack:T2', 'slack:T3']);
      await teams.charge(['slack:T3']);
      await teams.setBudget('slack:T4', 10);
      const line = (team: string, o: { alerts?: number; digests?: number; calls?: number; budget?: number }) => ({
        team,
        alerts: 0,
        digests: 0,
        calls: 0,
        budget: undefined,
        ...o,
      });
      const expected = [
        line('slack:T2', { calls: 2 }),
        line('slack:T3', { calls: 2 }),
        ...(alerts ? [line('discord:G1', { alerts: 1 })] : []),
        ...(alerts || digests ? [line('slack:T1', { alerts: alerts ? 2 : 0, digests: digests ? 1 : 0 })] : []),
        line('slack:T4', { budget: 10 }),
      ];
      expect(await teams.list()).toEqual(expected);
      // Another month: its own spend (none: the teams known only from November's spend are not listed), the same
      // alerts, digests and shares.
      expect(await teams.list('2026-12')).toEqual(expected.filter((l) => l.calls === 0));
    });

    it('counts every charge when two instances charge at once', async () => {
      const other = (await db().connect?.()) ?? db();
      const [a, b] = [db().teams(() => november), other.teams(() => november)];
      await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          (i % 2 === 0 ? a : b).charge(i % 3 === 0 ? ['slack:T2', 'slack:T1'] : ['slack:T1', 'slack:T2']),
        ),
      );
      expect(await a.spent('slack:T1')).toBe(30);
      expect(await b.spent('slack:T2')).toBe(30);
    });
  });
}

export function installationsContract(open: () => Promise<InstallationsDatabase>): void {
  const db = eachTest(open);
  const key = () => randomBytes(32);
  const INSTALLATION = {
    team: { id: 'T1', name: 'One' },
    bot: { token: 'xoxb-T1-secret', userId: 'U0BOT', scopes: ['chat:write'] },
    isEnterpriseInstall: false,
  };
  const withToken = (token: string) => ({ ...INSTALLATION, bot: { ...INSTALLATION.bot, token } });

  describe('slack installations', () => {
    it('are read back whole after a save, replaced by a new install (kept from the first), and gone after a delete', async () => {
      const time = clock();
      const repo = db().installations(new Sealer(key()), time.now);
      const installedAt = time.now();
      expect(await repo.save({ teamId: 'T1' }, INSTALLATION)).toBe(true);
      time.advance(HOUR);
      expect(await repo.save({ teamId: 'T1' }, withToken('xoxb-T1-new'))).toBe(false);
      expect(await repo.fetch({ teamId: 'T1' })).toEqual(withToken('xoxb-T1-new'));
      expect(await repo.list()).toEqual([
        { teamId: 'T1', enterpriseId: null, installedAt, keyId: expect.stringMatching(/^[0-9a-f]{8}$/) },
      ]);
      expect(await repo.fetch({ teamId: 'T2' })).toBeUndefined();
      expect(await repo.delete({ teamId: 'T1' })).toBe(true);
      expect(await repo.delete({ teamId: 'T1' })).toBe(false);
      expect(await repo.fetch({ teamId: 'T1' })).toBeUndefined();
      expect(await repo.list()).toEqual([]);
    });

    it('keep an org-wide install, a workspace and a workspace of an enterprise apart; a workspace is found by its team alone', async () => {
      const time = clock();
      const repo = db().installations(new Sealer(key()), time.now);
      const keys = [{ enterpriseId: 'E1' }, { teamId: 'T1' }, { enterpriseId: 'E1', teamId: 'T2' }];
      for (const [i, k] of keys.entries()) {
        expect(await repo.save(k, withToken(`xoxb-${i}`))).toBe(true);
        time.advance(1_000);
      }
      for (const [i, k] of keys.entries()) expect(await repo.fetch(k)).toEqual(withToken(`xoxb-${i}`));
      // A channel (`slack:T2:C…`) names only the team: an Enterprise Grid workspace is found by it.
      expect(await repo.fetch({ teamId: 'T2' })).toEqual(withToken('xoxb-2'));
      expect(await repo.fetch({ teamId: 'T3' })).toBeUndefined();
      expect((await repo.list()).map((r) => [r.enterpriseId, r.teamId])).toEqual([
        ['E1', null],
        [null, 'T1'],
        ['E1', 'T2'],
      ]);
      // Removed by its team alone, the Grid workspace goes; the org-wide install and the other workspace stay.
      expect(await repo.delete({ teamId: 'T2' })).toBe(true);
      expect(await repo.fetch({ enterpriseId: 'E1', teamId: 'T2' })).toBeUndefined();
      expect((await repo.list()).map((r) => [r.enterpriseId, r.teamId])).toEqual([
        ['E1', null],
        [null, 'T1'],
      ]);
    });

    it('keep one installation per workspace: one that moved into an enterprise and adds Manzil again replaces the one before', async () => {
      const time = clock();
      const repo = db().installations(new Sealer(key()), time.now);
      expect(await repo.save({ teamId: 'T1' }, withToken('xoxb-before'))).toBe(true);
      time.advance(HOUR);
      expect(await repo.save({ enterpriseId: 'E1', teamId: 'T1' }, withToken('xoxb-grid'))).toBe(false);
      for (const k of [{ teamId: 'T1' }, { enterpriseId: 'E1', teamId: 'T1' }])
        expect(await repo.fetch(k)).toEqual(withToken('xoxb-grid'));
      expect((await repo.list()).map((r) => [r.enterpriseId, r.teamId])).toEqual([['E1', 'T1']]);
      // Removed as Slack's event names it (enterprise and team): nothing of the workspace is left.
      expect(await repo.delete({ enterpriseId: 'E1', teamId: 'T1' })).toBe(true);
      expect(await repo.fetch({ teamId: 'T1' })).toBeUndefined();
      expect(await repo.list()).toEqual([]);
    });

    it('are sealed: what the store keeps names no token, and another key cannot open it', async () => {
      const sealer = new Sealer(key());
      await db().installations(sealer).save({ teamId: 'T1' }, INSTALLATION);
      const listed = await db().installations(sealer).list();
      expect(JSON.stringify(listed)).not.toContain('xoxb');
      expect(listed[0]!.keyId).toBe(sealer.keyId);
      await expect(db().installations(new Sealer(key())).fetch({ teamId: 'T1' })).rejects.toThrow(
        /not MANZIL_ENCRYPTION_KEY/,
      );
    });

    it('rotate: a new key with the old one previous seals everything again, once; then the old key can go', async () => {
      const [oldKey, newKey] = [key(), key()];
      const before = db().installations(new Sealer(oldKey));
      await before.save({ teamId: 'T1' }, INSTALLATION);
      await before.save({ teamId: 'T2' }, withToken('xoxb-T2'));
      const rotating = db().installations(new Sealer(newKey, [oldKey]));
      await rotating.save({ teamId: 'T3' }, withToken('xoxb-T3'));
      await expect(db().installations(new Sealer(newKey)).fetch({ teamId: 'T1' })).rejects.toThrow(
        /not MANZIL_ENCRYPTION_KEY/,
      );
      expect(await rotating.reseal()).toBe(2);
      expect(await rotating.reseal()).toBe(0);
      const after = db().installations(new Sealer(newKey));
      expect(await after.fetch({ teamId: 'T1' })).toEqual(INSTALLATION);
      expect(await after.fetch({ teamId: 'T2' })).toEqual(withToken('xoxb-T2'));
      expect((await after.list()).map((r) => r.keyId)).toEqual(Array(3).fill(new Sealer(newKey).keyId));
    });

    it('a removed workspace holds only its own channels with alerts, digests or queued messages; adding it again releases only those, their queue due', async () => {
      const time = clock();
      const { alerts, outbox, digests } = db();
      const repo = db().installations(new Sealer(key()), time.now);
      const later = time.now() + DAY;
      // Two workspaces, one whose id starts as the other's does.
      for (const team of ['T1', 'T12']) {
        await saveSearch(alerts, `slack:${team}:C1`);
        await outbox.enqueue(
          { channel: `slack:${team}:C2`, kind: 'new', dedupeKey: `${team}:x`, payload: '{}' },
          later,
        );
      }
      if (digests) await saveDigest(digests, 'slack:T1:C3');
      // A channel of T1 that cannot receive for a reason of its own stays held when the app comes back.
      await outbox.holdChannel('slack:T1:C9', 'channel_not_found', time.now(), time.now() + HOUR);
      const mine = ['slack:T1:C1', 'slack:T1:C2', ...(digests ? ['slack:T1:C3'] : [])];

      expect(await repo.holdWorkspace('slack:T1:')).toBe(mine.length);
      for (const channel of mine)
        expect(await outbox.heldChannel(channel)).toEqual({ reason: REMOVED_REASON, since: time.now() });
      expect((await outbox.heldChannels()).filter((h) => h.reason === REMOVED_REASON).map((h) => h.retryAt)).toEqual(
        mine.map(() => NEVER),
      );
      expect(await outbox.heldChannel('slack:T12:C1')).toBeUndefined();
      expect(await outbox.heldChannel('slack:T12:C2')).toBeUndefined();
      expect((await outbox.heldChannel('slack:T1:C9'))?.reason).toBe('channel_not_found');
      // Removed twice: still held since the first time.
      time.advance(1_000);
      expect(await repo.holdWorkspace('slack:T1:')).toBe(mine.length);
      expect((await outbox.heldChannel('slack:T1:C1'))?.since).toBe(time.now() - 1_000);

      time.advance(1_000);
      expect(await repo.releaseWorkspace('slack:T1:')).toBe(mine.length);
      for (const channel of mine) expect(await outbox.heldChannel(channel)).toBeUndefined();
      expect((await outbox.heldChannel('slack:T1:C9'))?.reason).toBe('channel_not_found');
      expect((await outbox.list({ channel: 'slack:T1:C2' })).map((e) => e.nextAttemptAt)).toEqual([time.now()]);
      expect((await outbox.list({ channel: 'slack:T12:C2' })).map((e) => e.nextAttemptAt)).toEqual([later]);
      expect(await repo.releaseWorkspace('slack:T1:')).toBe(0);
    });
  });
}
