// `manzil outbox` and `manzil outbox retry`: the deliveries not yet on their platform, and parked ones put back.
// A real SQLite file written through the real outbox repository, the real command function and the real bin.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { duration, runOutboxCli } from '../../src/ops/outbox-cli.js';
import { createOutboxRepo, openStore } from '../../src/store/index.js';
import { tempDir } from './helpers.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const NOW = Date.parse('2026-11-30T12:00:00Z');
const MIN = 60_000;

const entry = (n: number, channel = 'slack:T1:C1') => ({
  channel,
  kind: n === 4 ? 'summary' : 'new',
  dedupeKey: `1:new:${n}`,
  payload: '{}',
  searchId: null,
});

/**
 * Five entries written 3 h ago: #1 parked after a refusal with a long error, #2 waiting for a retry (a possible
 * duplicate, to be looked for first), #3 in flight, #4 claimed and waiting its turn, #5 delivered. A channel is held.
 */
async function fixture() {
  const dbPath = join(tempDir('manzil-outbox-'), 'manzil.db');
  const store = openStore(dbPath);
  const outbox = createOutboxRepo(store, () => NOW);
  for (let n = 1; n <= 5; n++)
    await outbox.enqueue(entry(n, n === 2 ? 'discord:G1:C2' : 'slack:T1:C1'), NOW - 180 * MIN);
  const claim = await outbox.claimDue({
    holder: 'pid-1',
    at: NOW - 60 * MIN,
    leaseMs: 600 * MIN,
    perChannel: 10,
    channels: 10,
    platforms: ['slack', 'discord'],
  });
  const [e1, e2, e3, , e5] = claim;
  await outbox.markFailed(e1!.id, e1!.token, {
    error: 'msg_too_long: the platform\nrefused this message in every plainer form that was tried, for good',
    retryAt: undefined,
  });
  await outbox.markFailed(e2!.id, e2!.token, {
    error: 'timeout',
    retryAt: NOW + 5 * MIN,
    maybeDelivered: true,
    possibleDuplicate: true,
  });
  await outbox.markPosting(e3!.id, e3!.token, NOW - MIN, NOW + MIN);
  await outbox.markPosting(e5!.id, e5!.token, NOW - MIN, NOW + MIN);
  await outbox.markDelivered(e5!.id, e5!.token, 'ts-5', NOW);
  await outbox.holdChannel('slack:T1:C9', 'channel_not_found', NOW - 30 * MIN, NOW + 15 * MIN);
  store.close();
  return dbPath;
}

async function run(args: string[], dbPath: string) {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runOutboxCli(
    args,
    { dbPath, postgres: undefined },
    (l) => out.push(l),
    (l) => err.push(l),
    { now: () => NOW },
  );
  return { status, out, err };
}

const stateOf = async (dbPath: string, id: number) => {
  const store = openStore(dbPath);
  try {
    return await createOutboxRepo(store).byId(id);
  } finally {
    store.close();
  }
};

