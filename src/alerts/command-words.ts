// Small words of `/alerts` replies, kept apart from the commands (./commands.ts): the check's schedule in words, what
// matches today, a time zone's name, a search's parameters without their page, the rest of a summary.
import type { AlertsRepo, OutboxRepo } from '../store/index.js';
import { ephemeral } from '../standing-orders/commands.js';
import type { Reply } from '../views/model.js';
import { decodePayload } from './messages.js';
import { morePage } from './summary.js';

export const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The zone's name as the runtime spells it, or undefined when it knows none by that name. */
export function knownZone(name: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

export function withoutPage(params: Record<string, string>): Record<string, string> {
  const { page: _page, ...rest } = params;
  return rest;
}

/** "every 15 minutes" for the common cron forms; the expression itself otherwise. */
export function describeSchedule(cron: string, timezone: string): string {
  const fields = cron.trim().split(/\s+/);
  const [sec, min, ...rest] = fields.length === 6 ? fields : ['0', ...fields];
  const everyMinute = rest.every((f) => f === '*');
  if (everyMinute && sec === '0' && /^\*\/(\d+)$/.test(min!)) return `every ${min!.slice(2)} minutes`;
  if (everyMinute && sec === '0' && min === '*') return 'every minute';
  if (everyMinute && min === '*' && /^\*\/(\d+)$/.test(sec!)) return `every ${sec!.slice(2)} seconds`;
  return `on the schedule \`${cron}\` (${timezone})`;
}

/**
 * "4 listings match today": counted as the search's cards count them (the same flat from several agents is one), and
 * named, so the number beside the cards reads as what it counts.
 */
export function matchingToday(flats: number, complete: boolean): string {
  if (flats === 0) return 'none match today';
  return `${flats}${complete ? '' : ' or more'} ${flats === 1 && complete ? 'listing matches' : 'listings match'} today`;
}

/** `/alerts more 3`, `/alerts more quiet`: the rest of the last summary, a page at a time. */
export async function moreReply(
  o: { repo: Pick<AlertsRepo, 'byNumber'>; outbox?: Pick<OutboxRepo, 'latestOf'> | undefined },
  channel: string,
  which: number | 'quiet',
  page: number,
): Promise<Reply> {
  let entry;
  if (which === 'quiet') entry = await o.outbox?.latestOf(channel, 'quiet');
  else {
    const row = await o.repo.byNumber(channel, which);
    if (!row) return ephemeral(`There is no alert #${which} in this channel. See \`/alerts list\`.`);
    entry = await o.outbox?.latestOf(channel, 'period', row.id);
  }
  const p = entry && decodePayload(entry.payload);
  if (!p || (p.kind !== 'period' && p.kind !== 'quiet'))
    return ephemeral(
      which === 'quiet'
        ? 'There is no quiet-hours summary here yet (or it is older than the outbox keeps).'
        : `Alert #${which} has posted no summary yet (or it is older than the outbox keeps).`,
    );
  const { lines, left, total } = morePage(p, page);
  if (total === 0) return ephemeral('That summary showed everything it counted: there is nothing more.');
  if (lines.length === 0) return ephemeral(`That summary has ${total} more, on fewer pages than ${page}.`);
  const next = left > 0 ? `\n…${left} more: \`/alerts more ${which} page ${page + 1}\`` : '';
  const text = `The rest of the last summary (${total} more), page ${page}:\n${lines.join('\n')}${next}`;
  return ephemeral(text);
}
