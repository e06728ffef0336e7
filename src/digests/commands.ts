// Digests in chat, platform-neutral: `/digest add|list|remove|pause|resume|now|help`. Every answer is a Reply;
// mistakes and refusals go only to the person who typed. A digest itself is posted by the job, through the outbox.
import { formatDistanceStrict } from 'date-fns';
import type { LocationResolver } from '../locations/index.js';
import type { Logger } from '../log.js';
import type { DigestRepo, DigestRow } from '../store/index.js';
import { teamOf } from '../ports/channel.js';
import type { Reply } from '../views/model.js';
import {
  ephemeral,
  limitReached,
  refusal,
  StandingOrderCommands,
  type OrderContext,
} from '../standing-orders/commands.js';
import { decodeAreas, decodeSchedule, type FollowedArea } from './codec.js';
import type { DigestCommand, DigestWhen, ExistingDigest } from '../ports/order-command.js';
import { DIGEST_HELP, DIGEST_LANGUAGE } from './language.js';
import type { OrderChanges } from '../standing-orders/changes.js';
import type { HomeSource } from '../standing-orders/home.js';
import { digestHomeItems } from './home.js';
import { DAYS, describeSchedule, nextSlot, scheduleOf, shortDate } from '../standing-orders/schedule.js';

/** Who typed, where, and whether they administer it. */
export type DigestContext = OrderContext;

export interface DigestCommandsOptions {
  repo: DigestRepo;
  locations: Pick<LocationResolver, 'resolve'>;
  service: string;
  logger: Logger;
  timezone: string;
  limits: { perChannel: number; areasPerDigest: number };
  /** Upstream calls one area costs per run, about (shown in `/digest list`). */
  callsPerArea: number;
  /** `/digest now`: composes and queues a digest for this channel at once (the job does it; see DigestJob.now). */
  postNow(channel: string, areas: FollowedArea[], user: string): Promise<{ queued: boolean; reason?: string }>;
  now?: () => number;
  /** Whether the team of a channel may still spend calls this month (shown on the Home tab); always when unset. */
  channelAllows?: (channel: string) => Promise<boolean>;
  /** Told after a change to someone's digests (the Home tab draws itself again). */
  changes?: OrderChanges;
}

export { DIGEST_HELP };

export class DigestCommands {
  private readonly commands: StandingOrderCommands<DigestRow, DigestCommand>;

  constructor(private readonly o: DigestCommandsOptions) {
    this.commands = new StandingOrderCommands<DigestRow, DigestCommand>({
      language: DIGEST_LANGUAGE,
      madeVerb: 'added',
      logKey: 'digest',
      repo: o.repo,
      logger: o.logger,
      add: (ctx, c) => this.add(ctx, c.areas, c.when),
      describe: (row, ctx) => this.describe(row, ctx.user),
      listFooter:
        'Manage: `/digest pause <n>`, `/digest resume <n>`, `/digest remove <n>`; `/digest now <place>` posts one now',
      paused: (row) => `Paused digest #${row.number}. \`/digest resume ${row.number}\` starts it again.`,
      resume: (row) => this.resume(row),
      title: (row) =>
        decodeAreas(row.areas)
          .map((p) => p.name)
          .join(', '),
      extra: {
        now: (ctx, c) => this.postNow(ctx, 'areas' in c ? c.areas : []),
        edit: (ctx, c) => (c.sub === 'edit' ? this.edit(ctx, c.number, c.areas, c.when) : this.add(ctx, [], {})),
      },
      changes: o.changes,
    });
  }

  private get now(): number {
    return (this.o.now ?? Date.now)();
  }

  /** The text after `digest`, typed: a subcommand and its argument. */
  handle(ctx: DigestContext, text: string): Promise<Reply> {
    return this.commands.handle(ctx, text);
  }

  /** A digest command built without text (Discord's options): answered as typed, a saved one saying how it is typed. */
  run(ctx: DigestContext, command: DigestCommand): Promise<Reply> {
    return this.commands.runBuilt(ctx, command);
  }

