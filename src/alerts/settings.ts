// An alert's settings in chat (issue 40), apart from saving and managing alerts (./commands.ts): how often one posts
// (`/alerts edit 3 daily at 9:00`, `edit me 2 instant`), a channel's quiet hours and time zone, and the rest of a
// summary (`/alerts more 3`).
import type { Logger } from '../log.js';
import { personalTarget, personIn, teamOf } from '../ports/channel.js';
import type { ExistingAlert } from '../ports/order-command.js';
import { decodeSavedQuery } from './saved-query.js';
import { ephemeral, refusal, type OrderContext } from '../standing-orders/commands.js';
import { DAYS, shortDate } from '../standing-orders/schedule.js';
import type { AlertRow, AlertsRepo, OutboxRepo } from '../store/index.js';
import type { Reply } from '../views/model.js';
import { capital, knownZone, moreReply } from './command-words.js';
import {
  frequencyFrom,
  frequencyText,
  isSummary,
  nextDue,
  parseFrequency,
  parseQuiet,
  type Frequency,
} from './frequency.js';

export interface AlertSettingsOptions {
  repo: AlertsRepo;
  outbox?: Pick<OutboxRepo, 'latestOf'> | undefined;
  logger: Logger;
  /** The time zone of channels that set none (MANZIL_TIMEZONE). */
  timezone?: string | undefined;
  now?: (() => number) | undefined;
  /** Told when quiet hours were turned off: what they held is due now. */
  onReleased?: (() => void) | undefined;
}

export class AlertSettings {
  constructor(private readonly o: AlertSettingsOptions) {}

  private get now(): number {
    return (this.o.now ?? Date.now)();
  }

  private get zoneFallback(): string {
    return this.o.timezone ?? 'UTC';
  }

  async zoneOf(channel: string): Promise<string> {
    const [setting] = await this.o.repo.channelSettings([channel]);
    return setting?.timezone ?? this.zoneFallback;
  }

  /** "at 09:00 (Asia/Dubai), the first on Thu 3 Dec". */
  async whenText(channel: string, f: Exclude<Frequency, { every: 'run' }>): Promise<string> {
    const zone = await this.zoneOf(channel);
    const first = nextDue(f, zone, this.now);
    return `${f.every === 'week' ? `on ${capital(DAYS[f.day]!)}s ` : ''}at ${f.time} (${zone}), the first on ${shortDate(first, zone)}`;
  }

  /** Who may change an alert: whoever saved it, or an admin. */
  private async mayChange(ctx: OrderContext, row: AlertRow): Promise<boolean> {
    return row.owner === ctx.user || (await ctx.isAdmin?.().catch(() => false)) === true;
  }

  /**
   * The alert numbered `number` here (or the person's own), as an edit form is filled from it; or, when this person
   * may not change it, why not. By `id` (the Home tab's buttons): any alert of the asker's team, in whichever channel.
   */
  async existing(
    ctx: OrderContext,
    ref: { number: number; to?: 'me' } | { id: number },
  ): Promise<{ order: ExistingAlert; channel: string } | Reply> {
    let channel = ctx.channel;
    let number: number;
    let to = 'to' in ref ? ref.to : undefined;
    if ('id' in ref) {
      const found = await this.o.repo.byId(ref.id);
      if (!found || teamOf(found.channel) !== teamOf(ctx.channel))
        return ephemeral('That alert is gone. See `/alerts list`.');
      channel = found.channel;
      number = found.number;
      to = personIn(found.channel) !== undefined ? 'me' : undefined;
    } else number = ref.number;
    const row = await this.changeable({ ...ctx, channel }, number, to);
    if (!('id' in row)) return row;
    const saved = decodeSavedQuery(row.query);
    if (!saved)
      return ephemeral(`Alert #${number} was saved by an older version of Manzil I can't read: save it again instead.`);
    const order: ExistingAlert = {
      kind: 'alert',
      number,
      ...(to === 'me' ? { to } : {}),
      query: saved.query,
      area: saved.location,
      every: frequencyText(frequencyFrom(row.schedule)),
    };
    return { order, channel };
  }

  /** The alert numbered `number` here (or the asker's own), when they may change it; else why not. */
  async changeable(ctx: OrderContext, number: number, to?: 'me'): Promise<AlertRow | Reply> {
    // `me 2`: found in the asker's own target (their DMs), which only they reach.
    const mine = to === 'me';
    const row = await this.o.repo.byNumber(mine ? personalTarget(ctx.channel, ctx.user) : ctx.channel, number);
    if (!row)
      return refusal(
        mine
          ? `You have no alert #${number} of your own. See \`/alerts list\`.`
          : `There is no alert #${number} in this channel. See \`/alerts list\`.`,
      );
    if (!mine && !(await this.mayChange(ctx, row)))
      return refusal(`Only the person who saved alert #${number}, or a workspace or server admin, can edit it.`);
    return row;
  }

