// `manzil restore <file>`: a backup put in place of the database. Real SQLite files, the real backup and restore, the
// real outbox drainer; the chat platform keeps what was posted and answers lookups from it, as Slack's history and
// Discord's nonces do.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { backupDatabase } from '../../src/ops/backup.js';
import { restoreDatabase, runRestoreCli } from '../../src/ops/restore.js';
import { PostFailure, type ChatPoster, type LookupRequest, type LookupResult } from '../../src/ports/index.js';
import { createLeaseRepo, createOutboxRepo, deliveryIdOf, openStore, readDbId } from '../../src/store/index.js';
import type { Reply } from '../../src/views/model.js';
import { alertsRig, ctx } from '../alerts/helpers.js';
import { tempDir } from './helpers.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A chat platform: what was posted stays there, and a lookup answers from it (by channel and delivery id, as Slack's
 * history with our metadata does). It accepts `budget` more posts, then rate-limits the channel for an hour.
 */
class Platform implements ChatPoster {
  readonly platform = 'test';
  readonly posts: { channel: string; deliveryId: string; messageId: string; text: string }[] = [];
  readonly lookups: { deliveryId: string; found: boolean }[] = [];
  budget = Infinity;
  async post(channel: string, reply: Reply, deliveryId: string) {
    if (this.budget <= 0) throw new PostFailure('ratelimited', 'wait', 3_600_000);
    this.budget--;
    const messageId = `m${this.posts.length + 1}`;
    this.posts.push({ channel, deliveryId, messageId, text: reply.text });
    return { messageId };
  }
  async findDelivered(r: LookupRequest): Promise<LookupResult> {
    const hit = this.posts.find((p) => p.channel === r.channel && p.deliveryId === r.deliveryId);
    this.lookups.push({ deliveryId: r.deliveryId, found: hit !== undefined });
    return hit ? { kind: 'found', messageId: hit.messageId } : { kind: 'absent' };
  }
  timesPosted(deliveryId: string): number {
    return this.posts.filter((p) => p.deliveryId === deliveryId).length;
  }
}

const notice = (searchId: number, dedupeKey: string, channel = 'test:c2') => ({
  channel,
  kind: 'recovered',
  dedupeKey,
  payload: JSON.stringify({ v: 1, kind: 'recovered', search: { id: searchId, number: 1, summary: 'rent marina' } }),
});

const cli = async (args: string[], dbPath: string) => {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runRestoreCli(
    args,
    dbPath,
    (l) => out.push(l),
    (l) => err.push(l),
  );
  return { status, out, err };
};

/** A Manzil database with one outbox entry, and a backup of it. */
async function dbWithBackup() {
  const dir = tempDir('manzil-restore-');
  const dbPath = join(dir, 'manzil.db');
  const store = openStore(dbPath);
  await createOutboxRepo(store).enqueue(notice(1, 'n1'));
  store.close();
  const backup = join(dir, 'backup.db');
  await backupDatabase(dbPath, backup);
  return { dir, dbPath, backup };
}