  /** What the Home tab shows of a person's digests, and how it changes one. */
  home(): HomeSource {
    const { o } = this;
    return {
      kind: 'digest',
      items: (team, owner) => digestHomeItems({ ...o, now: () => this.now }, team, owner),
      locate: (id) => o.repo.byId(id),
      run: (ctx, command) =>
        command.kind === 'digest' ? this.run(ctx, command) : Promise.resolve(ephemeral(DIGEST_HELP)),
    };
  }

  /** Places named (`dubai marina`, `business bay`), each resolved; or the friendly reason why not. */
  private async resolveAreas(names: readonly string[]): Promise<{ areas: FollowedArea[] } | { error: string }> {
    const words = names.map((w) => w.trim()).filter(Boolean);
    if (words.length === 0) return { error: 'Which places? For example `/digest add dubai marina, business bay`.' };
    if (words.length > this.o.limits.areasPerDigest) {
      return {
        error: `A digest follows at most ${this.o.limits.areasPerDigest} places; split them over two digests.`,
      };
    }
    const areas: FollowedArea[] = [];
    for (const word of words) {
      const r = await this.o.locations.resolve(word);
      if (r.kind === 'ambiguous') {
        return {
          error: `"${word}" matches several places: ${r.choices
            .slice(0, 5)
            .map((c) => c.name)
            .join(', ')}. Say which, in quotes: for example \`/digest add "${r.choices[0]!.name}"\`.`,
        };
      }
      if (r.kind === 'none') {
        const close = r.suggestions
          .slice(0, 3)
          .map((c) => c.name)
          .join(', ');
        return {
          error: `I couldn't find a place called "${word}".${close ? ` Did you mean ${close}?` : ''} Nothing was saved.`,
        };
      }
      if (!areas.some((p) => p.id === r.location.id)) areas.push({ id: r.location.id, name: r.location.name });
    }
    return { areas };
  }

  /**
   * The digest numbered `number` here as an edit form is filled from it, or why this person cannot change it. By `id`
   * (the Home tab's buttons): any digest of the asker's team, in whichever channel.
   */
  async existing(
    ctx: DigestContext,
    ref: { number: number } | { id: number },
  ): Promise<{ order: ExistingDigest; channel: string } | Reply> {
    const byId = 'id' in ref ? await this.o.repo.byId(ref.id) : undefined;
    if ('id' in ref && (!byId || teamOf(byId.channel) !== teamOf(ctx.channel)))
      return refusal('That digest is gone. See `/digest list`.');
    const channel = byId?.channel ?? ctx.channel;
    const number = byId?.number ?? ('number' in ref ? ref.number : 0);
    const row = byId ?? (await this.o.repo.byNumber(channel, number));
    if (!row) return refusal(`There is no digest #${number} in this channel. See \`/digest list\`.`);
    if (row.owner !== ctx.user && (await ctx.isAdmin?.().catch(() => false)) !== true)
      return refusal(`Only the person who added digest #${number}, or a workspace or server admin, can edit it.`);
    const s = decodeSchedule(row.schedule);
    const time = s ? { time: s.time } : {};
    const day = s?.every === 'week' ? { day: DAYS[s.day]! } : {};
    const every = s?.every === 'day' || s?.every === 'month' ? s.every : 'week';
    const when: DigestWhen = { every, ...day, ...time };
    return { order: { kind: 'digest', number, areas: decodeAreas(row.areas).map((a) => a.name), when }, channel };
  }

  /** `/digest edit 2 …`, an edit form: the new digest added, then the old one removed; the new one keeps its number. */
  private async edit(ctx: DigestContext, number: number, names: readonly string[], when: DigestWhen): Promise<Reply> {
    const old = await this.existing(ctx, { number });
    if (!('order' in old)) return old;
    const row = await this.o.repo.byNumber(ctx.channel, number);
    return row
      ? this.add(ctx, names, when, { id: row.id, number })
      : ephemeral(`There is no digest #${number} in this channel.`);
  }

