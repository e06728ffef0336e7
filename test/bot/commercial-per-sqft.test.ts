// Commercial space as commercial space, through the bot core on the sandbox: a commercial card shows size and price per
// sqft, never bedrooms or "Studio"; a price per sqft is filtered on what the service returns, and the reply says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { Card } from '../../src/views/model.js';
import { alertsRig, ctx } from '../alerts/helpers.js';
import { ask, button, buttons, cards, harness, press, removeTempDirs, type Harness } from './harness.js';

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

const field = (card: Card, label: string) => card.fields.find((f) => f.label === label)?.value;
const number = (text: string | undefined) => Number((/[\d,.]+/.exec(text ?? '') ?? ['NaN'])[0].replace(/,/g, ''));
/** The price per sqft a card shows, checked against its own price and size. */
function perSqftOf(card: Card): number {
  const shown = number(field(card, 'Per sqft'));
  const worked = number(field(card, 'Price')) / number(field(card, 'Size'));
  expect(Math.abs(shown - worked)).toBeLessThan(shown < 100 ? 0.01 : 1);
  return worked;
}
const contexts = (reply: { blocks: readonly { kind: string; text?: string }[] }) =>
  reply.blocks.filter((b) => b.kind === 'context').map((b) => b.text ?? '');
const header = (reply: { blocks: readonly { kind: string; text?: string }[] }) =>
  reply.blocks.find((b) => b.kind === 'header')?.text ?? '';

describe('a commercial listing card', () => {
  it.each(['rent office business bay', 'buy shop marina', 'buy office business bay', 'rent commercial marina'])(
    '%s: size and price per sqft, no bedrooms',
    async (typed) => {
      const reply = await ask(h.bot, typed);
      const shown = cards(reply);
      expect(shown.length).toBeGreaterThan(0);
      for (const card of shown) {
        expect(card.fields.map((f) => f.label)).not.toContain('Beds');
        expect(JSON.stringify(card)).not.toMatch(/Studio|\d-bed\b/);
        expect(field(card, 'Size')).toMatch(/^[\d,]+ sqft$/);
        // A price on request has no price per sqft to show.
        if (field(card, 'Price') === 'Price on request') continue;
        expect(field(card, 'Per sqft')).toMatch(/^AED [\d,.]+\/sqft(\/yr|\/mo)?$/);
        perSqftOf(card);
      }
    },
  );

  it('a home keeps its bedrooms and shows no price per sqft', async () => {
    const shown = cards(await ask(h.bot, 'rent marina 2br'));
    expect(shown.length).toBeGreaterThan(0);
    for (const card of shown) {
      expect(field(card, 'Beds')).toBe('2 beds');
      expect(field(card, 'Per sqft')).toBeUndefined();
    }
  });
});

describe('a price per sqft in a search', () => {
  it('keeps, of what the service returns, only the listings within it; the reply says Manzil filtered and nothing of it is sent', async () => {
    // A bound in the middle of what the area has, so some listings are in and some out.
    sandbox.clearRequests();
    const all = cards(await ask(h.bot, 'rent commercial downtown'))
      .filter((c) => field(c, 'Price') !== 'Price on request')
      .map(perSqftOf)
      .sort((a, b) => a - b);
    expect(all.length).toBeGreaterThan(2);
    const bound = Math.round(all[Math.floor(all.length / 2)]!);
    const reply = await ask(h.bot, `rent commercial downtown under ${bound} per sqft`);
    expect(reply.text).not.toMatch(/Did you mean|couldn't find/);
    expect(header(reply)).toMatch(
      new RegExp(
        `^Commercial properties for rent in Downtown Dubai, .*up to AED ${bound.toLocaleString('en-US')} per sqft a year \\(Manzil filters each page the service returns\\)`,
      ),
    );
    expect(contexts(reply).join(' ')).toMatch(
      /The property service has no price-per-sqft filter, so I kept the listings at up to AED [\d,]+ per sqft a year: \d+ of the \d+ on this page of results/,
    );
    const shown = cards(reply);
    expect(shown.length).toBeGreaterThan(0);
    for (const card of shown) expect(perSqftOf(card)).toBeLessThanOrEqual(bound + 0.005);
    // The service was asked for the area's offices, with no price and nothing per sqft.
    const sent = sandbox.requests().filter((r) => r.path === '/search-commercial-rent');
    expect(sent.length).toBeGreaterThan(0);
    for (const request of sent) expect(JSON.stringify(request)).not.toMatch(/sqft|price_max|price_min/);
    // Alerts cannot filter per sqft: no Save button that would only be refused.
    expect(buttons(reply).map((b) => b.label)).not.toContain('Save as alert');
  });

  it('a sale range per sqft in aed/sqft, kept across Next', async () => {
    const reply = await ask(h.bot, 'buy office business bay between 500 and 4000 aed/sqft');
    expect(header(reply)).toMatch(/AED 500 to 4,000 per sqft/);
    for (const card of cards(reply)) {
      const v = perSqftOf(card);
      expect(v).toBeGreaterThanOrEqual(500 - 0.005);
      expect(v).toBeLessThanOrEqual(4000 + 0.005);
    }
    const next = buttons(reply).find((b) => /Next/.test(b.label));
    if (next) {
      const second = await press(h.bot, button(reply, /Next/));
      expect(header(second)).toMatch(/AED 500 to 4,000 per sqft/);
      for (const card of cards(second)) expect(perSqftOf(card)).toBeLessThanOrEqual(4000 + 0.005);
    }
  });

  it('in /alerts add, is refused clearly rather than saved without it', async () => {
    const rig = await alertsRig();
    const reply = await rig.commands.handle(ctx(), 'add rent office business bay under 150 per sqft');
    expect(await rig.repo.listByChannel('test:c1')).toEqual([]);
    expect(reply.text).toMatch(
      /I can't save that as an alert\. Alerts watch what the property service filters, and it has no price per sqft/,
    );
  });
});
