// The digest form, platform-free: its areas, how often, the day and the time, read into the same DigestCommand a typed
// `/digest add` (or `/digest edit`) is, or refused field by field; an existing digest read back for an edit form. Pure.
import { areaList, type DayName, type DigestCommand, type ExistingDigest } from '../ports/order-command.js';
import { DAYS, parseTime } from '../standing-orders/schedule.js';
import { decodeArea, type FormResult } from './values.js';

export interface DigestFormValues {
  /** Areas as typed (`dubai marina, jvc`: Discord), or chosen in a picker (`<id>:<name>` each: Slack). */
  areas?: string | string[];
  every?: 'daily' | 'weekly' | 'monthly';
  day?: DayName;
  /** `HH:MM`, or as typed (`6pm`). */
  time?: string;
}

export type DigestField = keyof DigestFormValues;

/** How many areas one digest follows at most (the digests refuse more; said on the field here first). */
const MAX_AREAS = 5;

const EVERY = { daily: 'day', weekly: 'week', monthly: 'month' } as const;

/** The form as `/digest add` (or `/digest edit <n>` for digest `editing`), or what is wrong with each field. */
export function toDigestOrder(
  values: DigestFormValues,
  editing?: { number: number },
  maxAreas = MAX_AREAS,
): FormResult<DigestCommand, DigestField> {
  const errors: Partial<Record<DigestField, string>> = {};
  const chosen = Array.isArray(values.areas) ? values.areas : areaList(values.areas ?? '');
  const areas = [...new Set(chosen.map((a) => decodeArea(a)?.name ?? a.trim()).filter(Boolean))];
  if (areas.length === 0) errors.areas = 'Name at least one area, for example: dubai marina, jvc.';
  else if (areas.length > maxAreas)
    errors.areas = `A digest follows at most ${maxAreas} areas; this names ${areas.length}.`;
  const typed = values.time?.trim() ?? '';
  const time = typed === '' ? '09:00' : parseTime(typed);
  if (!time) errors.time = `"${typed}" is not a time of day: write it as HH:MM, such as 09:00 or 18:30.`;
  if (values.day && !DAYS.includes(values.day)) errors.day = `"${String(values.day)}" is not a day of the week.`;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const every = EVERY[values.every ?? 'weekly'];
  const when = { every, ...(every === 'week' ? { day: values.day ?? 'monday' } : {}), time: time! };
  return {
    ok: true,
    order: editing
      ? { kind: 'digest', sub: 'edit', number: editing.number, areas, when }
      : { kind: 'digest', sub: 'add', areas, when },
  };
}

/** An existing digest as its edit form's fields. */
export function fromDigest(existing: ExistingDigest): DigestFormValues {
  const { when } = existing;
  const every = when.every === 'day' ? 'daily' : when.every === 'month' ? 'monthly' : 'weekly';
  return {
    areas: existing.areas.join(', '),
    every,
    ...(every === 'weekly' ? { day: when.day ?? 'monday' } : {}),
    time: when.time ?? '09:00',
  };
}
