/* eslint-disable max-lines -- issue 40 added edit, quiet and timezone here; to be split into a module of their own */
// Alerts in chat, platform-neutral: `/alerts add|list|pause|resume|remove|test` and "Save as alert".
// Every answer is a Reply; mistakes and refusals go only to the person who typed.
import { formatDistanceStrict } from 'date-fns';
import type { LocationResolver } from '../locations/index.js';
import type { Logger } from '../log.js';
import {
  alertRefusal,
  deliveryNote,
  parseCommand,
  summarize,
  takeDeliveryWords,
  wordsKey,
  type Query,
} from '../query/index.js';
import { runLeased } from '../jobs/index.js';
import type { AlertsRepo, LeaseRepo, OutboxRepo, AlertRow } from '../store/index.js';
import type { Block, Reply } from '../views/model.js';
import { ephemeral, limitReached, StandingOrderCommands, type OrderContext } from '../standing-orders/commands.js';
import { foldSameFlats } from '../views/same-flat.js';
import type { AlertCommand, AlertSpec, ExistingAlert } from '../ports/order-command.js';
import { personalTarget, personIn, teamOf } from '../ports/channel.js';
import { ALERTS_HELP, ALERT_LANGUAGE } from './language.js';
import { listingsByWords, postedQueryOf } from './channel.js';
import { compare } from './compare.js';
import { renderDelivery, decodePayload } from './messages.js';
import type { AlertsApi } from './contracts.js';
import { fetchListings } from './fetch.js';
import { impossibleIn } from './impossible.js';
import { deliveriesFor } from './plan.js';
import {
  frequencyFrom,
  frequencyText,
  INSTANT,
  isSummary,
  nextDue,
  parseFrequency,
  parseQuiet,
  readFrequency,
  type Frequency,
} from './frequency.js';
import { capital, describeSchedule, knownZone, matchingToday, moreReply, withoutPage } from './command-words.js';
import { DAYS, shortDate } from '../standing-orders/schedule.js';
import { POLL_JOB } from './poller.js';
import {
  canonicalParams,
  decodeSavedQuery,
  encodeSavedQuery,
  notAlertable,
  paramsKey,
  type SavedQuery,
} from './saved-query.js';

/** Who typed, where, and whether they administer it. */
export type AlertContext = OrderContext;

export interface AlertCommandsOptions {
  repo: AlertsRepo;
  /** The poller's lease: a new alert's first look is recorded under it, never between a run's fetch and its commit. */
  leases: LeaseRepo;
  /** This instance's name on that lease. */
  holder: string;
  /** Held channels (they cannot receive): shown in the list, and released by `/alerts resume`. */
  outbox?: Pick<OutboxRepo, 'heldChannel' | 'releaseChannel' | 'latestOf'>;
  api: AlertsApi;
  locations: Pick<LocationResolver, 'resolve'>;
  service: string;
  logger: Logger;
  limits: { perChannel: number; perOwner: number };
  maxPages: number;
  deadlineMs: number;
  priceDropPct: number;
  /** How often alerts are checked, in words ("every 15 minutes"). */
  schedule: string;
  /** The time zone of channels that set none (MANZIL_TIMEZONE). */
  timezone?: string;
  now?: () => number;
  /** Told when a new alert's first look could not be taken now (a poller run held the lease): a run should follow. */
  needsFirstLook?: () => void;
  /** Told when a held channel was released by hand: its queue is due again. */
  onReleased?: () => void;
  /** Whether the team of a channel may still spend calls this month (its alerts wait when not); always when unset. */
  channelAllows?: (channel: string) => Promise<boolean>;
}

export { ALERTS_HELP, describeSchedule };

export class AlertCommands {
  private readonly commands: StandingOrderCommands<AlertRow, AlertCommand>;