  private async add(
    ctx: DigestContext,
    names: readonly string[],
    when: DigestWhen,
    replacing?: { id: number; number: number },
  ): Promise<Reply> {
    const parsed = scheduleOf(when);
    if (!parsed.ok) return refusal(`${parsed.error} Nothing was saved.`);
    const resolved = await this.resolveAreas(names);
    if ('error' in resolved) return refusal(resolved.error);
    const { timezone } = this.o;
    const nextRunAt = nextSlot(parsed.schedule, timezone, this.now);
    const created = await this.o.repo.create(
      {
        service: this.o.service,
        channel: ctx.channel,
        owner: ctx.user,
        areas: JSON.stringify(resolved.areas),
        schedule: JSON.stringify(parsed.schedule),
        timezone,
        nextRunAt,
      },
      { perChannel: this.o.limits.perChannel },
    );
    if (!created.ok) return limitReached({ noun: 'digest', command: '/digest' }, 'channel', this.o.limits.perChannel);
    const row = created.row;
    let number = row.number;
    if (replacing !== undefined) {
      await this.o.repo.remove(replacing.id);
      if (await this.o.repo.renumber(row.id, replacing.number)) number = replacing.number;
    }
    this.commands.changed(ctx.channel, [ctx.user]);
    this.o.logger.info(replacing === undefined ? 'digest saved' : 'digest replaced', {
      digest: row.id,
      channel: ctx.channel,
      user: ctx.user,
      areas: resolved.areas.length,
    });
    const saved = resolved.areas.map((p) => p.name).join(', ');
    const was =
      replacing === undefined
        ? `Saved digest #${number}`
        : number === replacing.number
          ? `Digest #${number} changed`
          : `Digest #${replacing.number} changed: it is now digest #${number}`;
    const text2 = `${was}: ${saved}, ${describeSchedule(parsed.schedule, timezone)}; the first on ${shortDate(nextRunAt, timezone)}.`;
    return { text: text2, blocks: [{ kind: 'text', text: text2 }] };
  }

  private describe(r: DigestRow, user: string): string {
    const areas = decodeAreas(r.areas);
    const schedule = decodeSchedule(r.schedule);
    const when = schedule ? describeSchedule(schedule, r.timezone) : 'on a schedule this release cannot read';
    const next = r.paused ? 'paused' : `next ${shortDate(r.nextRunAt, r.timezone, true)}`;
    const last = r.lastSlot
      ? `last posted ${formatDistanceStrict(r.lastRunAt ?? r.lastSlot, this.now)} ago`
      : 'not posted yet';
    const cost = `about ${r.lastCalls ?? areas.length * this.o.callsPerArea} calls a run`;
    const error = r.lastError ? ` · ⚠️ ${r.lastError}` : '';
    return `#${r.number} · ${areas.map((p) => p.name).join(', ')} · ${when} · ${next} · ${last} · ${cost}${error} · added by ${r.owner === user ? 'you' : r.owner}`;
  }

  /** Resumed from now on: the slots missed while paused are not posted late. */
  private async resume(row: DigestRow): Promise<Reply> {
    const schedule = decodeSchedule(row.schedule);
    const next = schedule ? nextSlot(schedule, row.timezone, this.now) : this.now;
    await this.o.repo.setPaused(row.id, false, next);
    return ephemeral(`Resumed digest #${row.number}; the next on ${shortDate(next, row.timezone, true)}.`);
  }

  private async postNow(ctx: DigestContext, names: readonly string[]): Promise<Reply> {
    const resolved = await this.resolveAreas(names);
    if ('error' in resolved)
      return ephemeral(resolved.error.replace(' Nothing was saved.', '').replace('/digest add', '/digest now'));
    const r = await this.o.postNow(ctx.channel, resolved.areas, ctx.user);
    if (!r.queued) return ephemeral(`I can't post that digest now: ${r.reason ?? 'something went wrong'}.`);
    return ephemeral(
      `Composing the digest of ${resolved.areas.map((p) => p.name).join(', ')}; it will appear here in a moment, for everyone.`,
    );
  }
}
