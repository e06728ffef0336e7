// How often an alert posts (issue 40): `instant` (every listing as it is found: the default), or a summary `daily at
// HH:MM` or `weekly on <day> at HH:MM`, in its channel's time zone; and a channel's quiet hours. Read from the end of
// `/alerts add` words and from `/alerts edit`, terse or as a sentence ("send me a daily summary at 9", "every sunday
// at 8am"). The words of a schedule are the digests' (src/standing-orders/schedule.ts); this file only finds them and
// says what alerts may be. Pure.
import { TZDate } from '@date-fns/tz';
import {
  DAYS,
  EVERY_RUN,
  nextSlot,
  parseTime,
  readSchedule,
  scheduleOf,
  type Schedule,
} from '../standing-orders/schedule.js';

/** What an alert's schedule may be: every run (instant), daily or weekly at a local time. */
export type Frequency =
  { every: 'run' } | { every: 'day'; time: string } | { every: 'week'; day: number; time: string };

export const INSTANT: Frequency = EVERY_RUN;

const DAY = '(?:sun|mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?)(?:day)?s?';
const TIME = '\\d{1,2}(?:[:.]\\d{2})?\\s*(?:am|pm)?';
const INSTANT_WORDS = 'instant(?:ly)?|right away|as (?:they|it) (?:come|comes|appear|appears|happen|happens)';
const START = `daily|weekly|every\\s+day|every\\s+week|(?:every|each|on)\\s+${DAY}`;
/**
 * The schedule at the end of the words, with what may come before it in a sentence ("send me a", "as a", a comma) and
 * around it ("summary"): `<filler> [summary] <daily|weekly|every sunday> [summary] [on <day>] [at <time>]`.
 */
const TAIL = new RegExp(
  [
    '(?:^|[\\s,;]+)(?:and\\s+)?(?:(?:please\\s+)?(?:send|post|give)\\s+(?:me|us|it|them)\\s+|as\\s+|in\\s+)?',
    '(?:(?:an?|one)\\s+)?(?:(?:summary|digest|roundup)\\s+)?',
    `(?<freq>${INSTANT_WORDS}|${START})`,
    `(?<tail>(?:\\s+(?:summary|digest|roundup))?(?:\\s+(?:on|every)\\s+${DAY})?(?:\\s+at\\s+${TIME})?)`,
    '\\s*[.!]?\\s*$',
  ].join(''),
  'i',
);

export type FrequencyWords =
  { ok: true; frequency: Frequency | undefined; rest: string } | { ok: false; error: string };

/**
 * The frequency said at the end of `/alerts add` words, and the words before it (the search). `frequency` is
 * undefined when none is said. A summary whose time is not said is at 09:00; a weekly one on Monday.
 */
export function readFrequency(text: string): FrequencyWords {
  // Quoted text (an area's name) is never read as a schedule: only what follows the last quote.
  const lastQuote = text.lastIndexOf('"');
  const m = TAIL.exec(text.slice(lastQuote + 1));
  if (!m) return { ok: true, frequency: undefined, rest: text.trim() };
  const rest = text.slice(0, lastQuote + 1 + m.index).trim();
  const made = frequencyOf(`${m.groups!.freq} ${m.groups!.tail}`);
  return made.ok ? { ok: true, frequency: made.frequency, rest } : made;
}

/** The words of a frequency alone (`/alerts edit 3 <words>`): `instant`, `daily at 9:00`, `every sunday at 8am`. */
export function parseFrequency(text: string): { ok: true; frequency: Frequency } | { ok: false; error: string } {
  const words = text.trim();
  const read = readFrequency(words);
  if (!read.ok) return read;
  if (!read.frequency || read.rest !== '')
    return {
      ok: false,
      error: `I couldn't read "${words}" as how often: say \`instant\`, \`daily at 9:00\` or \`weekly on sunday at 8:00\`.`,
    };
  return { ok: true, frequency: read.frequency };
}

