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

/**
 * An alert to save: a search in the command language, as typed (how often said at its end, if at all), or one already
 * parsed (and its area, if looked up; a form's) with how often in the words `/alerts edit` takes (`daily at 09:00`).
 */
export type AlertSpec = { search: string } | { query: Query; area?: { id: number; name: string }; every?: string };

/**
 * An alert's own subcommands past add and test (issue 40): how often one posts (`edit 3 daily at 9:00`, its words as
 * typed), the channel's quiet hours (`quiet 22:00-07:00`, `quiet off`, '' to show them) and time zone, and the rest of
 * a summary (`more 3`, `more quiet`, a page after the first).
 */
export type AlertSettingCommand =
  | { kind: 'alert'; sub: 'edit'; number: number; every: string; to?: 'me' }
  | AlertEditCommand
  | { kind: 'alert'; sub: 'quiet'; hours: string }
  | { kind: 'alert'; sub: 'timezone'; zone: string }
  | { kind: 'alert'; sub: 'more'; which: number | 'quiet'; page: number };

/**
 * `/alerts edit 3 rent marina 2br under 150k daily at 9:00` (and an edit form): the alert's whole search, and how often,
 * replaced; how often is kept when not said. `to: 'me'`: the person's own alert of that number.
 */
export interface AlertEditCommand {
  kind: 'alert';
  sub: 'edit';
  number: number;
  alert: AlertSpec;
  to?: 'me';
}

/**
 * `to: 'me'`: a personal alert, posted to the person's direct messages with the bot rather than to the channel
 * (`/alerts add me …`, "Save for me"); on a numbered command, that person's own alert of that number (`/alerts pause me
 * 2`).
 */
export type AlertCommand =
  | SharedCommand<'alert'>
  | ({ kind: 'alert'; sub: 'add'; to?: 'me' } & AlertSpec)
  | { kind: 'alert'; sub: 'test'; number: number; to?: 'me' }
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
  /** `/digest edit 2 jvc daily at 8:00` (and an edit form): its areas and schedule replaced. */
  | { kind: 'digest'; sub: 'edit'; number: number; areas: string[]; when: DigestWhen }
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

/**
 * Words that ask for an alert to the person's direct messages rather than to the channel: a leading `me` (`/alerts add
 * me rent marina`), "for me", "privately", "DM me", "to my DMs". Taken out of the search, which is read without them.
 */
const PERSONAL_LEAD =
  /^(?:(?:just\s+|only\s+)?(?:to|for)\s+(?:me|myself)|me|dm(?:\s+me)?|privately)(?:\s*[:,-]\s*|\s+|$)/i;
const PERSONAL_ANYWHERE = new RegExp(
  [
    '(?:alert|message|notify|tell|ping|send)\\s+me\\s+(?:privately|in\\s+private|by\\s+dm|directly)',
    '(?:dm|pm)\\s+me',
    '(?:privately|in\\s+private)',
    '(?:by|via|in|to)\\s+(?:a\\s+)?(?:dms?|direct\\s+messages?|my\\s+dms?|my\\s+direct\\s+messages)',
    '(?:just|only)\\s+(?:to|for)\\s+me',
  ]
    .map((p) => `(?<![\\p{L}\\p{N}])(?:${p})(?![\\p{L}\\p{N}])`)
    .join('|'),
  'giu',
);

/**
 * A leading `here` (or "to this channel"): the channel's alert, said so, and nothing after it read as personal words.
 * How a channel alert whose search starts with one of them ("dm 2br": Dubai Marina) is written (channelSearchText).
 */
const CHANNEL_LEAD = /^(?:here|(?:to|in|for)\s+(?:this\s+)?channel)(?:\s*[:,-]\s*|\s+|$)/i;

/** `add`'s text (typed, or Discord's `query` option) read for the personal words: whether it asks for the person's DMs, and the search without them. */
export function personalWords(text: string): { to?: 'me'; search: string } {
  const channel = CHANNEL_LEAD.exec(text.trim());
  if (channel) return { search: text.trim().slice(channel[0].length).trim() };
  let search = text.trim();
  let mine = false;
  const lead = PERSONAL_LEAD.exec(search);
  if (lead) {
    mine = true;
    search = search.slice(lead[0].length);
  }
  const rest = search.replace(PERSONAL_ANYWHERE, () => {
    mine = true;
    return ' ';
  });
  search = rest.replace(/\s+/g, ' ').replace(/^[\s,:-]+|[\s,:-]+$/g, '');
  return mine ? { to: 'me', search } : { search: text.trim() };
}

/** A channel alert's search as `add` reads it back: behind `here` when its own words would read as personal. */
export const channelSearchText = (search: string): string =>
  personalWords(search).to === 'me' || CHANNEL_LEAD.test(search.trim()) ? `here ${search}` : search;

/** A saved alert as an edit form is filled from it: its number, whose it is, its search and area, how often in words. */
export interface ExistingAlert {
  kind: 'alert';
  number: number;
  to?: 'me';
  query: Query;
  area: { id: number; name: string };
  /** `instant`, `daily at 09:00`, `weekly on sunday at 08:00`. */
  every: string;
}

/** A new alert's form filled from a search (a result's Save button): its search, its area when known, for whom. */
export interface AlertDraft {
  kind: 'alert';
  to?: 'me';
  query: Query;
  area?: { id: number; name: string };
}

/** A saved digest as an edit form is filled from it. */
export interface ExistingDigest {
  kind: 'digest';
  number: number;
  areas: string[];
  when: DigestWhen;
}

export type ExistingOrder = ExistingAlert | ExistingDigest;
