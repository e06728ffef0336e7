// Injected faults for tests and demos: error statuses, slow and malformed answers, limited by path, query
// parameters (one area's calls), count or a seeded share of requests. Several rules may be active at once.
import { Rng } from './random.js';

export interface FaultRule {
  status?: number;
  retryAfter?: number;
  latencyMs?: number;
  malformed?: boolean;
  path?: string;
  /** Fires only on requests whose query has each of these parameters with this value (e.g. one location_id). */
  params?: Record<string, string>;
  count?: number;
  ratio?: number;
}

/** What happens to one request: the longest latency of the rules that fire, then the first status or malformed body. */
export interface FaultEffect {
  latencyMs: number;
  status?: number;
  retryAfter?: number;
  malformed: boolean;
}

const MAX_LATENCY_MS = 120_000;

/** Throws a RangeError naming the first bad field; returns a clean copy. */
export function checkRule(input: unknown): FaultRule {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw new RangeError('a fault rule must be a JSON object');
  const r = input as Record<string, unknown>;
  const known = ['status', 'retryAfter', 'latencyMs', 'malformed', 'path', 'params', 'count', 'ratio'];
  for (const k of Object.keys(r))
    if (!known.includes(k)) throw new RangeError(`unknown fault field "${k}" (known: ${known.join(', ')})`);
  const whole = (k: string, min: number, max: number) => {
    const v = r[k];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
      throw new RangeError(`${k} must be a whole number from ${min} to ${max}`);
    return v;
  };
  const rule: FaultRule = {};
  const status = whole('status', 400, 599);
  const retryAfter = whole('retryAfter', 0, 86_400);
  const latencyMs = whole('latencyMs', 0, MAX_LATENCY_MS);
  const count = whole('count', 1, 1_000_000);
  if (status !== undefined) rule.status = status;
  if (retryAfter !== undefined) rule.retryAfter = retryAfter;
  if (latencyMs !== undefined) rule.latencyMs = latencyMs;
  if (count !== undefined) rule.count = count;
  if (r.malformed !== undefined) {
    if (typeof r.malformed !== 'boolean') throw new RangeError('malformed must be true or false');
    rule.malformed = r.malformed;
  }
  if (r.path !== undefined) {
    if (typeof r.path !== 'string' || !r.path.startsWith('/')) throw new RangeError('path must start with "/"');
    rule.path = r.path;
  }
  if (r.params !== undefined) {
    const p = r.params;
    if (
      typeof p !== 'object' ||
      p === null ||
      Array.isArray(p) ||
      !Object.values(p).every((v) => typeof v === 'string')
    )
      throw new RangeError('params must be an object of strings');
    rule.params = { ...(p as Record<string, string>) };
  }
  if (r.ratio !== undefined) {
    if (typeof r.ratio !== 'number' || !(r.ratio >= 0 && r.ratio <= 1))
      throw new RangeError('ratio must be a number from 0 to 1');
    rule.ratio = r.ratio;
  }
  if (rule.status === undefined && rule.latencyMs === undefined && !rule.malformed) {
    throw new RangeError('a fault rule needs status, latencyMs or malformed');
  }
  return rule;
}

export class Faults {
  private rules: { rule: FaultRule; left: number }[] = [];
  private readonly rng: Rng;

  constructor(seed: number) {
    this.rng = new Rng(seed ^ 0x5eed);
  }

  add(input: FaultRule): void {
    const rule = checkRule(input);
    this.rules.push({ rule, left: rule.count ?? Infinity });
  }

  clear(): void {
    this.rules = [];
  }

  get size(): number {
    return this.rules.length;
  }

  /** The effect on one request to `path` with `params`; counts are used up only by rules that fire. */
  take(path: string, params: Readonly<Record<string, string>> = {}): FaultEffect {
    const effect: FaultEffect = { latencyMs: 0, malformed: false };
    for (const entry of this.rules) {
      const { rule } = entry;
      if (rule.path !== undefined && rule.path !== path) continue;
      if (rule.params && Object.entries(rule.params).some(([k, v]) => params[k] !== v)) continue;
      if (rule.ratio !== undefined && !(this.rng.next() < rule.ratio)) continue;
      entry.left--;
      effect.latencyMs = Math.max(effect.latencyMs, rule.latencyMs ?? 0);
      if (effect.status === undefined && !effect.malformed) {
        if (rule.status !== undefined) {
          effect.status = rule.status;
          if (rule.retryAfter !== undefined) effect.retryAfter = rule.retryAfter;
        } else if (rule.malformed) effect.malformed = true;
      }
    }
    this.rules = this.rules.filter((e) => e.left > 0);
    return effect;
  }
}
