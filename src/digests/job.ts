// The digest kind of standing order (checked every minute): each due digest is composed once for its slot and queued
// in the outbox in the transaction that moves it to its next slot, committed by the one run
// (src/standing-orders/run.ts) under its lease's fence. So a digest is posted once per period, across restarts, crashes
// and instances; slots missed while Manzil was down are not posted late (only the latest).
import { runOrders, type OrderKind, type PartContext, type PartResult } from '../standing-orders/run.js';
import type { Logger } from '../log.js';
import type { DigestRepo, DigestRow, LeaseRepo, NewDelivery } from '../store/index.js';
import { digestKey } from '../store/index.js';
import { decodeAreas, decodeSchedule, type FollowedArea } from './codec.js';
import { shortDate } from '../standing-orders/schedule.js';

export const DIGEST_JOB = 'digests';
/** The outbox kinds digests write. */
export const DIGEST_KIND = 'digest';
export const DIGEST_NOTICE_KIND = 'digest_notice';

/** A digest to compose: its areas, the period (new listings since `since`) and its title. */
export interface ComposeRequest {
  areas: FollowedArea[];
  since: number;
  now: number;
  title: string;
  signal?: AbortSignal;
  patient?: boolean;
}

/** What a run needs to make a digest: the payload (versioned JSON) and what it cost. */
export interface DigestComposer {
  /**
   * `patient`: the caller can wait (a scheduled run, not a person): an area refused by a wait the service asked for (an
   * open circuit after another place's failures, a Retry-After) is tried once more after it. `failed`: areas left out.
   */
  compose(request: ComposeRequest): Promise<{ payload: string; calls: number; failed: number }>;
  /** Whether the call budget covers a digest of these areas now (what is cached costs nothing). */
  canAfford(areas: readonly FollowedArea[]): boolean;
}

export interface DigestJobDeps {
  repo: DigestRepo;
  leases: LeaseRepo;
  composer: DigestComposer;
  service: string;
  holder: string;
  logger: Logger;
  now?: () => number;
  signal?: AbortSignal;
  /** New entries were queued: deliver soon. */
  onQueued?: () => void;
  /** Whether a team (`slack:T123`) may still spend calls this month; every team may when unset. */
  teamAllows?: (team: string) => Promise<boolean>;
  /** One digest instead of every due one: a part of a run that instances share (a pg-boss job), under its own lease. */
  only?: number;
  /** Instances gone (their heartbeat lapsed): a digest's lease one of them holds is taken over at once. */
  lapsed?: () => Promise<string[]>;
}

export interface DigestRunReport {
  ran: boolean;
  due: number;
  queued: number;
  postponed: number;
  calls: number;
}

const WEEK = 7 * 86_400_000;
/** A digest the budget could not cover is tried again this much later (one notice per slot). */
const POSTPONE_MS = 60 * 60_000;
/** A run that failed unexpectedly tries the same slot again this much later. */
const RETRY_MS = 15 * 60_000;

export const digestTitle = (areas: readonly FollowedArea[]) => `Market digest: ${areas.map((p) => p.name).join(', ')}`;

type DigestKindDeps = Pick<DigestJobDeps, 'repo' | 'composer' | 'service'>;
type Ctx = PartContext<DigestRow, { postponed: number }>;

/** Digests as a kind of standing order: a part is one digest, run for its slot. */
export function digestOrders(
  deps: DigestKindDeps,
): OrderKind<DigestRow, number, { postponed: number }, DigestRunReport> {
  return {
    job: DIGEST_JOB,
    label: 'digests',
    partOf: (row) => row.id,
    dueRows: (at, only) => deps.repo.due(deps.service, at, only),
    dueParts: (at) => deps.repo.dueParts(deps.service, at),
    partKey: String,
    partFrom: Number,
    scheduleOf: (row) => {
      const schedule = decodeSchedule(row.schedule);
      return schedule && { schedule, timezone: row.timezone };
    },
    begin: () => ({ postponed: 0 }),
    runPart: (_id, [row], ctx) => runOne(deps, row!, ctx, false),
    // Over its team's share: postponed with one notice a slot, as when the call budget cannot cover it.
    overShare: (row, ctx) => runOne(deps, row, ctx, true),
    report: (r, state) => ({ ran: r.ran, due: r.due, queued: r.queued, postponed: state.postponed, calls: r.calls }),
  };
}

/** One digests run: every due digest, or one (`deps.only`). */
export const runDigests = (deps: DigestJobDeps): Promise<DigestRunReport> =>
  runOrders(digestOrders(deps), deps, deps.only === undefined ? undefined : [deps.only]);

