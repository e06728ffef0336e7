// What a person sees for amounts in the forms the property tests generate (test/query/amount-forms.test.ts), for a
// sample,
// through the bot core on the sandbox: an amount no listing can have is refused in chat and never sent to the service;
// a
// price per sqft said first, or "not over", searches what was meant.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { ask, harness, removeTempDirs, type Harness } from './harness.js';

let sandbox: Sandbox;
let h: Harness;

beforeAll(async () => {
  sandbox = createSandbox();
  await sandbox.listen();
  h = harness(sandbox);
});
afterAll(async () => {
  await h.close();
  await sandbox.close();
  removeTempDirs();
});

const header = (reply: { blocks: readonly { kind: string; text?: string }[] }) =>
  reply.blocks.find((b) => b.kind === 'header')?.text ?? '';

describe('amounts in chat', () => {
  it(
    'an amount beyond any listing, in any form, is a friendly refusal shown to the person, and nothing is searched',
    { timeout: 90_000 },
    async () => {
      const huge = fc.oneof(
        fc.bigInt({ min: 10_000_000_001n, max: 10n ** 25n }).map((n) => n.toLocaleString('en-US')),
        fc.integer({ min: 10_001, max: 10 ** 6 }).map((m) => `AED ${m} million`),
        fc.integer({ min: 100_001, max: 10 ** 7 }).map((n) => `${n} per sqft`),
      );
      // The bound before the amount, or a price per sqft said first: "price per sqft under 200,000".
      const filter = fc.oneof(
        fc.tuple(fc.constantFrom('under', 'not over', 'at most'), huge).map(([bound, amount]) => `${bound} ${amount}`),
        fc
          .tuple(
            fc.constantFrom('price per sqft', 'psf'),
            fc.constantFrom('under', 'not over', ''),
            fc.integer({ min: 100_001, max: 10 ** 7 }),
          )
          .map((p) => p.join(' ')),
      );
      await fc.assert(
        fc.asyncProperty(filter, fc.constantFrom('rent office dmcc', 'buy marina 2br'), async (typed, search) => {
          sandbox.clearRequests();
          const reply = await ask(h.bot, `${search} ${typed}`.replace(/ +/g, ' '));
          expect(reply.ephemeral).toBe(true);
          expect(reply.text).toMatch(
            /so I didn't search\. I (search prices up to AED 10 billion|filter prices per sqft up to AED 100,000)/,
          );
          expect(reply.text).not.toMatch(/Infinity|e\+|Error|\bat .+:\d+:\d+/);
          expect(sandbox.requests().filter((r) => r.path.startsWith('/search'))).toEqual([]);
        }),
        { numRuns: 40 },
      );
    },
  );

  it('"not over" is a maximum and a price per sqft said first is one: the summary says what was searched', async () => {
    expect(header(await ask(h.bot, 'rent marina 2br not over AED 150k'))).toMatch(
      /^2-bedroom homes for rent in Dubai Marina, up to AED 150,000 a year/,
    );
    const perSqft = await ask(h.bot, 'rent office business bay psf under 2,000');
    expect(perSqft.text).not.toMatch(/Did you mean|couldn't find/);
    expect(header(perSqft)).toMatch(/^Offices for rent in Business Bay, .*up to AED 2,000 per sqft a year/);
  });
});
