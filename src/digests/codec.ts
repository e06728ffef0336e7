// The JSON a digest row keeps (its places and schedule), read back with checks: a row written by another release is
// described as unreadable, never crashes a list or a run.
import { z } from 'zod';
import type { TimedSchedule } from '../standing-orders/schedule.js';

export interface FollowedArea {
  id: number;
  name: string;
}

const areasSchema = z.array(z.object({ id: z.number().int(), name: z.string() }));
const time = z.string().regex(/^\d{2}:\d{2}$/);
const scheduleSchema = z.discriminatedUnion('every', [
  z.object({ every: z.literal('day'), time }),
  z.object({ every: z.literal('week'), day: z.number().int().min(0).max(6), time }),
  z.object({ every: z.literal('month'), time }),
]);

/** JSON checked against `schema`; undefined when it is not JSON or not that shape (never throws). */
export const parseJson = <T>(schema: z.ZodType<T>, json: string): T | undefined => {
  try {
    const r = schema.safeParse(JSON.parse(json));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
};

export const decodeAreas = (json: string): FollowedArea[] => parseJson(areasSchema, json) ?? [];
export const decodeSchedule = (json: string): TimedSchedule | undefined => parseJson(scheduleSchema, json);
