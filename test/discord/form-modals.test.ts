// The Discord modals of the forms, as drawn: within Discord's limits (DISCORD_MODAL_LIMITS, and the fake's own check of
// what Discord refuses) however long what fills them, and their custom_ids read back to the order they edit.
import { describe, expect, it } from 'vitest';
import {
  alertModal,
  digestModal,
  formCustomId,
  formValues,
  readFormCustomId,
  retypedModal,
} from '../../adapters/discord/form-modals.js';
import { DISCORD_MODAL_LIMITS } from '../../adapters/discord/limits.js';
import type { DiscordJson } from '../fakes/discord.js';
import { checkModal } from '../fakes/discord-modals.js';

const valid = (modal: unknown) => {
  const found = checkModal(modal, 'modal');
  expect([...found.errors, ...found.warnings]).toEqual([]);
};
const inner = (modal: DiscordJson, id: string) =>
  (modal.components as DiscordJson[]).find((l) => l.component.custom_id === id)!.component;

describe('the Discord form modals', () => {
  it('fit Discord: at most 5 Labels, titles and labels within 45, every text within its input', () => {
    const long = `rent "Dubai Marina" ${'-shared '.repeat(120)}`;
    const edit = alertModal(
      { search: long, priceMin: '90000', priceMax: '120000', every: 'weekly', day: 'friday', time: '18:00' },
      { kind: 'alert', editing: { number: 999_999, to: 'me' } },
    );
    valid(edit);
    expect(edit.title.length).toBeLessThanOrEqual(DISCORD_MODAL_LIMITS.title);
    expect(edit.custom_id).toBe('manzil:form:alert:edit:999999:me');
    const search = inner(edit, 'search');
    expect(search.value.length).toBeLessThanOrEqual(search.max_length);
    expect(search.max_length).toBe(DISCORD_MODAL_LIMITS.search);
    expect(inner(edit, 'price').value).toBe('90,000-120,000');
    expect(inner(edit, 'every').options.find((o: DiscordJson) => o.default).value).toBe('weekly:friday');
    const fresh = alertModal({}, { kind: 'alert' });
    valid(fresh);
    expect(fresh.components).toHaveLength(DISCORD_MODAL_LIMITS.components);
    valid(digestModal({ areas: 'x, '.repeat(400), every: 'monthly' }, { kind: 'digest', editing: { number: 2 } }));
  });

  it("reads a custom_id back to the order it edits, and refuses another's", () => {
    for (const t of [
      { kind: 'alert' as const },
      { kind: 'alert' as const, editing: { number: 3 } },
      { kind: 'alert' as const, editing: { number: 3, to: 'me' as const } },
      { kind: 'digest' as const, editing: { number: 12 } },
    ])
      expect(readFormCustomId(formCustomId(t))).toEqual(t);
    expect(readFormCustomId('manzil:form:retry:abc')).toBeUndefined();
    expect(readFormCustomId('manzil:page:abc')).toBeUndefined();
  });

  it('reads how often with its folded day, the price as one text, and draws a refused form again as typed', () => {
    expect(
      formValues('alert', { search: 'rent jvc', price: '90k-120k', every: 'weekly:sunday', time: '8:00' }),
    ).toEqual({ search: 'rent jvc', priceMin: '90k', priceMax: '120k', every: 'weekly', day: 'sunday', time: '8:00' });
    expect(formValues('digest', { areas: 'jvc', every: 'daily', time: '' })).toEqual({ areas: 'jvc', every: 'daily' });
    const again = retypedModal({ kind: 'alert' }, { search: 'rent jvc', price: '150k-100k', every: 'daily', to: 'me' });
    expect(inner(again, 'price').value).toBe('150k-100k');
    expect(inner(again, 'to').options.find((o: DiscordJson) => o.default).value).toBe('me');
    expect(inner(again, 'every').options.find((o: DiscordJson) => o.default).value).toBe('daily');
  });
});
