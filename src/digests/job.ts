// The digests job (checked every minute): each due digest is composed once for its slot and queued in the outbox in
// the transaction that moves it to its next slot, under the job's fenced lease. So a digest is posted once per period,
// across restarts, crashes and instances; slots missed while Manzil was down are not posted late (only the latest).
import { runLeased } from '../jobs/index.js';
import { dueParts, runLease } from '../standing-orders/due.js';
import type { Logger } from '../log.js';
import type { DigestRepo, DigestRow, LeaseRepo, NewDelivery } from '../store/index.js';
import { digestKey } from '../store/index.js';
import { teamOf } from '../ports/index.js';
import { payingFor } from '../api/payer.js';
import { decodeAreas, decodeSchedule, type FollowedArea } from './codec.js';
import { currentSlot, nextSlot, shortDate } from './schedule.js';

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
const LEASE_MS = 2 * 60_000;
/** A digest the budget could not cover is tried again this much later (one notice per slot). */
const POSTPONE_MS = 60 * 60_000;
/** A run that failed unexpectedly tries the same slot again this much later. */
const RETRY_MS = 15 * 60_000;

export const digestTitle = (areas: readonly FollowedArea[]) => `Market digest: ${areas.map((p) => p.name).join(', ')}`;

/**
 * A shared run's parts: the digests due now, the longest-waiting first, each run by `runDigests({ only })` on whichever
 * instance takes it. Listed under the digests job's lease, so the run is recorded as one.
 */
export async function dueDigests(
  deps: Pick<DigestJobDeps, 'repo' | 'leases' | 'service' | 'holder' | 'logger' | 'now'>,
): Promise<number[]> {
  const now = deps.now ?? Date.now;
  return dueParts(
    { leases: deps.leases, job: DIGEST_JOB, holder: deps.holder, logger: deps.logger, ttlMs: LEASE_MS, now },
    () => deps.repo.dueParts(deps.service, now()),
  );
}

export async function runDigests(deps: DigestJobDeps): Promise<DigestRunReport> {
  const now = deps.now ?? Date.now;
  const report: DigestRunReport = { ran: false, due: 0, queued: 0, postponed: 0, calls: 0 };
  const lease = runLease(
    {
      leases: deps.leases,
      job: DIGEST_JOB,
      holder: deps.holder,
      logger: deps.logger,
      ttlMs: LEASE_MS,
      now,
      ...(deps.lapsed ? { lapsed: deps.lapsed } : {}),
      ...(deps.signal ? { signal: deps.signal } : {}),
    },
    deps.only === undefined ? undefined : `${DIGEST_JOB}:${deps.only}`,
  );
  const leased = await runLeased(lease, async (fence, signal) => {
    report.ran = true;
    const due = await deps.repo.due(deps.service, now(), deps.only);
    report.due = due.length;
    for (const row of due) {
      if (signal.aborted) break;
      // Its calls are its team's (a share of the month's quota; payer.ts).
      await payingFor({ teams: [teamOf(row.channel)], purpose: 'background' }, () => runOne(deps, row, fence, report));
    }
    return report;
  });
  if (report.queued > 0) deps.onQueued?.();
  if (leased.ran && report.due > 0) deps.logger.info('digests run finished', { ...report });
  return report;
}

async function runOne(
  deps: DigestJobDeps,
  row: DigestRow,
  fence: Parameters<DigestRepo['recordRun']>[2],
  report: DigestRunReport,
): Promise<void> {
  const now = (deps.now ?? Date.now)();
  const log = deps.logger.child({ part: 'digests', digest: row.id, channel: row.channel });
  const schedule = decodeSchedule(row.schedule);
  const areas = decodeAreas(row.areas);
  if (!schedule || areas.length === 0) {
    await deps.repo.postpone(
      row.id,
      now + WEEK,
      'saved by a release that cannot be read: remove it and add it again',
      undefined,
      fence,
    );
    log.error('digest unreadable; skipped for a week');
    return;
  }
  // The slot is the schedule's (not `nextRunAt`, which a postponement moves): one digest and one notice per slot.
  const slot = currentSlot(schedule, row.timezone, now);
  const next = nextSlot(schedule, row.timezone, Math.max(now, slot));
  const overShare = deps.teamAllows !== undefined && !(await deps.teamAllows(teamOf(row.channel)));
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
    await deps.repo.postpone(
      row.id,
      now + POSTPONE_MS,
      overShare
        ? "postponed: the workspace's share of the month is spent"
        : 'postponed: the call budget cannot cover it now',
      notice,
      fence,
    );
    report.postponed++;
    log.warn(
      overShare
        ? "digest postponed: its team's share of the month is spent"
        : 'digest postponed: the call budget cannot cover it',
    );
    return;
  }
  try {
    const since = row.lastSlot ?? slot - WEEK;
    const { payload, calls, failed } = await deps.composer.compose({
      areas,
      since,
      now,
      title: digestTitle(areas),
      patient: true,
    });
    report.calls += calls;
    if (failed === areas.length) {
      // Nothing could be fetched (the service is down): the period is not spent on an empty digest; tried again.
      await deps.repo.postpone(
        row.id,
        now + RETRY_MS,
        'the property service could not be reached; trying again',
        undefined,
        fence,
      );
      log.warn('digest: no area could be fetched; the same period is tried again', { retryInMs: RETRY_MS });
      return;
    }
    const recorded = await deps.repo.recordRun(
      row.id,
      {
        slot,
        nextRunAt: next,
        at: now,
        calls,
        delivery: { channel: row.channel, kind: DIGEST_KIND, dedupeKey: digestKey(row.id, slot), payload },
      },
      fence,
    );
    if (recorded) report.queued++;
    else log.warn('the digests lease was taken over during this run: not recorded here (the other instance runs it)');
  } catch (e) {
    await deps.repo.postpone(row.id, now + RETRY_MS, 'the last try failed; trying again', undefined, fence);
    log.error('digest could not be composed; the same period is tried again', { error: e, retryInMs: RETRY_MS });
  }
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