  /** `/alerts edit 3 daily at 9:00`, `/alerts edit 3 instant`: how often it posts; `mine`: the asker's own alert. */
  async edit(ctx: OrderContext, number: number, words: string, mine = false): Promise<Reply> {
    const row = await this.changeable(ctx, number, mine ? 'me' : undefined);
    if (!('id' in row)) return row;
    const parsed = parseFrequency(words);
    if (!parsed.ok) return refusal(parsed.error);
    const f = parsed.frequency;
    // Its summaries are due at its target's local time (a DM target's is MANZIL_TIMEZONE's).
    const zone = await this.zoneOf(row.channel);
    // From instant to a summary: what is found from now on is counted in the first summary (its seen rows stay).
    await this.o.repo.setSchedule(row.id, JSON.stringify(f), nextDue(f, zone, this.now));
    this.o.logger.info('alert frequency changed', { search: row.id, channel: row.channel, every: f.every });
    const name = `${mine ? 'Your alert' : 'Alert'} #${number} (${row.summary})`;
    return ephemeral(
      isSummary(f)
        ? `${name} now posts one ${f.every === 'day' ? 'daily' : 'weekly'} summary ${await this.whenText(row.channel, f)}, when there is something new.`
        : `${name} now posts each new listing as it is found.`,
    );
  }

  /** `/alerts quiet 22:00-07:00`, `/alerts quiet off`, `/alerts quiet` (what they are). */
  async quiet(ctx: OrderContext, hours: string): Promise<Reply> {
    const zone = await this.zoneOf(ctx.channel);
    if (hours === '') {
      const [s] = await this.o.repo.channelSettings([ctx.channel]);
      return ephemeral(
        s?.quietFrom && s.quietTo
          ? `Quiet hours here: ${s.quietFrom}-${s.quietTo} (${zone}). \`/alerts quiet off\` turns them off.`
          : `No quiet hours here. \`/alerts quiet 22:00-07:00\` holds instant posts from 22:00 to 07:00 (${zone}).`,
      );
    }
    if (/^(off|none|no|stop)$/i.test(hours)) {
      await this.o.repo.setQuiet(ctx.channel, null, this.now);
      this.o.onReleased?.();
      return ephemeral('Quiet hours are off: instant alerts post as they are found, and anything held is posted now.');
    }
    const q = parseQuiet(hours);
    if (!q.ok) return ephemeral(q.error);
    await this.o.repo.setQuiet(ctx.channel, { from: q.from, to: q.to }, this.now);
    this.o.logger.info('quiet hours set', { channel: ctx.channel, user: ctx.user });
    return ephemeral(
      `Quiet hours here: ${q.from}-${q.to} (${zone}). Instant alerts found then wait, and are posted when they end, several as one summary. Daily and weekly summaries still post at their time.`,
    );
  }

  /** `/alerts timezone Asia/Dubai`: the channel's time zone (`default`: MANZIL_TIMEZONE again). */
  async timezone(ctx: OrderContext, zone: string): Promise<Reply> {
    if (zone === '') return ephemeral(`This channel's time zone is ${await this.zoneOf(ctx.channel)}.`);
    const reset = /^(default|off|reset)$/i.test(zone);
    const name = reset ? null : knownZone(zone);
    if (!reset && !name)
      return ephemeral(
        `"${zone}" is not a time zone I know: use a name such as \`Asia/Dubai\`, \`Europe/London\` or \`UTC\`.`,
      );
    await this.o.repo.setTimezone(ctx.channel, name ?? null, this.now);
    // Summaries are due at their local time: moved to the new zone's.
    const now = this.now;
    const current = name ?? this.zoneFallback;
    for (const row of await this.o.repo.listByChannel(ctx.channel)) {
      const f = frequencyFrom(row.schedule);
      if (isSummary(f)) await this.o.repo.setSchedule(row.id, row.schedule, nextDue(f, current, now));
    }
    return ephemeral(`This channel's time zone is now ${current}: summaries and quiet hours here follow it.`);
  }

  /** `/alerts more 3`, `/alerts more quiet`: the rest of the last summary, a page at a time. */
  more(ctx: OrderContext, which: number | 'quiet', page: number): Promise<Reply> {
    return moreReply(this.o, ctx.channel, which, page);
  }
}
