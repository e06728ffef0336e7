// When a standing order is due, for every kind: at every run of its kind's job (an alert's default), or daily, weekly
// on a day, or monthly (on the 1st), at a local time in a timezone (a digest's). Pure: no I/O. Each due time is a
// "slot"; an order is run and recorded once per slot, so a digest is posted once per period.
import { TZDate } from '@date-fns/tz';
import type { DigestWhen } from '../ports/order-command.js';

/** A schedule at a local time of day: what `/digest add` reads (parseSchedule). */
export type TimedSchedule =
  { every: 'day'; time: string } | { every: 'week'; day: number; time: string } | { every: 'month'; time: string };

/** Every run of the kind's job: the order is due again as soon as a run recorded it (alerts, on ALERTS_CRON). */
export type EveryRun = { every: 'run' };

export type Schedule = EveryRun | TimedSchedule;

export const EVERY_RUN: EveryRun = { every: 'run' };

export const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const SHORT_DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export const DEFAULT_SCHEDULE = { every: 'week', day: 1, time: '09:00' } as const satisfies TimedSchedule;

/** A day word: `monday`, `mon`, `mondays`. */
function dayOf(word: string): number | undefined {
  const w = word.toLowerCase().replace(/s$/, '');
  const i = DAYS.findIndex((d) => d === w || d.slice(0, 3) === w || (w.length >= 3 && d.startsWith(w)));
  return i === -1 ? undefined : i;
}