describe('manzil restore', () => {
  it('a database restored from a backup taken before some deliveries: nothing posted twice, nothing lost', async () => {
    const platform = new Platform();
    const rig = await alertsRig();
    await rig.commands.handle(ctx(), 'add rent marina');
    await rig.commands.handle(ctx(), 'add buy marina');
    await rig.poll(); // the first look records what exists and posts nothing
    for (let i = 0; i < 10 && (await rig.outbox.list({ state: 'pending' })).length < 6; i++) {
      rig.sandbox.advance(180);
      await rig.poll();
    }
    // One entry is in flight at the backup: another instance has started posting it.
    const [inFlight] = await rig.outbox.claimDue({
      holder: 'other',
      at: Date.now(),
      leaseMs: 60_000,
      perChannel: 1,
      channels: 1,
      platforms: ['test'],
    });
    expect(await rig.outbox.markPosting(inFlight!.id, inFlight!.token, Date.now(), Date.now() + 60_000)).toBe(true);
    const queued = await rig.outbox.list();
    expect(queued.length).toBeGreaterThanOrEqual(6);
    const backup = join(tempDir('manzil-restore-'), 'before.db');
    await backupDatabase(rig.dbFile, backup);

    // After the backup: the in-flight post lands, three more are delivered, and the database writes a notice (an id the
    // restored database will give out again) that is delivered too. The rest waits (the channel is rate-limited).
    await platform.post(inFlight!.channel, { text: 'in flight', blocks: [] }, inFlight!.deliveryId);
    expect(await rig.outbox.markDelivered(inFlight!.id, inFlight!.token, 'm1', Date.now())).toBe(true);
    platform.budget = 3;
    expect((await rig.newDrainer({ posters: [platform] }).drain()).delivered).toBe(3);
    await rig.outbox.enqueue(notice(1, 'after-backup'));
    const afterBackup = (await rig.outbox.list()).at(-1)!;
    platform.budget = 1;
    expect((await rig.newDrainer({ posters: [platform] }).drain()).delivered).toBe(1);
    expect(platform.timesPosted(deliveryIdOf(afterBackup))).toBe(1);
    const deliveredAfterBackup = queued.filter((q) => platform.timesPosted(deliveryIdOf(q)) === 1);
    expect(deliveredAfterBackup).toHaveLength(4);
    const idsUsed = new Set(platform.posts.map((p) => p.deliveryId));
    const oldDbId = readDbId(rig.store.sqlite);

    // Manzil stops; the database is restored from the backup.
    rig.store.close();
    const restored = await cli([backup, '--json'], rig.dbFile);
    expect(restored.err).toEqual([]);
    expect(restored.status).toBe(0);
    const report = JSON.parse(restored.out[0]!) as {
      toLookFor: number;
      parked: number;
      alerts: number;
      dbId: string;
      keptAs: string;
    };
    expect(report).toMatchObject({ toLookFor: queued.length, parked: 0, alerts: 2 });
    expect(report.dbId).not.toBe(oldDbId);
    expect(existsSync(report.keptAs)).toBe(true);

    // Manzil starts again on it and drains: the four delivered after the backup are found, the rest posted once.
    const again = rig.reopen();
    expect(await again.outbox.list({ state: ['claimed', 'sending'] })).toEqual([]);
    expect((await again.outbox.list({ state: 'pending' })).every((r) => r.maybeDelivered)).toBe(true);
    platform.budget = Infinity;
    const drained = await again.newDrainer({ posters: [platform] }).drain();
    expect(drained).toMatchObject({
      recoveredFound: 4,
      delivered: queued.length - 4,
      failed: 0,
      possibleDuplicates: 0,
    });
    for (const q of queued) expect(platform.timesPosted(deliveryIdOf(q))).toBe(1);
    expect(new Set(platform.posts.map((p) => p.deliveryId)).size).toBe(platform.posts.length);
    expect((await again.outbox.list()).map((r) => [r.id, r.state])).toEqual(queued.map((q) => [q.id, 'delivered']));
    // Those found keep the message id the platform has.
    for (const q of deliveredAfterBackup)
      expect((await again.outbox.byId(q.id))!.messageId).toBe(
        platform.posts.find((p) => p.deliveryId === deliveryIdOf(q))!.messageId,
      );

    // A new entry after the restore takes the same row id as the notice written after the backup, but not its delivery
    // id: it is posted, not taken for the notice already on the platform.
    await again.outbox.enqueue(notice(1, 'after-restore'));
    const fresh = (await again.outbox.list()).at(-1)!;
    expect(fresh.id).toBe(afterBackup.id);
    expect(idsUsed.has(deliveryIdOf(fresh))).toBe(false);
    expect(await again.newDrainer({ posters: [platform] }).drain()).toMatchObject({ delivered: 1, recoveredFound: 0 });
    expect(platform.timesPosted(deliveryIdOf(fresh))).toBe(1);
  });

  it('listings the poller found after the backup are looked for on the platform after the restore, not posted again', async () => {
    const platform = new Platform();
    const rig = await alertsRig();
    await rig.commands.handle(ctx(), 'add rent marina');
    await rig.poll(); // the first look: what exists is recorded, nothing posted
    const backup = join(tempDir('manzil-restore-'), 'before.db');
    await backupDatabase(rig.dbFile, backup);
    // After the backup, the market moves: the poller finds new listings and they are posted.
    let queued = 0;
    for (let i = 0; i < 10 && queued === 0; i++) {
      rig.sandbox.advance(180);
      queued = (await rig.poll()).queued;
    }
    expect(queued).toBeGreaterThan(0);
    expect((await rig.newDrainer({ posters: [platform] }).drain()).delivered).toBe(queued);
    const posted = platform.posts.length;

    // The database is lost and restored from the backup, which knows none of those listings.
    rig.store.close();
    expect((await cli([backup], rig.dbFile)).status).toBe(0);
    const again = rig.reopen();
    // The next run finds them "new" again: queued under the same delivery ids, looked for first, found, not posted.
    expect((await again.poll()).queued).toBeGreaterThanOrEqual(queued);
    const drained = await again.newDrainer({ posters: [platform] }).drain();
    expect(drained.recoveredFound).toBe(queued);
    expect(platform.posts.length - posted).toBe(drained.delivered);
    expect(new Set(platform.posts.map((p) => p.deliveryId)).size).toBe(platform.posts.length);
    // A later run, with the market moving on, posts what is new as usual: no look needed any more.
    rig.sandbox.advance(600);
    await again.poll();
    const lookupsBefore = platform.lookups.length;
    await again.newDrainer({ posters: [platform] }).drain();
    expect(platform.lookups.length).toBe(lookupsBefore);
  });

  it('a run re-decided after a restore tells the channel of its price drops once: its line is not posted again', async () => {
    const platform = new Platform();
    const rig = await alertsRig();
    await rig.commands.handle(ctx(), 'add rent marina');
    await rig.poll(); // the first look
    // New listings, posted as cards: where each landed is kept, for its drops to reply under it.
    let queued = 0;
    for (let i = 0; i < 20 && queued < 4; i++) {
      rig.sandbox.advance(180);
      queued += (await rig.poll()).queued;
    }
    await rig.newDrainer({ posters: [platform] }).drain();
    const search = (await rig.repo.byNumber('test:c1', 1))!;
    // The listings whose own card was posted (a copy from another agent rides in its card, with no thread of its own).
    const carded = new Set(
      (await rig.outbox.list({ state: 'delivered' })).map((r) => r.kind === 'new' && r.propertyId),
    );
    const cards = (await rig.repo.seen(search.id)).filter((r) => carded.has(r.propertyId) && r.lastPrice);
    expect(cards.length).toBeGreaterThanOrEqual(4);
    const lines = () => platform.posts.filter((p) => p.text.startsWith('📉 Price drops in this check')).length;
    const cheaper = (r: (typeof cards)[0]) =>
      expect(rig.sandbox.reprice(r.propertyId, Math.round(r.lastPrice! * 0.9))).toBe(true);
    const backup = join(tempDir('manzil-restore-'), 'before.db');
    await backupDatabase(rig.dbFile, backup);

    // After the backup, two cards' listings drop: each replies in its thread, and the channel gets its one line.
    cards.slice(0, 2).forEach(cheaper);
    await rig.poll();
    await rig.newDrainer({ posters: [platform] }).drain();
    expect(lines()).toBe(1);
    const posted = platform.posts.length;

    // Restored from the backup: the next run decides those drops again, finds them on the platform, and so its line.
    rig.store.close();
    expect((await cli([backup], rig.dbFile)).status).toBe(0);
    const again = rig.reopen();
    await again.poll();
    const drained = await again.newDrainer({ posters: [platform] }).drain();
    expect(drained.recoveredFound).toBeGreaterThanOrEqual(3); // the two drops and their line
    expect(platform.posts.length).toBe(posted);
    expect(lines()).toBe(1);
    expect(await again.outbox.list({ state: 'folded' })).toEqual([expect.objectContaining({ kind: 'drops' })]);

    // Drops that are new after it get their line as ever.
    cards.slice(2, 4).forEach(cheaper);
    await again.poll();
    await again.newDrainer({ posters: [platform] }).drain();
    expect(lines()).toBe(2);
  });

  it('refuses while a Manzil instance runs on the database, and says so; --force overrides', async () => {
    const { dir, dbPath, backup } = await dbWithBackup();
    const store = openStore(dbPath);
    await createLeaseRepo(store).heartbeat({ id: 'pid-4242', host: 'box', pid: 4242 }, Date.now() - 3_000);
    store.close();
    const before = readFileSync(dbPath);

    const refused = await cli([backup], dbPath);
    expect(refused.status).toBe(1);
    expect(refused.out).toEqual([]);
    expect(refused.err).toEqual([
      expect.stringMatching(
        /^manzil restore: Manzil is running on .*manzil\.db \(instance pid-4242 on box, pid 4242, heartbeat 3 s ago\): stop it first/,
      ),
    ]);
    expect(readFileSync(dbPath).equals(before)).toBe(true);
    expect(readdirSync(dir).filter((f) => /before-restore|restoring/.test(f))).toEqual([]);

    const forced = await cli([backup, '--force'], dbPath);
    expect(forced.status).toBe(0);
    expect(forced.out).toEqual([
      expect.stringMatching(
        /^Restored .*backup\.db into .*manzil\.db \(the database it replaced is kept as .*manzil\.db\.before-restore-\d{8}T\d{6}Z\): 1 undelivered entry to look for on the platform before sending, 0 parked entries, 0 saved searches; new database id [0-9a-f]{10}\. Start Manzil again\.$/,
      ),
    ]);
  });

  it('goes ahead once the heartbeat is older than 15 s (an instance that crashed), and forgets instances and leases', async () => {
    const { dbPath, backup } = await dbWithBackup();
    // The backup itself holds a live-looking instance and a held job lease (it was taken while Manzil ran).
    const b = openStore(backup);
    const leases = createLeaseRepo(b);
    await leases.heartbeat({ id: 'then', host: 'box', pid: 1 }, Date.now());
    await leases.acquire('alerts-poll', 'then', Date.now(), 3_600_000);
    b.sqlite.pragma('journal_mode = DELETE');
    b.close();
    const store = openStore(dbPath);
    await createLeaseRepo(store).heartbeat({ id: 'crashed', host: 'box', pid: 4242 }, Date.now() - 16_000);
    for (let i = 0; i < 40; i++) await createLeaseRepo(store).acquire(`job-${i}`, 'x', 0, 1); // the current database's tokens ran further
    const generation = Number(
      (store.sqlite.prepare("SELECT value FROM db_meta WHERE key = 'generation'").get() as { value: string }).value,
    );
    store.close();

    expect((await cli([backup], dbPath)).status).toBe(0);
    const after = openStore(dbPath);
    try {
      expect(await createLeaseRepo(after).instances()).toEqual([]);
      expect((await createLeaseRepo(after).acquire('alerts-poll', 'now', Date.now(), 60_000))!.token).toBeGreaterThan(
        generation,
      );
    } finally {
      after.close();
    }
  });

  it('refuses a file that is not a Manzil database, and leaves the current database untouched', async () => {
    const { dir, dbPath } = await dbWithBackup();
    const before = readFileSync(dbPath);
    const junk = join(dir, 'notes.txt');
    writeFileSync(junk, 'not a database at all, but long enough to look like a header of something. '.repeat(20));
    const other = join(dir, 'other.db');
    const o = new Database(other);
    o.exec('CREATE TABLE t (x)');
    o.close();

    const r1 = await cli([junk], dbPath);
    expect(r1.status).toBe(1);
    expect(r1.err).toEqual([
      expect.stringMatching(
        /^manzil restore: .*notes\.txt is not a Manzil database \(file is not a database\): nothing was changed$/,
      ),
    ]);
    const r2 = await cli([other], dbPath);
    expect(r2.err).toEqual([
      expect.stringMatching(
        /other\.db is an SQLite file but not a Manzil database \(it has no outbox\): nothing was changed$/,
      ),
    ]);
    expect((await cli([join(dir, 'missing.db')], dbPath)).err).toEqual([
      expect.stringMatching(/there is no file at .*missing\.db$/),
    ]);
    expect((await cli([dbPath], dbPath)).err).toEqual([expect.stringMatching(/is the database itself/)]);
    expect((await cli([], dbPath)).status).toBe(2);
    expect(readFileSync(dbPath).equals(before)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['backup.db', 'manzil.db', 'notes.txt', 'other.db']);
  });

  it('needs --force when the current database cannot be read (it cannot tell whether Manzil runs), and keeps it aside', async () => {
    const { dir, dbPath, backup } = await dbWithBackup();
    writeFileSync(dbPath, 'damaged '.repeat(600));
    const refused = await cli([backup], dbPath);
    expect(refused.status).toBe(1);
    expect(refused.err).toEqual([
      expect.stringMatching(
        /the current database \(.*manzil\.db\) cannot be read \(file is not a database\), so whether Manzil runs on it cannot be checked: stop Manzil, then add --force$/,
      ),
    ]);
    expect(readdirSync(dir).sort()).toEqual(['backup.db', 'manzil.db']);
    const forced = await restoreDatabase(backup, dbPath, { force: true });
    expect(readFileSync(forced.keptAs!, 'utf8')).toBe('damaged '.repeat(600));
    expect(forced.toLookFor).toBe(1);
  });

  it('upgrades an older backup, and keeps the current database aside with what was still in its WAL', async () => {
    const dir = tempDir('manzil-restore-');
    // A backup from the release before the delivery core: migrations 0000-0002 only, an entry in flight when it was
    // taken.
    const old = join(dir, 'migrations-then');
    cpSync(join(repo, 'migrations', 'sqlite'), old, { recursive: true });
    const journal = JSON.parse(readFileSync(join(old, 'meta/_journal.json'), 'utf8')) as { entries: { idx: number }[] };
    const newer = journal.entries.filter((e) => e.idx > 2).length;
    journal.entries = journal.entries.filter((e) => e.idx <= 2);
    writeFileSync(join(old, 'meta/_journal.json'), JSON.stringify(journal));
    const backup = join(dir, 'old.db');
    const then = openStore(backup, { migrationsFolder: old });
    then.sqlite
      .prepare(
        "INSERT INTO outbox (place, kind, dedupe_key, payload, state, attempts, next_attempt_at, claimed_by, claimed_until, created_at) VALUES ('test:c1', 'recovered', 'k1', '{}', 'sending', 1, 0, 'pid-1', ?, 0)",
      )
      .run(Date.now() + 60_000);
    then.sqlite.pragma('journal_mode = DELETE');
    then.close();

    // The current database, as a killed process leaves it: its last writes only in the -wal beside it.
    const live = join(dir, 'live.db');
    const writer = openStore(live);
    writer.sqlite.pragma('wal_autocheckpoint = 0');
    await createOutboxRepo(writer).enqueue(notice(1, 'only-in-wal'));
    const dbPath = join(dir, 'manzil.db');
    copyFileSync(live, dbPath);
    copyFileSync(`${live}-wal`, `${dbPath}-wal`);
    writer.close();

    const report = await restoreDatabase(backup, dbPath);
    expect(report).toMatchObject({ toLookFor: 1, parked: 0, migrationsApplied: newer });
    expect(existsSync(`${dbPath}-wal`) && readFileSync(`${dbPath}-wal`).length > 0).toBe(false);

    // The database it replaced opens on its own with the write that was only in its WAL.
    const aside = new Database(report.keptAs!, { readonly: true, fileMustExist: true });
    try {
      expect(aside.prepare("SELECT count(*) AS n FROM outbox WHERE dedupe_key = 'only-in-wal'").get()).toEqual({
        n: 1,
      });
    } finally {
      aside.close();
    }
    // The restored one is upgraded, has a new id, and its entry keeps the delivery id it was posted with (no origin).
    const store = openStore(dbPath);
    try {
      expect(readDbId(store.sqlite)).toBe(report.dbId);
      const [row] = await createOutboxRepo(store).list();
      expect(row).toMatchObject({
        state: 'pending',
        maybeDelivered: true,
        claimedBy: null,
        claimedUntil: null,
        origin: '',
        attempts: 1,
      });
      expect(deliveryIdOf(row!)).toBe(String(row!.id));
    } finally {
      store.close();
    }
  });

  it('runs as `manzil restore` through the real bin', async () => {
    const { dir, dbPath, backup } = await dbWithBackup();
    const r = spawnSync(process.execPath, [join(repo, 'bin/manzil.js'), 'restore', backup], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, MANZIL_FROM_SOURCE: '1', MANZIL_DB_PATH: dbPath },
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Restored .*: 1 undelivered entry to look for on the platform before sending/);
  }, 60_000);
});