function frequencyOf(said: string): { ok: true; frequency: Frequency } | { ok: false; error: string } {
  const words = said.replace(/\s+/g, ' ').trim().toLowerCase();
  if (new RegExp(`^(?:${INSTANT_WORDS})$`, 'i').test(words)) return { ok: true, frequency: INSTANT };
  // "every sunday summary at 8" reads as the digests' "every sunday at 8".
  const schedule = readSchedule(words.replace(/\b(?:summary|digest|roundup)\b/g, ' ').replace(/\s+/g, ' '));
  if (!schedule.ok) return schedule;
  if (schedule.rest !== '' || !schedule.when.every)
    return {
      ok: false,
      error: `I couldn't read "${said.trim()}" as how often: say \`daily at 9:00\` or \`weekly on sunday at 8:00\`.`,
    };
  if (schedule.when.every === 'month')
    return { ok: false, error: 'An alert can be instant, daily or weekly, not monthly.' };
  const made = scheduleOf(schedule.when);
  if (!made.ok) return made;
  return { ok: true, frequency: made.schedule as Frequency };
}

/** The few distinct schedules a run meets, read once each (a run reads 10,000 alerts' schedules in its commits). */
const readSchedules = new Map<string, Frequency>();

/** An alert's schedule as stored (standing_order.schedule), read back; instant when unreadable. */
export function frequencyFrom(json: string): Frequency {
  let read = readSchedules.get(json);
  if (read === undefined) {
    read = storedFrequency(json);
    if (readSchedules.size >= 1_000) readSchedules.clear();
    readSchedules.set(json, read);
  }
  return read;
}

function storedFrequency(json: string): Frequency {
  try {
    const s = JSON.parse(json) as Schedule;
    if (s.every === 'day' && typeof s.time === 'string') return { every: 'day', time: s.time };
    if (s.every === 'week' && typeof s.time === 'string' && typeof s.day === 'number')
      return { every: 'week', day: s.day, time: s.time };
  } catch {
    // an older or damaged value: the default
  }
  return INSTANT;
}

export const isSummary = (f: Frequency): f is Exclude<Frequency, { every: 'run' }> => f.every !== 'run';

/** The words that say it, as typed back: `instant`, `daily at 09:00`, `weekly on sunday at 08:00`. */
export function frequencyText(f: Frequency): string {
  if (f.every === 'run') return 'instant';
  return f.every === 'day' ? `daily at ${f.time}` : `weekly on ${DAYS[f.day]} at ${f.time}`;
}

/** When an alert is due next after `at`: the next run for an instant one, its next slot for a summary. */
export function nextDue(f: Frequency, timezone: string, at: number): number {
  return f.every === 'run' ? at : nextSlot(f, timezone, at);
}

/** `22:00-07:00`, `22-7`, `10pm-7am`, `22:00 to 07:00`: quiet hours, or why not. */
export function parseQuiet(text: string): { ok: true; from: string; to: string } | { ok: false; error: string } {
  const m = /^(.+?)\s*(?:-|–|to|until|till)\s*(.+)$/i.exec(text.trim());
  const from = m && parseTime(m[1]!);
  const to = m && parseTime(m[2]!);
  if (!from || !to)
    return {
      ok: false,
      error: `I couldn't read "${text.trim()}" as quiet hours: say for example \`/alerts quiet 22:00-07:00\`, or \`/alerts quiet off\`.`,
    };
  if (from === to) return { ok: false, error: 'Quiet hours need an end different from their start.' };
  return { ok: true, from, to };
}

const minutesOf = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));

/**
 * When the quiet hours that `at` is in end (ms), or undefined when `at` is outside them: `from` to `to` in the time
 * zone, over midnight when `to` is earlier than `from`.
 */
export function quietUntil(quiet: { from: string; to: string }, timezone: string, at: number): number | undefined {
  const local = new TZDate(at, timezone);
  const now = local.getHours() * 60 + local.getMinutes();
  const [from, to] = [minutesOf(quiet.from), minutesOf(quiet.to)];
  const inside = from < to ? now >= from && now < to : now >= from || now < to;
  if (!inside) return undefined;
  const endsToday = now < to;
  return new TZDate(
    local.getFullYear(),
    local.getMonth(),
    local.getDate() + (endsToday ? 0 : 1),
    Math.floor(to / 60),
    to % 60,
    timezone,
  ).getTime();
}
