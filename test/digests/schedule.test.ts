// When a digest is due, as `/digest add` reads it and the job computes it: the words of a schedule, and its due
// instants across a daily, weekly and monthly period in Asia/Dubai (UTC+4, no DST) and in Europe/London across the
// March and October clock changes. Expected instants are written out here as UTC, not computed with the code's library.
import { describe, expect, it } from 'vitest';
import {
  currentSlot,
  describeSchedule,
  nextSlot,
  parseSchedule,
  shortDate,
  type Schedule,
} from '../../src/standing-orders/schedule.js';

const iso = (t: number) => new Date(t).toISOString().replace('.000Z', 'Z');
const ms = (s: string) => Date.parse(s);

/** The first `n` due instants strictly after `from`, chained as the job chains them. */
function slots(schedule: Schedule, timezone: string, from: string, n: number): string[] {
  const out: string[] = [];
  let t = ms(from);
  for (let i = 0; i < n; i++) out.push(iso((t = nextSlot(schedule, timezone, t))));
  return out;
}

describe('parseSchedule: the words after the areas', () => {
  it.each([
    ['dubai marina, business bay', { every: 'week', day: 1, time: '09:00' }, 'dubai marina, business bay'],
    ['dubai marina daily', { every: 'day', time: '09:00' }, 'dubai marina'],
    ['dubai marina every day at 07:30', { every: 'day', time: '07:30' }, 'dubai marina'],
    ['jvc weekly on friday', { every: 'week', day: 5, time: '09:00' }, 'jvc'],
    ['jvc, jlt weekly friday at 18:00', { every: 'week', day: 5, time: '18:00' }, 'jvc, jlt'],
    ['business bay every tuesday', { every: 'week', day: 2, time: '09:00' }, 'business bay'],
    ['business bay on sundays at 8am', { every: 'week', day: 0, time: '08:00' }, 'business bay'],
    ['palm jumeirah weekly', { every: 'week', day: 1, time: '09:00' }, 'palm jumeirah'],
    ['downtown dubai monthly', { every: 'month', time: '09:00' }, 'downtown dubai'],
    ['downtown dubai every month at 21:15', { every: 'month', time: '21:15' }, 'downtown dubai'],
    ['dubai marina at 18:30', { every: 'week', day: 1, time: '18:30' }, 'dubai marina'],
    ['dubai marina daily at 6pm', { every: 'day', time: '18:00' }, 'dubai marina'],
    ['dubai marina daily at 12am', { every: 'day', time: '00:00' }, 'dubai marina'],
    ['dubai marina daily at 12pm', { every: 'day', time: '12:00' }, 'dubai marina'],
    ['dubai marina daily at 6:45 pm', { every: 'day', time: '18:45' }, 'dubai marina'],
    ['dubai marina, business bay, daily', { every: 'day', time: '09:00' }, 'dubai marina, business bay'],
  ])('"%s"', (text, schedule, rest) => {
    expect(parseSchedule(text)).toEqual({ ok: true, schedule, rest });
  });

  it.each([
    ['dubai marina hourly', /daily, weekly \(on a day\) or monthly, not "hourly"/],
    ['dubai marina every hour', /not "every hour"/],
    ['dubai marina every minute', /not "every minute"/],
    ['dubai marina yearly', /not "yearly"/],
    ['dubai marina at 25:00', /"25:00" is not a time of day/],
    ['dubai marina daily at 9:75', /"9:75" is not a time of day/],
    ['dubai marina daily at 13pm', /"13pm" is not a time of day/],
    ['dubai marina at noonish', /"noonish" is not a time of day/],
  ])('refuses "%s", never guessing', (text, error) => {
    const r = parseSchedule(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(error);
  });

  it('an area whose name ends in a day word keeps it when no schedule word comes before it', () => {
    // "on friday" and "every friday" are schedules; a bare day at the end is not.
    expect(parseSchedule('marina friday')).toEqual({
      ok: true,
      schedule: { every: 'week', day: 1, time: '09:00' },
      rest: 'marina friday',
    });
  });

  it('describes schedules as the reply says them', () => {
    expect(describeSchedule({ every: 'week', day: 1, time: '09:00' }, 'Asia/Dubai')).toBe(
      'every Monday at 09:00 (Asia/Dubai)',
    );
    expect(describeSchedule({ every: 'day', time: '07:30' }, 'Asia/Dubai')).toBe('daily at 07:30 (Asia/Dubai)');
    expect(describeSchedule({ every: 'month', time: '09:00' }, 'Europe/London')).toBe(
      'monthly, on the 1st, at 09:00 (Europe/London)',
    );
    expect(shortDate(ms('2026-11-30T05:00:00Z'), 'Asia/Dubai')).toBe('Mon 30 Nov');
    // 22:30 UTC on Sunday is already Monday in Dubai.
    expect(shortDate(ms('2026-11-29T22:30:00Z'), 'Asia/Dubai', true)).toBe('Mon 30 Nov 02:30');
    expect(shortDate(ms('2027-03-28T08:00:00Z'), 'Europe/London', true)).toBe('Sun 28 Mar 09:00');
  });
});

describe('nextSlot in Asia/Dubai (UTC+4 all year)', () => {
  const TZ = 'Asia/Dubai';
  it('daily at 09:00: 05:00 UTC each day, across a month and a year end', () => {
    expect(slots({ every: 'day', time: '09:00' }, TZ, '2026-11-24T10:00:00Z', 3)).toEqual([
      '2026-11-25T05:00:00Z',
      '2026-11-26T05:00:00Z',
      '2026-11-27T05:00:00Z',
    ]);
    expect(slots({ every: 'day', time: '09:00' }, TZ, '2026-12-30T06:00:00Z', 3)).toEqual([
      '2026-12-31T05:00:00Z',
      '2027-01-01T05:00:00Z',
      '2027-01-02T05:00:00Z',
    ]);
    // Just before and exactly at a due time: strictly after.
    expect(slots({ every: 'day', time: '09:00' }, TZ, '2026-11-25T04:59:59Z', 1)).toEqual(['2026-11-25T05:00:00Z']);
    expect(slots({ every: 'day', time: '09:00' }, TZ, '2026-11-25T05:00:00Z', 1)).toEqual(['2026-11-26T05:00:00Z']);
  });

  it('an early local time falls on the UTC day before', () => {
    // 02:00 in Dubai is 22:00 UTC the day before.
    expect(slots({ every: 'day', time: '02:00' }, TZ, '2026-11-24T10:00:00Z', 2)).toEqual([
      '2026-11-24T22:00:00Z',
      '2026-11-25T22:00:00Z',
    ]);
  });

  it('weekly: Mondays at 09:00 (the default), Fridays at 18:30, Sundays at 01:00 (Saturday in UTC)', () => {
    // 2026-11-24 is a Tuesday: the first Monday is the 30th.
    expect(slots({ every: 'week', day: 1, time: '09:00' }, TZ, '2026-11-24T10:00:00Z', 3)).toEqual([
      '2026-11-30T05:00:00Z',
      '2026-12-07T05:00:00Z',
      '2026-12-14T05:00:00Z',
    ]);
    expect(slots({ every: 'week', day: 5, time: '18:30' }, TZ, '2026-11-24T10:00:00Z', 2)).toEqual([
      '2026-11-27T14:30:00Z',
      '2026-12-04T14:30:00Z',
    ]);
    expect(slots({ every: 'week', day: 0, time: '01:00' }, TZ, '2026-11-24T10:00:00Z', 2)).toEqual([
      '2026-11-28T21:00:00Z',
      '2026-12-05T21:00:00Z',
    ]);
    // On a Monday before 09:00 local: that same morning.
    expect(slots({ every: 'week', day: 1, time: '09:00' }, TZ, '2026-11-30T04:59:00Z', 1)).toEqual([
      '2026-11-30T05:00:00Z',
    ]);
  });

  it('monthly: the 1st at the time, across a year end and February', () => {
    expect(slots({ every: 'month', time: '09:00' }, TZ, '2026-11-24T10:00:00Z', 4)).toEqual([
      '2026-12-01T05:00:00Z',
      '2027-01-01T05:00:00Z',
      '2027-02-01T05:00:00Z',
      '2027-03-01T05:00:00Z',
    ]);
    // 00:30 on the 1st in Dubai is 20:30 UTC on the last day of the month before.
    expect(slots({ every: 'month', time: '00:30' }, TZ, '2027-01-15T00:00:00Z', 2)).toEqual([
      '2027-01-31T20:30:00Z',
      '2027-02-28T20:30:00Z',
    ]);
  });
});

describe('nextSlot in Europe/London across the clock changes (28 Mar and 31 Oct 2027)', () => {
  const TZ = 'Europe/London';
  it('daily at 09:00: 09:00 UTC in winter, 08:00 UTC in summer, changing on the day', () => {
    expect(slots({ every: 'day', time: '09:00' }, TZ, '2027-03-26T12:00:00Z', 4)).toEqual([
      '2027-03-27T09:00:00Z',
      '2027-03-28T08:00:00Z',
      '2027-03-29T08:00:00Z',
      '2027-03-30T08:00:00Z',
    ]);
    expect(slots({ every: 'day', time: '09:00' }, TZ, '2027-10-29T12:00:00Z', 3)).toEqual([
      '2027-10-30T08:00:00Z',
      '2027-10-31T09:00:00Z',
      '2027-11-01T09:00:00Z',
    ]);
  });

  it('a time that does not exist (01:30 on 28 Mar) or exists twice (01:30 on 31 Oct) is due once that day', () => {
    const spring = slots({ every: 'day', time: '01:30' }, TZ, '2027-03-27T12:00:00Z', 3);
    expect(spring[0]!.startsWith('2027-03-28T')).toBe(true);
    expect(spring.slice(1)).toEqual(['2027-03-29T00:30:00Z', '2027-03-30T00:30:00Z']);
    const autumn = slots({ every: 'day', time: '01:30' }, TZ, '2027-10-30T12:00:00Z', 3);
    expect(['2027-10-31T00:30:00Z', '2027-10-31T01:30:00Z']).toContain(autumn[0]);
    expect(autumn.slice(1)).toEqual(['2027-11-01T01:30:00Z', '2027-11-02T01:30:00Z']);
  });

  it('weekly on Sunday at 09:00 across both changes', () => {
    expect(slots({ every: 'week', day: 0, time: '09:00' }, TZ, '2027-03-15T00:00:00Z', 3)).toEqual([
      '2027-03-21T09:00:00Z',
      '2027-03-28T08:00:00Z',
      '2027-04-04T08:00:00Z',
    ]);
    expect(slots({ every: 'week', day: 0, time: '09:00' }, TZ, '2027-10-20T00:00:00Z', 3)).toEqual([
      '2027-10-24T08:00:00Z',
      '2027-10-31T09:00:00Z',
      '2027-11-07T09:00:00Z',
    ]);
  });

  it('monthly on the 1st at 09:00: GMT in March, BST from April to October, GMT from November', () => {
    expect(slots({ every: 'month', time: '09:00' }, TZ, '2027-02-10T00:00:00Z', 3)).toEqual([
      '2027-03-01T09:00:00Z',
      '2027-04-01T08:00:00Z',
      '2027-05-01T08:00:00Z',
    ]);
    expect(slots({ every: 'month', time: '09:00' }, TZ, '2027-09-10T00:00:00Z', 3)).toEqual([
      '2027-10-01T08:00:00Z',
      '2027-11-01T09:00:00Z',
      '2027-12-01T09:00:00Z',
    ]);
  });
});

describe('currentSlot: the due time a run at `at` belongs to', () => {
  it('is the latest due time at or before `at`, in either timezone', () => {
    const daily: Schedule = { every: 'day', time: '09:00' };
    expect(iso(currentSlot(daily, 'Asia/Dubai', ms('2026-11-25T05:00:00Z')))).toBe('2026-11-25T05:00:00Z');
    expect(iso(currentSlot(daily, 'Asia/Dubai', ms('2026-11-25T04:59:59Z')))).toBe('2026-11-24T05:00:00Z');
    expect(iso(currentSlot(daily, 'Asia/Dubai', ms('2026-11-25T23:00:00Z')))).toBe('2026-11-25T05:00:00Z');
    expect(iso(currentSlot(daily, 'Europe/London', ms('2027-03-28T08:30:00Z')))).toBe('2027-03-28T08:00:00Z');
    expect(iso(currentSlot(daily, 'Europe/London', ms('2027-03-28T07:59:00Z')))).toBe('2027-03-27T09:00:00Z');
    const weekly: Schedule = { every: 'week', day: 1, time: '09:00' };
    expect(iso(currentSlot(weekly, 'Asia/Dubai', ms('2026-12-03T12:00:00Z')))).toBe('2026-11-30T05:00:00Z');
    const monthly: Schedule = { every: 'month', time: '09:00' };
    expect(iso(currentSlot(monthly, 'Asia/Dubai', ms('2027-01-31T12:00:00Z')))).toBe('2027-01-01T05:00:00Z');
    expect(iso(currentSlot(monthly, 'Europe/London', ms('2027-04-30T23:00:00Z')))).toBe('2027-04-01T08:00:00Z');
  });

  it('after a long stop (Manzil down for weeks) it is the latest missed one, not the first', () => {
    expect(iso(currentSlot({ every: 'day', time: '09:00' }, 'Asia/Dubai', ms('2027-02-20T06:00:00Z')))).toBe(
      '2027-02-20T05:00:00Z',
    );
    expect(iso(currentSlot({ every: 'month', time: '09:00' }, 'Asia/Dubai', ms('2027-05-20T06:00:00Z')))).toBe(
      '2027-05-01T05:00:00Z',
    );
  });
});