  constructor(private readonly o: AlertCommandsOptions) {
    this.commands = new StandingOrderCommands<AlertRow, AlertCommand>({
      language: ALERT_LANGUAGE,
      madeVerb: 'saved',
      logKey: 'search',
      repo: o.repo,
      logger: o.logger,
      add: (ctx, c) => ('search' in c ? this.add(ctx, c.search, c.to) : this.saveSpec(ctx, c, c.to)),
      describe: (row, ctx) => this.describe(row, ctx),
      listNotes: (ctx, rows) => this.listNotes(ctx, rows),
      listFooter: 'Manage: `/alerts pause <n>`, `/alerts resume <n>`, `/alerts remove <n>`, `/alerts test <n>`',
      paused: (row) => `Paused alert #${row.number} (${row.summary}). \`/alerts resume ${ref(row)}\` starts it again.`,
      resume: (row) => this.resume(row),
      title: (row) => row.summary,
      resumeAll: (ctx) => this.releaseHeld(ctx),
      inspect: { test: (row) => this.test(row) },
      extra: {
        edit: (ctx, c) =>
          c.sub !== 'edit'
            ? this.help()
            : 'alert' in c
              ? this.replace(ctx, c.number, c.alert, c.to)
              : this.edit(ctx, c.number, c.every, c.to),
        quiet: (ctx, c) => (c.sub === 'quiet' ? this.quiet(ctx, c.hours) : this.help()),
        timezone: (ctx, c) => (c.sub === 'timezone' ? this.timezone(ctx, c.zone) : this.help()),
        more: (ctx, c) => (c.sub === 'more' ? this.more(ctx, c.which, c.page) : this.help()),
      },
    });
  }

  private get now(): number {
    return (this.o.now ?? Date.now)();
  }

  /** The text after `alerts`, typed: a subcommand and its argument. */
  handle(ctx: AlertContext, text: string): Promise<Reply> {
    return this.commands.handle(ctx, text);
  }

  /** An alert command built without text (Discord's options): answered as typed, a saved one saying how it is typed. */
  run(ctx: AlertContext, command: AlertCommand): Promise<Reply> {
    return this.commands.runBuilt(ctx, command);
  }

