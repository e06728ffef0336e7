// Plain reasons (issue 38): a search that found nothing says why when it can (ADREC covers Abu Dhabi only), and its
// advice names only the filters the search has. A real Bot on the sandbox over loopback.
import { describe, expect, it } from 'vitest';
import { ask, sandboxHarness } from './harness.js';

const rig = sandboxHarness({ key: 'no-results' });

const said = async (text: string) =>
  (await ask(rig.h.bot, text)).blocks.flatMap((b) => (b.kind === 'text' ? [b.text] : [])).join('\n');

describe('a search that found nothing', () => {
  it('ADREC outside Abu Dhabi says ADREC covers Abu Dhabi, where the place is, and where its records are', async () => {
    for (const [text, area, emirate] of [
      ['adrec jvc', 'Jumeirah Village Circle', 'Dubai'],
      ['/adrec business bay apartment', 'Business Bay', 'Dubai'],
      ['adrec al majaz', 'Al Majaz', 'Sharjah'],
    ] as const) {
      const reply = await said(text);
      expect(reply, text).toMatch(/ADREC's records cover Abu Dhabi only/);
      expect(reply, text).toContain(`${area} is in ${emirate}`);
      expect(reply, text).toContain(`/transactions sold ${area.toLowerCase()}`);
      expect(reply, text).not.toMatch(/fewer filters|price range/);
    }
  });

  it('names only the filters the search has: no price range when none was given', async () => {
    const villas = await said('/sold downtown villa last 6 months');
    expect(villas).toBe('No results. Try without the property type, or a nearby area.');
    const dated = await said('/adrec saadiyat island villa from 01/01/2024 to 31/03/2024');
    expect(dated).toBe('No results. Try without the property type or the dates, or another district.');
  });
});