/** `HH:MM`, `9`, `9am`, `9:30pm`, `21:00` as `HH:MM`; undefined when it is no time of day (25:00, 9:75). */
export function parseTime(text: string): string | undefined {
  const m = /^(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm)?$/i.exec(text.trim());
  if (!m) return undefined;
  let hours = Number(m[1]);
  const minutes = m[2] === undefined ? 0 : Number(m[2]);
  const half = m[3]?.toLowerCase();
  if (half) {
    if (hours < 1 || hours > 12) return undefined;
    hours = (hours % 12) + (half === 'pm' ? 12 : 0);
  }
  if (hours > 23 || minutes > 59) return undefined;
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

export type ScheduleParse = { ok: true; schedule: TimedSchedule; rest: string } | { ok: false; error: string };

/** The schedule words at the end of `/digest add` words, as said (DigestWhen), and what is left: the areas. */
export type ScheduleWords = { ok: true; when: DigestWhen; rest: string } | { ok: false; error: string };

const notATime = (text: string) => `"${text}" is not a time of day: say for example \`at 09:00\` or \`at 6pm\`.`;

/**
 * Reads a schedule from the end of `/digest add` words: `daily`, `weekly`, `weekly on monday`, `every tuesday`,
 * `monthly`, each optionally `at HH:MM`. What is left (the areas) is returned as `rest`. An unknown schedule word
 * (`hourly`) or an impossible time (`at 25:00`) is an error, never a guess. What is not said stays unsaid: scheduleOf
 * fills it in.
 */
export function readSchedule(text: string): ScheduleWords {
  let rest = text.trim();
  const when: DigestWhen = {};
  const at = /\s*(?:^|\s)at\s+(\S+(?:\s*[ap]m)?)\s*$/i.exec(rest);
  if (at) {
    const time = parseTime(at[1]!);
    if (!time) return { ok: false, error: notATime(at[1]!) };
    when.time = time;
    rest = rest.slice(0, at.index).trim();
  }
  const words = rest.split(/\s+/);
  const last = (n: number) => words.slice(-n).join(' ').toLowerCase();
  const take = (n: number) => {
    rest = words.slice(0, -n).join(' ').trim();
  };
  const weeklyOn =
    /^(?:weekly|every week)(?: on)? (\w+)$/.exec(last(3)) ??
    /^(?:weekly)(?: on)? (\w+)$/.exec(last(2)) ??
    /^(?:every|on) (\w+)$/.exec(last(2));
  if (weeklyOn && dayOf(weeklyOn[1]!) !== undefined) {
    Object.assign(when, { every: 'week', day: DAYS[dayOf(weeklyOn[1]!)!] });
    take(weeklyOn[0].split(' ').length);
  } else if (/^(daily|every day)$/.test(last(1)) || last(2) === 'every day') {
    when.every = 'day';
    take(last(2) === 'every day' ? 2 : 1);
  } else if (/^(weekly)$/.test(last(1)) || last(2) === 'every week') {
    when.every = 'week';
    take(last(2) === 'every week' ? 2 : 1);
  } else if (/^(monthly)$/.test(last(1)) || last(2) === 'every month') {
    when.every = 'month';
    take(last(2) === 'every month' ? 2 : 1);
  } else if (
    /^(hourly|every hour|yearly|annually|every minute|fortnightly|biweekly|quarterly)$/.test(last(1)) ||
    /^every (hour|minute|year|quarter)$/.test(last(2))
  ) {
    return {
      ok: false,
      error: `I can post a digest daily, weekly (on a day) or monthly, not "${last(/^every/.test(last(2)) ? 2 : 1)}".`,
    };
  }
  rest = rest.replace(/[,\s]+$/, '');
  return { ok: true, when, rest };
}

/** The schedule a digest is saved with: what was said, and the defaults (weekly, Monday, 09:00) for the rest. */
export function scheduleOf(when: DigestWhen): { ok: true; schedule: TimedSchedule } | { ok: false; error: string } {
  const time = when.time === undefined ? DEFAULT_SCHEDULE.time : parseTime(when.time);
  if (!time) return { ok: false, error: notATime(when.time!) };
  if (when.every === 'day' || when.every === 'month') return { ok: true, schedule: { every: when.every, time } };
  const day = when.day ? DAYS.indexOf(when.day) : DEFAULT_SCHEDULE.day;
  return { ok: true, schedule: { every: 'week', day, time } };
}

/** Schedule words as they are typed back: `weekly on friday at 18:30`, `daily`, '' for the default. */
export function scheduleText(when: DigestWhen): string {
  const every =
    when.every === 'day'
      ? 'daily'
      : when.every === 'month'
        ? 'monthly'
        : when.day
          ? `weekly on ${when.day}`
          : when.every === 'week'
            ? 'weekly'
            : '';
  return [every, when.time ? `at ${when.time}` : ''].filter(Boolean).join(' ');
}

/** readSchedule and scheduleOf at once: the schedule a typed `/digest add` saves, and the areas' words.
 * @internal Exported for the tests and benchmarks (knip --production ignores it).
 */
export function parseSchedule(text: string): ScheduleParse {
  const read = readSchedule(text);
  if (!read.ok) return read;
  const made = scheduleOf(read.when);
  return made.ok ? { ok: true, schedule: made.schedule, rest: read.rest } : made;
}

const [hh, mm] = [(t: string) => Number(t.slice(0, 2)), (t: string) => Number(t.slice(3, 5))];

/**
 * The first due time strictly after `after` (ms), in `timezone`. Every run: `after` itself, so the order is due to the
 * job's next run.
 */
export function nextSlot(schedule: Schedule, timezone: string, after: number): number {
  if (schedule.every === 'run') return after;
  const local = new TZDate(after, timezone);
  for (let i = 0; i < 400; i++) {
    const day = new TZDate(
      local.getFullYear(),
      local.getMonth(),
      local.getDate() + i,
      hh(schedule.time),
      mm(schedule.time),
      timezone,
    );
    const matches =
      schedule.every === 'day' ||
      (schedule.every === 'week' && day.getDay() === schedule.day) ||
      (schedule.every === 'month' && day.getDate() === 1);
    if (matches && day.getTime() > after) return day.getTime();
  }
  throw new Error('no due time within 400 days'); // unreachable for these schedules
}

/**
 * The due time at or before `at` (the slot a due order belongs to): the one before the next after `at`. Every run: the
 * run itself.
 */
export function currentSlot(schedule: Schedule, timezone: string, at: number): number {
  if (schedule.every === 'run') return at;
  // Every schedule repeats within 31 days: step back a month and walk forward.
  let slot = nextSlot(schedule, timezone, at - 32 * 86_400_000);
  for (let next = nextSlot(schedule, timezone, slot); next <= at; next = nextSlot(schedule, timezone, slot))
    slot = next;
  return slot;
}

/** The slot an order due at `at` is run for, and the next one it is due at once recorded. */
export function slotOf(schedule: Schedule, timezone: string, at: number): { slot: number; next: number } {
  const slot = currentSlot(schedule, timezone, at);
  return { slot, next: nextSlot(schedule, timezone, Math.max(at, slot)) };
}

/**
 * "every Monday at 09:00 (Asia/Dubai)", "daily at 07:30 (Asia/Dubai)", "monthly, on the 1st at 09:00 (Asia/Dubai)";
 * "at every run" for an order run by each run of its job.
 */
export function describeSchedule(schedule: Schedule, timezone: string): string {
  if (schedule.every === 'run') return 'at every run';
  const when =
    schedule.every === 'day'
      ? 'daily'
      : schedule.every === 'week'
        ? `every ${DAY_NAMES[schedule.day]}`
        : 'monthly, on the 1st,';
  return `${when} at ${schedule.time} (${timezone})`;
}

/** "Mon 30 Nov" (with the time when `withTime`), in the timezone. */
export function shortDate(at: number, timezone: string, withTime = false): string {
  const d = new TZDate(at, timezone);
  const date = `${SHORT_DAYS[d.getDay()]} ${d.getDate()} ${MONTHS[d.getMonth()]}`;
  return withTime
    ? `${date} ${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`
    : date;
}