  /**
   * The alert numbered `number` here (or the person's own), as an edit form is filled from it; or, when this person
   * may not change it, why not. By `id` (the Home tab's buttons): any alert of the asker's team, in whichever channel.
   */
  async existing(
    ctx: AlertContext,
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

  /** `/alerts add <search>`: the same language as the search commands. */
  private async add(ctx: AlertContext, text: string, to?: 'me'): Promise<Reply> {
    if (text.trim() === '')
      return ephemeral('What should I watch? For example `/alerts add rent marina 2br under 120k`.');
    // "daily at 9:00", "send me a weekly summary on sunday at 8": how often it posts, said at the end.
    const said = readFrequency(text);
    if (!said.ok) return ephemeral(said.error);
    if (said.frequency) {
      const frequency = said.frequency;
      const rest = said.rest;
      if (rest === '')
        return ephemeral('What should I watch? For example `/alerts add rent marina 2br daily at 9:00`.');
      const parsedRest = parseCommand(rest);
      if (!parsedRest.ok) return ephemeral(alertRefusal(rest) ?? parsedRest.error);
      return this.save(ctx, parsedRest.query, undefined, text, to, frequency);
    }
    // "daily", "every morning": how often, not a rent period. Taken out before the search is read, and said so.
    const delivery = takeDeliveryWords(text);
    const note = delivery.words.length > 0 ? deliveryNote(delivery.words, this.o.schedule) : undefined;
    if (delivery.text.trim() === '')
      return ephemeral(`${note} What should I watch? For example \`/alerts add rent marina 2br under 120k\`.`);
    const parsed = parseCommand(delivery.text);
    if (!parsed.ok) {
      // Without a listing verb the parser's reason would offer every verb; an alert can be only some of them.
      const error = alertRefusal(delivery.text) ?? parsed.error;
      return ephemeral(note ? `${note}\n${error}` : error);
    }
    const reply = await this.save(ctx, parsed.query, undefined, text, to);
    if (!note) return reply;
    return { ...reply, text: `${reply.text}\n${note}`, blocks: [...reply.blocks, { kind: 'context', text: note }] };
  }

  /**
   * Saves a search as an alert: from `/alerts add`, or from the "Save as alert" button under a search reply. `to: 'me'`
   * (`/alerts add me …`, "Save for me"): to the person's direct messages, of the team they asked in (charged to it).
   */
  async save(
    ctx: AlertContext,
    query: Query,
    location: { id: number; name: string } | undefined,
    typed?: string,
    to?: 'me',
    frequency: Frequency = INSTANT,
    replacing?: AlertRow,
  ): Promise<Reply> {
    const target = to === 'me' ? personalTarget(ctx.channel, ctx.user) : ctx.channel;
    const where = to === 'me' ? 'of yours' : 'in this channel';
    const why = notAlertable(query, location);
    if (why) return ephemeral(`I can't save that as an alert. ${why}`);
    let area = location;
    if (!area) {
      const r = await this.o.locations.resolve(query.location!);
      if (r.kind === 'ambiguous') {
        return ephemeral(
          `"${query.location}" matches several places: ${r.choices
            .slice(0, 5)
            .map((c) => c.name)
            .join(
              ', ',
            )}. Say which, in quotes: for example \`/alerts add ${query.operation.includes('rent') ? 'rent' : 'buy'} "${r.choices[0]!.name}"\`.`,
        );
      }
      if (r.kind === 'none') {
        const close = r.suggestions
          .slice(0, 3)
          .map((c) => c.name)
          .join(', ');
        return ephemeral(
          `I couldn't find a place called "${query.location}".${close ? ` Did you mean ${close}?` : ''}`,
        );
      }
      area = { id: r.location.id, name: r.location.name };
    }
    const saved: SavedQuery = { query: { ...query, params: withoutPage(query.params) }, location: area };
    const summary = summarize(saved.query, area.name);
    const created = await this.o.repo.create(
      {
        service: this.o.service,
        channel: target,
        owner: ctx.user,
        text: (typed ?? summary).slice(0, 500),
        query: encodeSavedQuery(saved),
        operation: query.operation,
        paramsKey: paramsKey(saved),
        summary,
        words: wordsKey(saved.query.words),
        ...(isSummary(frequency) ? { schedule: JSON.stringify(frequency) } : {}),
      },
      this.o.limits,
    );
    // An edit that kept the search changes only how often it posts.
    if (!created.ok && created.reason === 'duplicate' && created.existing.id === replacing?.id)
      return this.edit(ctx, replacing.number, frequencyText(frequency), to);
    if (!created.ok && created.reason === 'duplicate') {
      const n = created.existing.number;
      return ephemeral(
        created.existing.paused
          ? `That search is already alert #${n} ${where}, paused. \`/alerts resume ${ref(created.existing)}\` starts it again.`
          : `That search is already alert #${n} ${where}: nothing new was saved. See \`/alerts list\`.`,
      );
    }
    if (!created.ok)
      return limitReached(
        { noun: 'alert', command: '/alerts' },
        created.reason,
        created.reason === 'channel' ? this.o.limits.perChannel : this.o.limits.perOwner,
      );
    const row = created.row;
    // An edit is the new search saved, then the old one removed: a new number, and a first look of its own, so what the
    // new search finds today is not posted as new (what the channel was posted stays, so nothing comes twice).
    if (replacing) await this.o.repo.remove(replacing.id);
    const was = replacing ? `Alert #${replacing.number} changed: it is now ` : 'Saved as ';
    this.o.logger.info(replacing ? 'alert replaced' : 'alert saved', {
      ...(replacing ? { replaced: replacing.id } : {}),
      search: row.id,
      channel: ctx.channel,
      user: ctx.user,
      operation: query.operation,
      ...(to === 'me' ? { personal: true } : {}),
    });
    // The first look records what exists now and posts nothing, so the channel is not flooded.
    // It is taken under the poller's lease: a run in progress could otherwise fetch before this look and commit after
    // it. When a run holds the lease, the run right after it takes the first look (onSaved asks for it).
    let matching = 'I will take my first look on the next check';
    try {
      const look = await runLeased(
        {
          leases: this.o.leases,
          name: POLL_JOB,
          holder: this.o.holder,
          logger: this.o.logger,
          ttlMs: 60_000,
          record: false,
        },
        async (fence) => {
          const fetched = await fetchListings(this.o.api, query.operation, canonicalParams(saved), this.o, () => true);
          // What this alert keeps of them (its words, as each run filters them): the rest is not its to have seen.
          const listings = listingsByWords(fetched.listings)(row.words);
          const { complete } = fetched;
          const cmp = compare([], listings, { primed: false, priceDropPct: this.o.priceDropPct });
          const recorded = await this.o.repo.commitRun(
            { searchId: row.id, at: this.now, seen: cmp.seen, deliveries: [], primed: true, clearError: false },
            fence,
          );
          return { recorded: recorded !== undefined, text: matchingToday(foldSameFlats(listings).length, complete) };
        },
      );
      if (look.ran && look.result.recorded) matching = look.result.text;
      else this.o.needsFirstLook?.();
    } catch (e) {
      this.o.logger.warn('alert saved but its first look failed; the poller will take it', {
        search: row.id,
        error: e,
      });
    }
    const how = isSummary(frequency)
      ? `I'll post one ${frequency.every === 'day' ? 'daily' : 'weekly'} summary here ${await this.whenText(ctx.channel, frequency)} when there is something new`
      : "I'll post new listings here as they appear";
    if (to === 'me') {
      // Said to the person alone: no one else in the channel learns what they watch.
      const mine = `${was}your alert #${row.number} (to me): ${summary}. I'll send new listings to your direct messages with me as they appear; ${matching}. Checked ${this.o.schedule}; only you see it in \`/alerts list\`.`;
      return ephemeral(mine);
    }
    const text = `${was}alert #${row.number}: ${summary}. ${how}; ${matching}. Checked ${this.o.schedule}; see \`/alerts list\`.`;
    return { text, blocks: [{ kind: 'text', text }] };
  }

  /** One line of `/alerts list`. */
  private describe(r: AlertRow, ctx: AlertContext): string {
    const impossible = r.paused ? impossibleIn(r) : undefined;
    const state =
      r.service !== this.o.service
        ? 'not checked: another property service'
        : impossible
          ? `paused: it asks for ${impossible}, which no listing has`
          : r.paused
            ? r.pausedReason
              ? `paused: ${r.pausedReason}; \`/alerts resume ${ref(r)}\` once I can again`
              : 'paused'
            : isSummary(frequencyFrom(r.schedule))
              ? `${frequencyText(frequencyFrom(r.schedule))}, next ${shortDate(r.nextRunAt, this.zoneFallback, true)}`
              : `instant, checked ${this.o.schedule}`;
    const last = r.lastRunAt ? `last checked ${formatDistanceStrict(r.lastRunAt, this.now)} ago` : 'not checked yet';
    const error = r.lastError
      ? ` · ⚠️ failing${r.errorSince ? ` for ${formatDistanceStrict(r.errorSince, this.now)}` : ''}: ${r.lastError}`
      : '';
    const whose = personIn(r.channel) !== undefined ? 'to me' : `saved by ${r.owner === ctx.user ? 'you' : r.owner}`;
    return `#${r.number} · ${r.summary} · ${state} · ${last}${error} · ${whose}`;
  }

  /** What `/alerts list` says above the alerts: a held channel, a spent share, alerts of another service. */
  private async listNotes(ctx: AlertContext, rows: readonly AlertRow[]): Promise<string[]> {
    const notes: string[] = [];
    const [setting] = await this.o.repo.channelSettings([ctx.channel]);
    const zone = setting?.timezone ?? this.zoneFallback;
    notes.push(
      setting?.quietFrom && setting.quietTo
        ? `🌙 Quiet hours ${setting.quietFrom}-${setting.quietTo} (${zone}): instant alerts found then are posted as one summary when they end. \`/alerts quiet off\` turns them off.`
        : `Time zone ${zone}; no quiet hours (\`/alerts quiet 22:00-07:00\` holds instant posts overnight).`,
    );
    const held = await this.o.outbox?.heldChannel(ctx.channel);
    if (held)
      notes.push(
        `⚠️ I could not post here since ${formatDistanceStrict(held.since, this.now)} ago (${held.reason}): alerts wait and nothing is lost. Add me to the channel again, then \`/alerts resume\` (or wait: I try again every 15 minutes).`,
      );
    if (this.o.channelAllows && !(await this.o.channelAllows(ctx.channel)))
      notes.push(
        "⏳ This workspace has used its share of this month's property lookups: its alerts are not checked until the month turns (UTC) or whoever runs Manzil raises it. Nothing is lost.",
      );
    const elsewhere = rows.filter((r) => r.service !== this.o.service).length;
    if (elsewhere > 0)
      notes.push(
        `⚠️ ${elsewhere} of these ${elsewhere === 1 ? 'was' : 'were'} saved for another property service than the one configured (UAE_API_BASE_URL changed) and ${elsewhere === 1 ? 'is' : 'are'} not checked; save ${elsewhere === 1 ? 'it' : 'them'} again, or set UAE_API_BASE_URL back.`,
      );
    return notes;
  }

  private get zoneFallback(): string {
    return this.o.timezone ?? 'UTC';
  }

  private help(): Promise<Reply> {
    return Promise.resolve(ephemeral(ALERTS_HELP));
  }

  private async zoneOf(channel: string): Promise<string> {
    const [setting] = await this.o.repo.channelSettings([channel]);
    return setting?.timezone ?? this.zoneFallback;
  }

  /** "at 09:00 (Asia/Dubai), the first on Thu 3 Dec". */
  private async whenText(channel: string, f: Exclude<Frequency, { every: 'run' }>): Promise<string> {
    const zone = await this.zoneOf(channel);
    const first = nextDue(f, zone, this.now);
    return `${f.every === 'week' ? `on ${capital(DAYS[f.day]!)}s ` : ''}at ${f.time} (${zone}), the first on ${shortDate(first, zone)}`;
  }

  /** Who may change an alert: whoever saved it, or an admin. */
  private async mayChange(ctx: AlertContext, row: AlertRow): Promise<boolean> {
    return row.owner === ctx.user || (await ctx.isAdmin?.().catch(() => false)) === true;
  }

  /** An alert's search parsed already (a form's), with how often in words. */
  private saveSpec(
    ctx: AlertContext,
    spec: { query: Query; area?: { id: number; name: string }; every?: string },
    to?: 'me',
    replacing?: AlertRow,
  ): Promise<Reply> {
    const every = spec.every === undefined ? undefined : parseFrequency(spec.every);
    if (every && !every.ok) return Promise.resolve(ephemeral(every.error));
    const current = replacing ? frequencyFrom(replacing.schedule) : INSTANT;
    return this.save(ctx, spec.query, spec.area, undefined, to, every?.frequency ?? current, replacing);
  }

  /** The alert numbered `number` here (or the person's own), when they may change it; else why not. */
  private async changeable(ctx: AlertContext, number: number, to?: 'me'): Promise<AlertRow | Reply> {
    const row = await this.o.repo.byNumber(to === 'me' ? personalTarget(ctx.channel, ctx.user) : ctx.channel, number);
    if (!row)
      return ephemeral(
        to === 'me'
          ? `You have no alert of your own numbered ${number}. See \`/alerts list\`.`
          : `There is no alert #${number} in this channel. See \`/alerts list\`.`,
      );
    if (to !== 'me' && !(await this.mayChange(ctx, row)))
      return ephemeral(`Only the person who saved alert #${number}, or a workspace or server admin, can edit it.`);
    return row;
  }

  /** `/alerts edit 3 rent marina 2br daily at 9:00`, an edit form: the whole search (and how often) replaced. */
  private async replace(ctx: AlertContext, number: number, spec: AlertSpec, to?: 'me'): Promise<Reply> {
    const row = await this.changeable(ctx, number, to);
    if (!('id' in row)) return row;
    if (!('search' in spec)) return this.saveSpec(ctx, spec, to, row);
    const said = readFrequency(spec.search);
    if (!said.ok) return ephemeral(said.error);
    const parsed = parseCommand(said.rest);
    if (!parsed.ok) {
      // Neither how often nor a search: both are what an edit takes.
      const often = parseFrequency(spec.search);
      return ephemeral(
        often.ok
          ? parsed.error
          : `${often.error} Or give its whole search: \`/alerts edit ${number} rent marina 2br under 150k\`.`,
      );
    }
    const frequency = said.frequency ?? frequencyFrom(row.schedule);
    return this.save(ctx, parsed.query, undefined, spec.search, to, frequency, row);
  }

  /** `/alerts edit 3 daily at 9:00`, `/alerts edit 3 instant`: how often it posts. */
  private async edit(ctx: AlertContext, number: number, words: string, to?: 'me'): Promise<Reply> {
    const row = await this.changeable(ctx, number, to);
    if (!('id' in row)) return row;
    const parsed = parseFrequency(words);
    if (!parsed.ok) return ephemeral(parsed.error);
    const f = parsed.frequency;
    const zone = await this.zoneOf(ctx.channel);
    // From instant to a summary: what is found from now on is counted in the first summary (its seen rows stay).
    await this.o.repo.setSchedule(row.id, JSON.stringify(f), nextDue(f, zone, this.now));
    this.o.logger.info('alert frequency changed', { search: row.id, channel: ctx.channel, every: f.every });
    return ephemeral(
      isSummary(f)
        ? `Alert #${number} (${row.summary}) now posts one ${f.every === 'day' ? 'daily' : 'weekly'} summary ${await this.whenText(ctx.channel, f)}, when there is something new.`
        : `Alert #${number} (${row.summary}) now posts each new listing as it is found.`,
    );
  }

  /** `/alerts quiet 22:00-07:00`, `/alerts quiet off`, `/alerts quiet` (what they are). */
  private async quiet(ctx: AlertContext, hours: string): Promise<Reply> {
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
  private async timezone(ctx: AlertContext, zone: string): Promise<Reply> {
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
  private more(ctx: AlertContext, which: number | 'quiet', page: number): Promise<Reply> {
    return moreReply(this.o, ctx.channel, which, page);
  }

  /** `/alerts resume` alone, in a channel held because it could not receive: try it again now. */
  private async releaseHeld(ctx: AlertContext): Promise<Reply | undefined> {
    if (!this.o.outbox || !(await this.o.outbox.heldChannel(ctx.channel))) return undefined;
    await this.o.outbox.releaseChannel(ctx.channel);
    this.o.onReleased?.();
    return ephemeral('I will try posting here again now. If I still cannot, `/alerts list` will say so.');
  }

  private async resume(row: AlertRow): Promise<Reply> {
    // Paused at start for asking what no listing can be: running it again would only fail on every run.
    const impossible = impossibleIn(row);
    if (impossible) {
      return ephemeral(
        `Alert #${row.number} can't run: it asks for ${impossible}, which no listing has. Save the search again with other numbers, then \`/alerts remove ${row.number}\`.`,
      );
    }
    await this.o.repo.setPaused(row.id, false);
    return ephemeral(`Resumed alert #${row.number} (${row.summary}).`);
  }

  /** Checks a saved search now and shows what would be posted, posting and recording nothing. */
  private async test(row: AlertRow): Promise<Reply> {
    const saved = decodeSavedQuery(row.query);
    if (!saved)
      return ephemeral(
        `Alert #${row.number} was saved by an older version of Manzil I can't read. Remove it and save the search again.`,
      );
    const seen = await this.o.repo.seen(row.id);
    const seenIds = new Set(seen.map((s) => s.propertyId));
    const fetched = await fetchListings(this.o.api, saved.query.operation, canonicalParams(saved), this.o, (records) =>
      records.every((r) => !seenIds.has(r.property_id)),
    );
    const listings = listingsByWords(fetched.listings)(row.words);
    const primed = row.primedAt !== null;
    // What the channel was posted (by its other alerts) is not posted again by this one (channel.ts), so not previewed
    // either.
    const channel = await this.o.repo.postedIn({
      service: row.service,
      channels: [row.channel],
      ...postedQueryOf(listings),
    });
    const cmp = compare(seen, listings, { primed, priceDropPct: this.o.priceDropPct, channel });
    const messages = deliveriesFor(row, cmp, 5, this.now)
      .map((d) => decodePayload(d.payload))
      .filter((p) => p !== undefined);
    const head = !primed
      ? `Alert #${row.number} has not had its first look yet: that look records the ${listings.length} listings there are and posts nothing.`
      : messages.length === 0
        ? `Nothing new for alert #${row.number} since the last check (${listings.length} listings looked at). Nothing was posted.`
        : `Alert #${row.number} would post ${messages.length} message${messages.length === 1 ? '' : 's'} now. This is a preview: nothing was posted.`;
    const blocks: Block[] = [{ kind: 'text', text: head }];
    for (const p of messages) blocks.push({ kind: 'divider' }, ...(await renderDelivery(p)).blocks);
    return { text: head, blocks, ephemeral: true };
  }
}

/** How an alert is named in a command: `2` in its channel, `me 2` when it is a person's own. */
const ref = (row: { number: number; channel: string }) =>
  personIn(row.channel) !== undefined ? `me ${row.number}` : String(row.number);
