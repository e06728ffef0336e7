// The person uses' contract, through the port only, so it runs the same on SQLite and on Postgres (the .test.ts file of
// the same name): each person's costly asks of each kind counted over a sliding window, refused past the limit with
// how long to wait, and never more than the limit let through when two instances take for one person at once.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PersonUseRepo } from '../../../src/store/contracts/usage.js';
import type { Stores } from './databases.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const ALICE = 'slack:T1:U0ALICE';

export function personUsesContract(open: () => Promise<Stores>): void {
  describe('person uses', () => {
    let db: Stores;
    let t: number;
    let uses: PersonUseRepo;
    beforeEach(async () => {
      db = await open();
      t = Date.UTC(2026, 10, 24, 9);
      uses = db.personUses(() => t);
    });
    afterEach(() => db.close());

    it('lets a person through up to the limit in the window, then says how long until one leaves it', async () => {
      expect(await uses.take(ALICE, 'search', 3, HOUR)).toEqual({ ok: true });
      t += 10 * MINUTE;
      expect(await uses.take(ALICE, 'search', 3, HOUR)).toEqual({ ok: true });
      expect(await uses.take(ALICE, 'search', 3, HOUR)).toEqual({ ok: true });
      t += 5 * MINUTE;
      // The oldest of the three leaves the window 45 minutes from now; a refusal counts nothing.
      expect(await uses.take(ALICE, 'search', 3, HOUR)).toEqual({ ok: false, retryAfterMs: 45 * MINUTE });
      expect(await uses.take(ALICE, 'search', 3, HOUR)).toEqual({ ok: false, retryAfterMs: 45 * MINUTE });
      t += 45 * MINUTE;
      expect(await uses.take(ALICE, 'search', 3, HOUR)).toEqual({ ok: true });
      // Now the two of minute 10 and this one: full until minute 70.
      expect(await uses.take(ALICE, 'search', 3, HOUR)).toEqual({ ok: false, retryAfterMs: 10 * MINUTE });
    });

    it('gives back the newest use of a kind, so an ask that found nothing is not counted', async () => {
      expect(await uses.take(ALICE, 'run', 2, HOUR)).toEqual({ ok: true });
      expect(await uses.take(ALICE, 'run', 2, HOUR)).toEqual({ ok: true });
      await uses.giveBack(ALICE, 'run');
      await uses.giveBack(ALICE, 'search'); // none of that kind: nothing happens
      expect(await uses.take(ALICE, 'run', 2, HOUR)).toEqual({ ok: true });
      expect(await uses.take(ALICE, 'run', 2, HOUR)).toMatchObject({ ok: false });
    });

    it('counts each kind and each person apart', async () => {
      expect(await uses.take(ALICE, 'page', 1, HOUR)).toEqual({ ok: true });
      expect(await uses.take(ALICE, 'page', 1, HOUR)).toMatchObject({ ok: false });
      expect(await uses.take(ALICE, 'run', 1, HOUR)).toEqual({ ok: true });
      expect(await uses.take('slack:T1:U0BOB', 'page', 1, HOUR)).toEqual({ ok: true });
      expect(await uses.take('slack:T2:U0ALICE', 'page', 1, HOUR)).toEqual({ ok: true });
    });

    it('reads a lowered limit against what was counted: waits until enough have left', async () => {
      for (let i = 0; i < 4; i++) {
        expect(await uses.take(ALICE, 'search', 4, HOUR)).toEqual({ ok: true });
        t += MINUTE;
      }
      // Four in the window (minutes 0 to 3), two allowed now: the second newest (minute 2) must leave first.
      expect(await uses.take(ALICE, 'search', 2, HOUR)).toEqual({
        ok: false,
        retryAfterMs: HOUR - 3 * MINUTE + MINUTE,
      });
    });

    it('prunes what is older than the longest window, and only that', async () => {
      await uses.take(ALICE, 'search', 5, HOUR);
      await uses.take('slack:T1:U0BOB', 'search', 5, HOUR);
      t += 2 * HOUR;
      await uses.take(ALICE, 'page', 5, HOUR);
      expect(await uses.prune(HOUR)).toBe(2);
      expect(await uses.prune(HOUR)).toBe(0);
      expect(await uses.take(ALICE, 'page', 1, HOUR)).toMatchObject({ ok: false });
    });

    it('lets no more than the limit through when two instances take for one person at once', async () => {
      const other = await db.connect();
      const theirs = other.personUses(() => t);
      const answers = await Promise.all(
        Array.from({ length: 24 }, (_, i) => (i % 2 ? uses : theirs).take(ALICE, 'search', 10, HOUR)),
      );
      expect(answers.filter((a) => a.ok)).toHaveLength(10);
      // And both instances see the full window.
      expect(await uses.take(ALICE, 'search', 10, HOUR)).toMatchObject({ ok: false });
      expect(await theirs.take(ALICE, 'search', 10, HOUR)).toMatchObject({ ok: false });
    });
  });
}
