// `/digest` on Discord (issue 16): its definition (subcommands, option types, choices, autocomplete, Discord's limits),
// the text the bot gets from each subcommand, and the areas autocomplete, which completes the last comma-separated
// part within the deadline whatever the service does. The definitions come from the one command list.
import { describe, expect, it } from 'vitest';
import { areaListChoices } from '../../adapters/discord/autocomplete.js';
import {
  ALERT_SUBCOMMANDS,
  DIGEST_DAYS,
  DIGEST_SCHEDULES,
  commandDefinitions,
  orderOf,
  type CommandInput,
} from '../../adapters/discord/commands.js';
import { digestCommandText } from '../../src/digests/language.js';
import { parseSchedule } from '../../src/standing-orders/schedule.js';
import { SLASH_COMMANDS } from '../../src/query/commands.js';
import { checkCommands } from '../fakes/discord-limits.js';

type Option = {
  name: string;
  type: number;
  description: string;
  required?: boolean;
  autocomplete?: boolean;
  choices?: { name: string; value: string }[];
  options?: Option[];
  max_length?: number;
  min_value?: number;
};
const SUBCOMMAND = 1;
const STRING = 3;
const INTEGER = 4;

const defs = commandDefinitions();
const digest = defs.find((d) => d.name === 'digest')!;
const subs = digest.options as Option[];
const sub = (name: string) => subs.find((s) => s.name === name)!;

describe('the Discord definitions come from the one command list', () => {
  it('one command per entry, in its order, with its description', () => {
    expect(defs.map((d) => d.name)).toEqual(SLASH_COMMANDS.map((c) => c.name));
    expect(defs.map((d) => d.description)).toEqual(SLASH_COMMANDS.map((c) => c.description));
  });

  it("/alerts and /digest have the subcommands of the list, with its descriptions, then the forms' own", () => {
    const forms: Record<string, string[]> = { alerts: ['new'], digest: ['new', 'edit'] };
    for (const name of ['alerts', 'digest']) {
      const listed = SLASH_COMMANDS.find((c) => c.name === name)!.subcommands!;
      const defined = defs.find((d) => d.name === name)!.options as Option[];
      expect(defined.slice(0, listed.length).map((s) => [s.name, s.type, s.description])).toEqual(
        listed.map((s) => [s.name, SUBCOMMAND, s.description]),
      );
      // Discord's own, which open a form (adapters/discord/form-listeners.ts).
      expect(defined.slice(listed.length).map((s) => s.name)).toEqual(forms[name]);
    }
    expect(ALERT_SUBCOMMANDS).toEqual([
      'add',
      'list',
      'pause',
      'resume',
      'remove',
      'test',
      'edit',
      'quiet',
      'timezone',
      'more',
    ]);
    expect(subs.map((s) => s.name)).toEqual(['add', 'list', 'remove', 'pause', 'resume', 'now', 'new', 'edit']);
  });

  it("every command, subcommand, option and choice within Discord's limits", () => {
    expect(checkCommands(defs, 'definitions')).toEqual({ errors: [], warnings: [] });
    const walk = (options: Option[] | undefined, visit: (o: Option) => void) =>
      (options ?? []).forEach((o) => {
        visit(o);
        walk(o.options, visit);
      });
    for (const d of defs) {
      expect(d.name).toMatch(/^[a-z]{1,32}$/);
      expect(d.description.length).toBeLessThanOrEqual(100);
      walk(d.options as Option[], (o) => {
        expect(o.name).toMatch(/^[a-z_-]{1,32}$/);
        expect(o.description.length).toBeGreaterThan(0);
        expect(o.description.length).toBeLessThanOrEqual(100);
        expect((o.choices ?? []).length).toBeLessThanOrEqual(25);
        expect(o.options?.length ?? 0).toBeLessThanOrEqual(25);
        if (o.autocomplete) expect(o.choices ?? []).toEqual([]);
      });
    }
  });
});

