// A per-person limit's refusal names its count the way a person would say it: a limit of one is "1 search", not
// "1 searches", for every kind of costly ask (counted in a real SQLite file).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log.js';
import { openDatabase } from '../../src/store/index.js';
import { PersonLimiter } from '../../src/teams/person-limits.js';

describe('the refusal of a per-person limit', () => {
  it('says one ask in the singular and several in the plural', async () => {
    const db = await openDatabase({ dbPath: join(mkdtempSync(join(tmpdir(), 'manzil-wording-')), 'm.db') });
    try {
      const refusal = async (limit: number, kind: 'search' | 'page' | 'run') => {
        const limiter = new PersonLimiter(
          db.people,
          { pagesPerHour: limit, runsPerHour: limit, searchesPerHour: limit },
          silentLogger,
        );
        const user = `U${limit}${kind}`;
        for (let i = 0; i < limit; i++) expect(await limiter.take('slack:T1:C1', user, kind)).toBeUndefined();
        return (await limiter.take('slack:T1:C1', user, kind))?.text;
      };
      expect(await refusal(1, 'search')).toMatch(/^You've asked for 1 search in the last hour/);
      expect(await refusal(1, 'page')).toMatch(/^You've asked for 1 page of results in the last hour/);
      expect(await refusal(1, 'run')).toMatch(
        /^You've asked for 1 alert test, digest on request or comparison in the last hour/,
      );
      expect(await refusal(3, 'search')).toMatch(/^You've asked for 3 searches in the last hour/);
      expect(await refusal(2, 'page')).toMatch(/^You've asked for 2 pages of results in the last hour/);
    } finally {
      await db.close();
    }
  });
});
