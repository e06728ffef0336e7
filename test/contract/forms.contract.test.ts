// The forms contract: an alert and a digest made and edited in a form, on each platform that has forms (Slack's modals,
// Discord's), as a person has them. Each platform draws the fields its own way (drivers.ts fills them); what a person
// can do and is told must not differ: a wrong field is named and nothing saved, a saved form says the typed command
// that saves the same, an edit form comes filled from the order, and an alert made so posts new listings once.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { drivers, type ChatDriver, type DriverFactory, type FormAnswer, type FormsDriver } from './drivers.js';

const KEY = 'sk-forms-contract-5151';
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = createSandbox({ key: KEY });
  await sandbox.listen();
});
afterAll(async () => {
  await sandbox.close();
});

const saved = (a: FormAnswer) => {
  if (!('saved' in a)) throw new Error(`the form was refused: ${JSON.stringify(a.refused)}`);
  return a.saved.text;
};

describe.each(drivers.filter((d) => d.forms))('forms on $name', (factory: DriverFactory) => {
  let chat: ChatDriver;
  let forms: FormsDriver;
  beforeAll(async () => {
    chat = await factory.start({ sandbox, key: KEY });
    forms = chat.forms!;
  }, 20_000);
  afterAll(async () => {
    await chat?.close();
  });
  afterEach(() => {
    expect(chat.violations()).toEqual([]);
  });

  it('refuses a minimum price above the maximum on the price field, and saves nothing', async () => {
    const answer = await forms.alert({ area: 'dubai marina', deal: 'rent', priceMin: '150k', priceMax: '100k' });
    if (!('refused' in answer)) throw new Error(`saved: ${answer.saved.text}`);
    expect(answer.refused.fields).toEqual(['price']);
    expect(answer.refused.text).toContain('The most (100,000) is below the least (150,000)');
    expect((await chat.command('alerts list')).text).toMatch(/No alerts in this channel yet/);
  });

  it(
    'saves an alert made in a form, edits it in its form filled from it, and then posts each new listing once',
    { timeout: 120_000 },
    async () => {
      const made = saved(await forms.alert({ area: 'dubai marina', deal: 'rent', priceMax: '500k' }));
      expect(made).toMatch(/Saved as alert #1: Homes for rent in Dubai Marina/);
      expect(made).toMatch(/Typed(, this form is)?: `\/alerts add rent "dubai marina" under 500000 instant`/i);

      const edit = await forms.alert({ area: 'dubai marina', deal: 'buy' }, 1);
      expect(edit.filled).toMatch(/Dubai Marina/i);
      const changed = saved(edit);
      expect(changed).toMatch(/Alert #1 changed: Homes for sale in Dubai Marina/);
      expect(changed).toMatch(/`\/alerts edit 1 buy "dubai marina" instant`/i);
      const listed = (await chat.command('alerts list')).text;
      // It keeps its number; no other alert was left or made.
      expect(listed).toMatch(/#1 · Homes for sale in Dubai Marina/);
      expect(listed).not.toMatch(/#2 · |Homes for rent/);

      let posted: string[] = [];
      for (let i = 0; i < 10 && posted.length === 0; i++) {
        sandbox.advance(120);
        await chat.manzil.alerts.poll();
        await chat.manzil.alerts.drainer.drain();
        posted = await chat.alerts();
      }
      expect(posted.length).toBeGreaterThan(0);
      expect(posted.every((t) => /Alert #1|alert #1/.test(t))).toBe(true);
      await chat.manzil.alerts.poll();
      await chat.manzil.alerts.drainer.drain();
      expect(await chat.alerts()).toEqual(posted);
    },
  );

  it('saves a digest made in a form, and its schedule edited in its form filled from it', async () => {
    const made = saved(
      await forms.digest({ areas: ['dubai marina', 'jvc'], every: 'weekly', day: 'friday', time: '18:30' }),
    );
    expect(made).toMatch(/`\/digest add .*weekly on friday at 18:30`/);
    const edit = await forms.digest({ areas: ['dubai marina'], every: 'daily', time: '07:15' }, 1);
    expect(edit.filled).toMatch(/Dubai Marina/i);
    expect(edit.filled).toMatch(/18:30/);
    expect(saved(edit)).toMatch(/`\/digest edit 1 .*daily at 07:15`/);
    const listed = (await chat.command('digest list')).text;
    expect(listed).toMatch(/07:15/);
    expect(listed).not.toMatch(/18:30/);
  });
});