describe('/digest', () => {
  it('add: areas (required, completed as typed), then schedule and day as choices and a time, all optional', () => {
    expect(sub('add').options).toEqual([
      expect.objectContaining({ name: 'places', type: STRING, required: true, autocomplete: true, max_length: 500 }),
      expect.objectContaining({
        name: 'schedule',
        type: STRING,
        required: false,
        choices: DIGEST_SCHEDULES.map((v) => ({ name: v, value: v })),
      }),
      expect.objectContaining({
        name: 'day',
        type: STRING,
        required: false,
        choices: DIGEST_DAYS.map((v) => ({ name: v, value: v })),
      }),
      expect.objectContaining({ name: 'time', type: STRING, required: false }),
    ]);
    expect(sub('add').options!.find((o) => o.name === 'time')!.autocomplete).toBeFalsy();
    expect(DIGEST_DAYS).toHaveLength(7);
  });

  it('now takes areas, completed as typed; list nothing; remove, pause and resume a digest number', () => {
    expect(sub('now').options).toEqual([
      expect.objectContaining({ name: 'places', type: STRING, required: true, autocomplete: true }),
    ]);
    expect(sub('list').options ?? []).toEqual([]);
    for (const name of ['remove', 'pause', 'resume']) {
      expect(sub(name).options).toEqual([
        expect.objectContaining({ name: 'number', type: INTEGER, required: true, min_value: 1 }),
      ]);
      expect(sub(name).options![0]!.description).toMatch(/digest number from \/digest list/);
    }
  });
});

describe('the /digest command built from the options reads back as typed in Slack', () => {
  const order = (input: CommandInput) => {
    const built = orderOf(input);
    if (built?.kind !== 'digest') throw new Error(`not a digest command: ${JSON.stringify(built)}`);
    return built;
  };
  const text = (subcommand: string, options: Record<string, string | number> = {}) =>
    digestCommandText(order({ name: 'digest', subcommand, ...options }));

  it('is the areas as a list, and the schedule as said, with nothing filled in', () => {
    expect(
      order({ name: 'digest', subcommand: 'add', areas: 'dubai marina, business bay and jvc', day: 'friday' }),
    ).toEqual({
      kind: 'digest',
      sub: 'add',
      areas: ['dubai marina', 'business bay', 'jvc'],
      when: { every: 'week', day: 'friday' },
    });
    expect(order({ name: 'digest', subcommand: 'add', areas: 'jvc' })).toEqual({
      kind: 'digest',
      sub: 'add',
      areas: ['jvc'],
      when: {},
    });
    expect(order({ name: 'digest', subcommand: 'resume', number: 4 })).toEqual({
      kind: 'digest',
      sub: 'resume',
      number: 4,
    });
  });

  it('add with areas alone, and with each of schedule, day and time', () => {
    expect(text('add', { areas: 'dubai marina, business bay' })).toBe('/digest add dubai marina, business bay');
    expect(text('add', { areas: 'dubai marina, business bay', schedule: 'weekly', day: 'friday', time: '18:30' })).toBe(
      '/digest add dubai marina, business bay weekly on friday at 18:30',
    );
    expect(text('add', { areas: 'jvc', schedule: 'daily' })).toBe('/digest add jvc daily');
    expect(text('add', { areas: 'jvc', schedule: 'monthly', time: '07:00' })).toBe('/digest add jvc monthly at 07:00');
    expect(text('add', { areas: 'jvc', time: ' 6:30 pm ' })).toBe('/digest add jvc at 6:30 pm');
  });

  it('a day alone makes it weekly; a daily or monthly schedule picked wins over a day', () => {
    expect(text('add', { areas: 'jvc', day: 'sunday' })).toBe('/digest add jvc weekly on sunday');
    expect(text('add', { areas: 'jvc', schedule: 'daily', day: 'sunday' })).toBe('/digest add jvc daily');
  });

  it('drops a trailing comma left by the areas autocomplete', () => {
    expect(text('add', { areas: 'dubai marina, ', schedule: 'weekly' })).toBe('/digest add dubai marina weekly');
  });

  it('list, remove, pause, resume and now', () => {
    expect(text('list')).toBe('/digest list');
    expect(text('remove', { number: 2 })).toBe('/digest remove 2');
    expect(text('pause', { number: 3 })).toBe('/digest pause 3');
    expect(text('resume', { number: 3 })).toBe('/digest resume 3');
    expect(text('now', { areas: 'dubai marina, jvc' })).toBe('/digest now dubai marina, jvc');
    // A schedule has no area in `now`, should one ever arrive.
    expect(text('now', { areas: 'jvc', schedule: 'daily', time: '09:00' })).toBe('/digest now jvc');
  });
});

