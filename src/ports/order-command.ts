// A command to a standing order (an alert, a digest) as a plain value, whichever surface it came from: typed text is
// parsed into one by the kind's commands (src/standing-orders/language.ts), Discord's slash-command options build one
// directly, and so will a form. The kind's `run` answers it; it reads back as the text that would say the same
// (orderText), so what an option or a form saves can be shown as the command that saves it.
import type { Query } from '../query/types.js';

export type OrderKind = 'alert' | 'digest';

/**
 * What every kind understands: help, its list, and one numbered order paused, resumed or removed. `resume` without a
 * number is the kind's own meaning when it has one (alerts: post to a held channel again), else "which one?".
 */
export type SharedCommand<K extends OrderKind> =
  | { kind: K; sub: 'help' | 'list' }
  | { kind: K; sub: 'pause' | 'remove'; number: number; to?: 'me' }
  | { kind: K; sub: 'resume'; number?: number; to?: 'me' };

/** An alert to save: a search in the command language, as typed, or one already parsed (and its area, if looked up). */
export type AlertSpec = { search: string } | { query: Query; area?: { id: number; name: string } };

/**
 * `to: 'me'`: a personal alert, posted to the person's direct messages with the bot rather than to the channel
 * (`/alerts add me …`, "Save for me"); on a numbered command, that person's own alert of that number (`/alerts pause me
 * 2`).
 */
export type AlertCommand =
  | SharedCommand<'alert'>
  | ({ kind: 'alert'; sub: 'add'; to?: 'me' } & AlertSpec)
  | { kind: 'alert'; sub: 'test'; number: number; to?: 'me' };

export type DayName = 'sunday' | 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday';

/**
 * When a digest is posted, as asked: what is not said is the default (weekly, on Monday, at 09:00). A day is said only
 * of a weekly digest; `time` is a time of day as the person gave it (`18:30`, `6pm`), read by the digests.
 */
export interface DigestWhen {
  every?: 'day' | 'week' | 'month';
  day?: DayName;
  time?: string;
}

export type DigestCommand =
  | SharedCommand<'digest'>
  | { kind: 'digest'; sub: 'add'; areas: string[]; when: DigestWhen }
  | { kind: 'digest'; sub: 'now'; areas: string[] };

export type OrderCommand = AlertCommand | DigestCommand;

/**
 * Places as a list is written on every surface: `dubai marina, business bay and jvc` (commas, semicolons or "and"),
 * each name unquoted. Discord's `places` option is read by it as a typed `/digest add` is.
 */
export const areaList = (text: string): string[] =>
  text
    .split(/\s*,\s*|\s+and\s+|\s*;\s*/i)
    .map((w) => w.replace(/^["“”']+|["“”']+$/g, '').trim())
    .filter(Boolean);
