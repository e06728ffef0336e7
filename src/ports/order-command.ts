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
  | { kind: K; sub: 'pause' | 'remove'; number: number }
  | { kind: K; sub: 'resume'; number?: number };

/** An alert to save: a search in the command language, as typed, or one already parsed (and its area, if looked up). */
export type AlertSpec = { search: string } | { query: Query; area?: { id: number; name: string } };

/**
 * An alert's own subcommands past add and test (issue 40): how often one posts (`edit 3 daily at 9:00`, its words as
 * typed), the channel's quiet hours (`quiet 22:00-07:00`, `quiet off`, '' to show them) and time zone, and the rest of
 * a summary (`more 3`, `more quiet`, a page after the first).
 */
export type AlertSettingCommand =
  | { kind: 'alert'; sub: 'edit'; number: number; every: string }
  | { kind: 'alert'; sub: 'quiet'; hours: string }
  | { kind: 'alert'; sub: 'timezone'; zone: string }
  | { kind: 'alert'; sub: 'more'; which: number | 'quiet'; page: number };

export type AlertCommand =
  | SharedCommand<'alert'>
  | ({ kind: 'alert'; sub: 'add' } & AlertSpec)
  | { kind: 'alert'; sub: 'test'; number: number }
  | AlertSettingCommand;

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
