// A digest as the Home tab shows it (src/standing-orders/home.ts): its channel, its schedule, its state in words and
// its last post.
import { formatDistanceStrict } from 'date-fns';
import type { HomeItem } from '../ports/home.js';
import type { DigestRepo, DigestRow } from '../store/index.js';
import { describeSchedule } from '../standing-orders/schedule.js';
import { decodeAreas, decodeSchedule } from './codec.js';

export interface DigestHomeDeps {
  repo: Pick<DigestRepo, 'listByOwner'>;
  service: string;
  now: () => number;
  channelAllows?: ((channel: string) => Promise<boolean>) | undefined;
}

/** The person's digests in the team, as items. */
export async function digestHomeItems(d: DigestHomeDeps, team: string, owner: string): Promise<HomeItem[]> {
  const now = d.now();
  const items: HomeItem[] = [];
  for (const r of await d.repo.listByOwner(team, owner)) {
    const schedule = decodeSchedule(r.schedule);
    const spent = !r.paused && d.channelAllows ? !(await d.channelAllows(r.channel)) : false;
    items.push({
      kind: 'digest',
      id: r.id,
      number: r.number,
      title: decodeAreas(r.areas)
        .map((a) => a.name)
        .join(', '),
      target: r.channel,
      personal: false,
      schedule: schedule ? describeSchedule(schedule, r.timezone) : 'on a schedule this release cannot read',
      paused: r.paused,
      ...stateOf(r, spent, d.service),
      lastPost: r.lastSlot
        ? `last posted ${formatDistanceStrict(r.lastRunAt ?? r.lastSlot, now)} ago`
        : 'nothing posted yet',
    });
  }
  return items;
}

function stateOf(r: DigestRow, spent: boolean, service: string): Pick<HomeItem, 'word' | 'state'> {
  if (r.service !== service) return { word: 'paused', state: 'not posted: saved for another property service' };
  if (r.paused) return { word: 'paused', state: r.pausedReason ? `paused: ${r.pausedReason}` : 'paused' };
  if (spent) return { word: 'waiting', state: "waiting for this month's quota of lookups" };
  if (r.lastError) return { word: 'failing', state: `failing: ${r.lastError}` };
  return { word: 'active', state: 'active' };
}