/** What running one due digest records: its digest queued for the slot, or a postponement. */
async function runOne(deps: DigestKindDeps, row: DigestRow, ctx: Ctx, overShare: boolean): Promise<PartResult> {
  const now = ctx.at;
  const log = ctx.log.child({ digest: row.id, channel: row.channel });
  const postpone =
    (nextRunAt: number, reason: string, notice?: NewDelivery) =>
    async (fence: Parameters<DigestRepo['postpone']>[4]) =>
      (await deps.repo.postpone(row.id, nextRunAt, reason, notice, fence)) ? 0 : undefined;
  // The slot is the schedule's (not `nextRunAt`, which a postponement moves): one digest and one notice per slot.
  const slots = ctx.slot(row);
  const areas = decodeAreas(row.areas);
  if (!slots || areas.length === 0) {
    log.error('digest unreadable; skipped for a week');
    return {
      ran: true,
      calls: 0,
      commit: postpone(now + WEEK, 'saved by a release that cannot be read: remove it and add it again'),
    };
  }
  const { slot, next } = slots;
  if (overShare || !deps.composer.canAfford(areas)) {
    const why = overShare
      ? "this workspace has used its share of this month's property lookups (it renews on the 1st, UTC)"
      : "the property service's call budget for today is spent";
    const notice = {
      channel: row.channel,
      kind: DIGEST_NOTICE_KIND,
      dedupeKey: `${digestKey(row.id, slot)}:postponed`,
      payload: JSON.stringify({
        v: 1,
        kind: DIGEST_NOTICE_KIND,
        text: `⏳ Digest #${row.number} is postponed: ${why}. I'll post it as soon as it allows (the schedule stays ${shortDate(next, row.timezone, true)} for the next one).`,
      }),
    };
    ctx.state.postponed++;
    log.warn(
      overShare
        ? "digest postponed: its team's share of the month is spent"
        : 'digest postponed: the call budget cannot cover it',
    );
    return {
      ran: true,
      calls: 0,
      commit: postpone(
        now + POSTPONE_MS,
        overShare
          ? "postponed: the workspace's share of the month is spent"
          : 'postponed: the call budget cannot cover it now',
        notice,
      ),
    };
  }
  const retry = (e: unknown) => {
    log.error('digest could not be composed; the same period is tried again', { error: e, retryInMs: RETRY_MS });
    return postpone(now + RETRY_MS, 'the last try failed; trying again');
  };
  let composed: Awaited<ReturnType<DigestComposer['compose']>>;
  try {
    composed = await deps.composer.compose({
      areas,
      since: row.lastSlot ?? slot - WEEK,
      now,
      title: digestTitle(areas),
      patient: true,
    });
  } catch (e) {
    return { ran: true, calls: 0, commit: retry(e) };
  }
  const { payload, calls, failed } = composed;
  if (failed === areas.length) {
    // Nothing could be fetched (the service is down): the period is not spent on an empty digest; tried again.
    log.warn('digest: no area could be fetched; the same period is tried again', { retryInMs: RETRY_MS });
    return {
      ran: true,
      calls,
      commit: postpone(now + RETRY_MS, 'the property service could not be reached; trying again'),
    };
  }
  const record = { slot, nextRunAt: next, at: now, calls };
  const delivery = { channel: row.channel, kind: DIGEST_KIND, dedupeKey: digestKey(row.id, slot), payload };
  return {
    ran: true,
    calls,
    commit: async (fence) => {
      try {
        return (await deps.repo.recordRun(row.id, { ...record, delivery }, fence)) ? 1 : undefined;
      } catch (e) {
        return retry(e)(fence);
      }
    },
  };
}

/**
 * `/digest now`: the digest of these areas, composed now (the command waits for it, as a search does) and posted in
 * the channel through the outbox, like a scheduled one. New listings are counted over the last 7 days.
 */
export async function postDigestNow(
  deps: {
    composer: DigestComposer;
    enqueue: (d: NewDelivery) => Promise<number>;
    logger: Logger;
    now?: () => number;
    onQueued?: () => void;
  },
  channel: string,
  areas: FollowedArea[],
): Promise<{ queued: boolean; reason?: string }> {
  const now = (deps.now ?? Date.now)();
  if (!deps.composer.canAfford(areas))
    return { queued: false, reason: 'the property service’s call budget cannot cover it now; try again later' };
  try {
    const { payload, calls } = await deps.composer.compose({
      areas,
      since: now - WEEK,
      now,
      title: digestTitle(areas),
    });
    await deps.enqueue({ channel, kind: DIGEST_KIND, dedupeKey: `digest-now:${channel}:${now}`, payload });
    deps.logger.info('digest composed on request', { channel, areas: areas.length, calls });
    deps.onQueued?.();
    return { queued: true };
  } catch (e) {
    deps.logger.error('digest on request could not be composed', { channel, error: e });
    return { queued: false, reason: 'something went wrong while composing it; the log has the details' };
  }
}
