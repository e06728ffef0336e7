// The demo is usable alone (issue 38): on the sample data (no key) one person is never locked out by the per-person
// limits, which are off unless one is set; set, they apply there as on the real service.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ask, boot } from '../ops/helpers.js';

const LIMITED = /You've asked for/;

describe('per-person limits on the sample data', () => {
  it(
    'are off unless set: more searches and compares than the real service allows in an hour all answer',
    {
      timeout: 120_000,
    },
    async () => {
      const { manzil } = await boot();
      // The real service's defaults are 120 searches and 6 runs an hour; an hour's exploration goes past both.
      for (let i = 0; i < 130; i++)
        expect((await ask(manzil, `rent marina ${(i % 4) + 1}br`)).text).not.toMatch(LIMITED);
      for (const areas of [
        'marina, jlt',
        'jvc, jlt',
        'marina, jvc',
        'downtown, jlt',
        'marina, downtown',
        'jvc, downtown',
        'marina, jlt 2br',
      ])
        expect((await ask(manzil, `compare ${areas}`)).text).not.toMatch(LIMITED);
    },
  );

  it('apply on the sample data once one is set, and always with a key', async () => {
    const { manzil } = await boot({ PERSON_SEARCHES_PER_HOUR: '2' });
    await ask(manzil, 'rent marina');
    await ask(manzil, 'rent jvc');
    expect((await ask(manzil, 'rent jlt')).text).toMatch(/You've asked for 2 searches in the last hour/);
    expect(loadConfig({}).teams.personLimits).toBe(false);
    expect(loadConfig({ PERSON_RUNS_PER_HOUR: '10' }).teams.personLimits).toBe(true);
    const live = { UAE_API_KEY: 'k-123456', UAE_API_BASE_URL: 'https://api.example.test/v1' };
    expect(loadConfig(live).teams.personLimits).toBe(true);
  });

  it(
    'an ask that found nothing spends no run: a compare of areas not found is free, one that compares is not',
    {
      timeout: 60_000,
    },
    async () => {
      const { manzil } = await boot({ PERSON_RUNS_PER_HOUR: '2' });
      for (const text of ['compare xyzzyqq, jlt', 'compare marina, qqwertyland', 'compare jvc, zzplonk 2br'])
        expect((await ask(manzil, text)).text, text).toMatch(/couldn't find an area/);
      expect((await ask(manzil, 'compare marina, jlt 2br')).text).not.toMatch(LIMITED);
      expect((await ask(manzil, 'compare jvc, jlt 1br')).text).not.toMatch(LIMITED);
      expect((await ask(manzil, 'compare jvc, marina')).text).toMatch(
        /You've asked for 2 alert tests, digests on request and comparisons/,
      );
    },
  );
});