describe('the areas autocomplete', () => {
  const areas: Record<string, { id: number; name: string }[]> = {
    'dubai mar': [
      { id: 5, name: 'Dubai Marina' },
      { id: 6, name: 'Dubai Marina Mall' },
    ],
    'business b': [
      { id: 7, name: 'Business Bay' },
      { id: 8, name: 'Business Bay, Tower A' },
      { id: 9, name: 'Bay Square and Park' },
      { id: 7, name: 'Business Bay' },
    ],
  };
  const suggest =
    (delayMs = 0) =>
    async (typed: string) => {
      await new Promise((r) => setTimeout(r, delayMs));
      return (areas[typed] ?? []).map((l) => ({ label: l.name, value: `${l.id}:${l.name}` }));
    };

  it('offers the areas for what is typed, as text the core reads by name', async () => {
    expect(await areaListChoices(suggest(), 'dubai mar', 1_000)).toEqual([
      { name: 'Dubai Marina', value: 'Dubai Marina' },
      { name: 'Dubai Marina Mall', value: 'Dubai Marina Mall' },
    ]);
  });

  it('completes the last comma-separated part and keeps the ones before; no duplicates, no name the core would split', async () => {
    expect(await areaListChoices(suggest(), 'Dubai Marina,  business b', 1_000)).toEqual([
      { name: 'Dubai Marina, Business Bay', value: 'Dubai Marina, Business Bay' },
    ]);
  });

  it("offers nothing for a text that would be over a choice's 100 characters", async () => {
    const long = `${'x'.repeat(90)}, dubai mar`;
    expect(await areaListChoices(suggest(), long, 1_000)).toEqual([]);
  });

  it('answers within the deadline when the service is slow, with nothing', async () => {
    // A service that never answers: only the deadline can end the wait.
    const silent = () => new Promise<never>(() => {});
    const started = Date.now();
    expect(await areaListChoices(silent, 'dubai mar', 100)).toEqual([]);
    const ms = Date.now() - started;
    expect(ms).toBeGreaterThanOrEqual(100 - 5);
    expect(ms).toBeLessThan(100 + 2_500); // within Discord's 3 s
  });
});

describe('the choices read as the core reads a schedule', () => {
  it('each schedule and each day, with a time', () => {
    const typed = (input: CommandInput) => {
      const built = orderOf(input);
      if (built?.kind !== 'digest') throw new Error(`not a digest command: ${JSON.stringify(built)}`);
      return digestCommandText(built);
    };
    for (const schedule of DIGEST_SCHEDULES) {
      const read = parseSchedule(
        typed({ name: 'digest', subcommand: 'add', areas: 'jvc', schedule, time: '07:15' }).replace(
          /^\/digest add /,
          '',
        ),
      );
      expect(read).toMatchObject({
        ok: true,
        rest: 'jvc',
        schedule: { every: { daily: 'day', weekly: 'week', monthly: 'month' }[schedule], time: '07:15' },
      });
    }
    DIGEST_DAYS.forEach((day) => {
      const read = parseSchedule(
        typed({ name: 'digest', subcommand: 'add', areas: 'jvc', day }).replace(/^\/digest add /, ''),
      );
      expect(read).toMatchObject({
        ok: true,
        rest: 'jvc',
        schedule: { every: 'week', day: (DIGEST_DAYS.indexOf(day) + 1) % 7 },
      });
    });
  });
});
