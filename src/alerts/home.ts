// An alert as the Home tab shows it (src/standing-orders/home.ts): where it posts, how often, its state in words
// (active, paused and why, waiting for the month's quota or for a channel that cannot receive, in quiet hours,
// failing) and its last post.
import { formatDistanceStrict } from 'date-fns';
import { personIn } from '../ports/channel.js';
import type { HomeItem, HomeStateWord } from '../ports/home.js';
import type { AlertRow, AlertsRepo, OutboxRepo } from '../store/index.js';
import { frequencyFrom, frequencyText, quietUntil } from './frequency.js';
import { impossibleIn } from './impossible.js';
import { shortDate } from '../standing-orders/schedule.js';

export interface AlertHomeDeps {
  repo: Pick<AlertsRepo, 'listByOwner' | 'channelSettings'>;
  outbox?: Pick<OutboxRepo, 'heldChannel' | 'latestOf'> | undefined;
  service: string;
  timezone: string;
  now: () => number;
  channelAllows?: ((channel: string) => Promise<boolean>) | undefined;
}

/** The outbox kinds of an alert's own posts (a listing, a price drop, its summary). */
const POSTS = ['new', 'price_drop', 'period'] as const;

const state = (word: HomeStateWord, text: string) => ({ word, state: text });

/** The person's alerts in the team, as items. */
export async function alertHomeItems(d: AlertHomeDeps, team: string, owner: string): Promise<HomeItem[]> {
  const rows = await d.repo.listByOwner(team, owner);
  const targets = [...new Set(rows.map((r) => r.channel))];
  const settings = new Map((await d.repo.channelSettings(targets)).map((s) => [s.channel, s]));
  const now = d.now();
  const perTarget = new Map<string, { held?: string; quota: boolean; quiet?: number; zone: string }>();
  for (const target of targets) {
    const s = settings.get(target);
    const zone = s?.timezone ?? d.timezone;
    const held = await d.outbox?.heldChannel(target);
    perTarget.set(target, {
      ...(held ? { held: held.reason } : {}),
      quota: d.channelAllows ? !(await d.channelAllows(target)) : false,
      ...(s?.quietFrom && s.quietTo ? { quiet: quietUntil({ from: s.quietFrom, to: s.quietTo }, zone, now) } : {}),
      zone,
    });
  }
  const items: HomeItem[] = [];
  for (const r of rows) {
    const t = perTarget.get(r.channel)!;
    const frequency = frequencyFrom(r.schedule);
    items.push({
      kind: 'alert',
      id: r.id,
      number: r.number,
      title: r.summary,
      target: r.channel,
      personal: personIn(r.channel) !== undefined,
      schedule: frequencyText(frequency),
      paused: r.paused,
      ...stateOf(r, t, d.service),
      lastPost: await lastPost(d, r, now),
    });
    if (t.quiet !== undefined && !r.paused && frequency.every === 'run')
      Object.assign(
        items.at(-1)!,
        state('quiet', `in quiet hours until ${shortDate(t.quiet, t.zone, true).slice(-5)}`),
      );
  }
  return items;
}

function stateOf(
  r: AlertRow,
  t: { held?: string; quota: boolean },
  service: string,
): { word: HomeStateWord; state: string } {
  if (r.service !== service) return state('paused', 'not checked: saved for another property service');
  if (r.paused) {
    const impossible = impossibleIn(r);
    if (impossible) return state('paused', `paused: it asks for ${impossible}, which no listing has`);
    return state('paused', r.pausedReason ? `paused: ${r.pausedReason}` : 'paused');
  }
  if (t.held) return state('waiting', `waiting: I cannot post there (${t.held}); nothing is lost`);
  if (t.quota) return state('waiting', "waiting for this month's quota of lookups; nothing is lost");
  if (r.lastError) return state('failing', `failing: ${r.lastError}`);
  return state('active', 'active');
}

async function lastPost(d: AlertHomeDeps, r: AlertRow, now: number): Promise<string> {
  let at: number | undefined;
  for (const kind of POSTS) {
    const entry = await d.outbox?.latestOf(r.channel, kind, r.id);
    const when = entry?.deliveredAt ?? undefined;
    if (when !== undefined && (at === undefined || when > at)) at = when;
  }
  if (at !== undefined) return `last posted ${formatDistanceStrict(at, now)} ago`;
  return r.lastRunAt
    ? `nothing posted yet; checked ${formatDistanceStrict(r.lastRunAt, now)} ago`
    : 'nothing posted yet';
}