describe('manzil outbox', () => {
  it('lists parked entries, then waiting ones, with their age, next attempt, flags and last error trimmed; then a summary', async () => {
    const dbPath = await fixture();
    const { status, out, err } = await run([], dbPath);
    expect(err).toEqual([]);
    expect(status).toBe(0);
    expect(out[0]).toMatch(
      /^Parked \(1\): given up after DELIVERY_GIVE_UP_H, or refused for good by the platform\. `manzil outbox retry <id>` or `--all` sends them again\.$/,
    );
    expect(out[1]).toMatch(/^ {2}id +channel +kind +state +tries +age +next attempt +flags +last error$/);
    expect(out[2]).toMatch(
      /^ {2}#1 +slack:T1:C1 +new +failed +1 +3h +parked +- +msg_too_long: the platform refused this message in every pl…$/,
    );
    expect(out[3]).toBe('Waiting (3):');
    expect(out[5]).toMatch(/^ {2}#2 +discord:G1:C2 +new +pending +1 +3h +in 5m +dup,look +timeout$/);
    expect(out[6]).toMatch(/^ {2}#3 +slack:T1:C1 +new +sending +0 +3h +in flight +-$/);
    expect(out[7]).toMatch(/^ {2}#4 +slack:T1:C1 +summary +claimed +0 +3h +in a drainer +-$/);
    expect(out[8]).toBe('Held channel slack:T1:C9 since 30m ago (channel_not_found): tried again in 15m.');
    expect(out.at(-1)).toBe(
      'Outbox: 3 waiting (1 pending, 1 claimed, 1 in flight), 1 parked, 1 delivered; 1 possible duplicate; oldest waiting 3h; 1 held channel.',
    );
    expect(out.join('\n')).not.toMatch(/#5/);
  });

  it('answers JSON with --json, and shows at most --limit entries of each list', async () => {
    const dbPath = await fixture();
    const json = JSON.parse((await run(['--json'], dbPath)).out[0]!) as {
      stats: { failed: number; heldChannels: number };
      parked: { id: number }[];
      waiting: { id: number; nextAttemptAt: number | null; possibleDuplicate: boolean }[];
    };
    expect(json.stats).toMatchObject({ failed: 1, pending: 1, sending: 2, inFlight: 1, delivered: 1, heldChannels: 1 });
    expect(json.parked.map((e) => e.id)).toEqual([1]);
    expect(json.waiting).toEqual([
      expect.objectContaining({ id: 2, nextAttemptAt: NOW + 5 * MIN, possibleDuplicate: true }),
      expect.objectContaining({ id: 3, nextAttemptAt: null }),
      expect.objectContaining({ id: 4 }),
    ]);
    const limited = await run(['--limit', '1'], dbPath);
    expect(limited.out).toContain('  … and 2 more (--limit N shows more)');
  });

  it('says only the summary when nothing waits', async () => {
    const dbPath = join(tempDir('manzil-outbox-'), 'manzil.db');
    openStore(dbPath).close();
    expect((await run([], dbPath)).out).toEqual([
      'Outbox: 0 waiting (0 pending, 0 claimed, 0 in flight), 0 parked, 0 delivered; 0 possible duplicates; oldest waiting -; 0 held channels.',
    ]);
  });

  it('refuses a wrong command line (exit 2) and a database that is not there (exit 1), creating nothing', async () => {
    const dir = tempDir('manzil-outbox-');
    expect((await run(['--limit'], await fixture())).status).toBe(2);
    expect((await run(['retry'], await fixture())).status).toBe(2);
    expect((await run(['retry', 'x1'], await fixture())).status).toBe(2);
    const missing = await run([], join(dir, 'none.db'));
    expect(missing).toMatchObject({
      status: 1,
      err: [expect.stringMatching(/there is no database at .*none\.db \(MANZIL_DB_PATH\)$/)],
    });
    expect((await run([], ':memory:')).status).toBe(1);
  });
});

describe('manzil outbox retry', () => {
  it('puts one parked entry back (as new, looked for first when it may have been posted) and says so', async () => {
    const dbPath = await fixture();
    const r = await run(['retry', '1'], dbPath);
    expect(r).toMatchObject({
      status: 0,
      err: [],
      out: ['Entry #1 is back in the queue: a running Manzil sends it within about 30 s, else the next start does.'],
    });
    expect(await stateOf(dbPath, 1)).toMatchObject({
      state: 'pending',
      attempts: 0,
      firstAttemptAt: null,
      nextAttemptAt: NOW,
    });
    // Now it is no longer parked.
    expect((await run(['retry', '#1'], dbPath)).err).toEqual([
      'manzil outbox retry: entry #1 is waiting (pending), not parked: only parked entries can be retried',
    ]);
  });

  it('refuses an unknown id or one not parked, clearly, with exit 1 and nothing changed', async () => {
    const dbPath = await fixture();
    expect(await run(['retry', '99'], dbPath)).toMatchObject({
      status: 1,
      out: [],
      err: ['manzil outbox retry: there is no outbox entry #99 (`manzil outbox` lists them)'],
    });
    expect((await run(['retry', '3'], dbPath)).err).toEqual([
      'manzil outbox retry: entry #3 is being sent (sending), not parked: only parked entries can be retried',
    ]);
    expect((await run(['retry', '5'], dbPath)).err).toEqual([
      'manzil outbox retry: entry #5 was delivered, not parked: only parked entries can be retried',
    ]);
    expect((await stateOf(dbPath, 3))!.state).toBe('sending');
    expect((await stateOf(dbPath, 1))!.state).toBe('failed');
  });

  it('--all puts every parked entry back and says how many', async () => {
    const dbPath = await fixture();
    expect((await run(['retry', '--all'], dbPath)).out).toEqual([
      '1 parked delivery is back in the queue: a running Manzil sends them within about 30 s, else the next start does.',
    ]);
    expect((await run(['retry', '--all'], dbPath)).out).toEqual(['No parked deliveries: nothing to retry.']);
    expect((await stateOf(dbPath, 1))!.state).toBe('pending');
  });

  it('runs through the real bin, reading MANZIL_DB_PATH like `manzil backup`', async () => {
    const dbPath = await fixture();
    const bin = (...args: string[]) =>
      spawnSync(process.execPath, [join(repo, 'bin/manzil.js'), 'outbox', ...args], {
        cwd: tempDir(),
        encoding: 'utf8',
        timeout: 60_000,
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: tempDir(),
          MANZIL_FROM_SOURCE: '1',
          MANZIL_DB_PATH: dbPath,
        },
      });
    const listed = bin();
    expect(listed.status).toBe(0);
    expect(listed.stdout).toMatch(/^Outbox: 3 waiting .*1 held channel\.$/m);
    const refused = bin('retry', '99');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe('manzil outbox retry: there is no outbox entry #99 (`manzil outbox` lists them)\n');
  }, 60_000);
});

describe('duration', () => {
  it('reads at a glance', () => {
    expect([42_000, 12 * MIN, 303 * MIN, 100 * 60 * MIN].map(duration)).toEqual(['42s', '12m', '5h 3m', '4d 4h']);
  });
});
