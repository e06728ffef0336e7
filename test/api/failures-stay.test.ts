// Failures stay where they are (issue 38): one area's failing transactions and trend, asked through a whole Manzil
// (the bot, compare and value on the embedded sandbox), refuse that area alone; other areas' questions, /value among
// them, still answer. The whole service failing still opens the circuit, and every question is told "busy".
import { describe, expect, it } from 'vitest';
import { ask, boot } from '../ops/helpers.js';

const env = { UAE_API_BREAKER_FAILURES: '3', UAE_API_RETRY_ATTEMPTS: '2', UAE_API_BREAKER_COOLDOWN_S: '60' };
const BUSY = /property service is busy/i;

async function locationId(url: string, key: string, text: string): Promise<string> {
  const r = await fetch(`${url}/autocomplete-location?query=${encodeURIComponent(text)}`, {
    headers: { 'x-gateway-key': key },
  });
  const body = (await r.json()) as { data: { id: number }[] };
  return String(body.data[0]!.id);
}

describe('a failure tied to one area', () => {
  it(
    'refuses that area only: other areas, a compare of others and /value still answer',
    { timeout: 60_000 },
    async () => {
      const { manzil } = await boot(env);
      const sandbox = manzil.sandbox!;
      const marina = await locationId(sandbox.url!, sandbox.key, 'dubai marina');
      // Dubai Marina's every call answers 503: its transactions, its trend, its listings.
      sandbox.addFault({ status: 503, params: { location_id: marina } });
      for (let i = 0; i < 3; i++) {
        const compare = await ask(manzil, `compare marina, jlt ${i + 1}br`);
        expect(compare.text).toMatch(/Dubai Marina: not compared/);
        expect(compare.text).toMatch(/Jumeirah Lake Towers/);
      }
      // Marina's circuits are open by now: its question is refused as busy, without a call.
      const sent = sandbox.requests().length;
      expect((await ask(manzil, 'rent marina 2br')).text).toMatch(BUSY);
      expect(sandbox.requests().length).toBe(sent);
      // Every other area answers, on every kind of question.
      for (const text of [
        'rent jvc 2br',
        '/value jvc 2br',
        'transactions jlt sold',
        'trend business bay',
        'compare jvc, jlt',
      ]) {
        const reply = await ask(manzil, text);
        expect(reply.text, text).not.toMatch(BUSY);
        expect(reply.text, text).not.toMatch(/failed to answer|went wrong/i);
      }
    },
  );
});

describe('the whole service failing', () => {
  it('opens the circuit: every question is told busy, without reaching the service', { timeout: 60_000 }, async () => {
    const { manzil } = await boot(env);
    const sandbox = manzil.sandbox!;
    sandbox.addFault({ status: 503 });
    await ask(manzil, 'rent marina 2br');
    await ask(manzil, 'agent 207502');
    const sent = sandbox.requests().length;
    for (const text of ['rent jvc 2br', '/value jlt 1br', 'trend business bay']) {
      expect((await ask(manzil, text)).text, text).toMatch(BUSY);
    }
    expect(sandbox.requests().length).toBe(sent);
  });
});
