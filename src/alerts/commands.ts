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
import type { Reply } from '../views/model.js';
import { ephemeral, limitReached, refusal, StandingOrderCommands } from '../standing-orders/commands.js';
import type { OrderContext } from '../standing-orders/commands.js';
import { foldSameFlats } from '../views/same-flat.js';
import type { AlertCommand, AlertSpec } from '../ports/order-command.js';
import { personalTarget, personIn } from '../ports/channel.js';
import { ALERTS_HELP, ALERT_LANGUAGE } from './language.js';
import type { OrderChanges } from '../standing-orders/changes.js';
import type { HomeSource } from '../standing-orders/home.js';
import { alertHomeItems } from './home.js';
import { listingsByWords } from './channel.js';
import { compare } from './compare.js';
import type { AlertsApi } from './contracts.js';
import { fetchListings } from './fetch.js';
import { impossibleIn } from './impossible.js';
import { lifecycleKey, lifecycleText, readLifecycle } from './lifecycle.js';
import { historyLine } from './history.js';
import {
  frequencyFrom,
  frequencyText,
  INSTANT,
  isSummary,
  parseFrequency,
  readFrequency,
  type Frequency,
} from './frequency.js';
import { describeSchedule, matchingToday, withoutPage } from './command-words.js';
import { shortDate } from '../standing-orders/schedule.js';
import { POLL_JOB } from './poller.js';
import { AlertSettings } from './settings.js';
import { previewAlert } from './preview.js';
import { canonicalParams, encodeSavedQuery, notAlertable, paramsKey, type SavedQuery } from './saved-query.js';

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
  /** Told after a change to someone's alerts (the Home tab draws itself again). */
  changes?: OrderChanges;
}

export { ALERTS_HELP, describeSchedule };

export class AlertCommands {
  private readonly commands: StandingOrderCommands<AlertRow, AlertCommand>;
  private readonly settings: AlertSettings;

  constructor(private readonly o: AlertCommandsOptions) {
    this.settings = new AlertSettings(o);
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
      inspect: { test: (row) => previewAlert({ ...this.o, now: () => this.now }, row) },
      extra: {
        edit: (ctx, c) =>
          c.sub !== 'edit'
            ? this.help()
            : 'alert' in c
              ? this.replace(ctx, c.number, c.alert, c.to)
              : this.settings.edit(ctx, c.number, c.every, c.to === 'me'),
        quiet: (ctx, c) => (c.sub === 'quiet' ? this.settings.quiet(ctx, c.hours) : this.help()),
        timezone: (ctx, c) => (c.sub === 'timezone' ? this.settings.timezone(ctx, c.zone) : this.help()),
        more: (ctx, c) => (c.sub === 'more' ? this.settings.more(ctx, c.which, c.page) : this.help()),
      },
      changing: ['edit', 'quiet', 'timezone'],
      changes: o.changes,
    });
  }

  private get now(): number {
    return (this.o.now ?? Date.now)();
  }

  /** The text after `alerts`, typed: a subcommand and its argument. */
  handle(ctx: AlertContext, text: string): Promise<Reply> {
    return this.commands.handle(ctx, text);
  }

  /** A listing's history line, said now (its Details show it), or undefined when there is nothing worth saying. */
  async history(propertyId: string): Promise<string | undefined> {
    const [row] = await this.o.repo.history(this.o.service, [propertyId]);
    return historyLine(row, this.now);
  }

  /** An alert command built without text (Discord's options): answered as typed, a saved one saying how it is typed. */
  run(ctx: AlertContext, command: AlertCommand): Promise<Reply> {
    return this.commands.runBuilt(ctx, command);
  }

  /** What the Home tab shows of a person's alerts, and how it changes one. */
  home(): HomeSource {
    const { o } = this;
    const deps = { ...o, timezone: this.zoneFallback, now: () => this.now };
    return {
      kind: 'alert',
      items: (team, owner) => alertHomeItems(deps, team, owner),
      locate: (id) => o.repo.byId(id),
      run: (ctx, command) => (command.kind === 'alert' ? this.run(ctx, command) : this.help()),
    };
  }

  /** The alert an edit form is filled from (./settings.ts). */
  existing(ctx: AlertContext, ref: { number: number; to?: 'me' } | { id: number }) {
    return this.settings.existing(ctx, ref);
  }

  /** `/alerts add <search>`: the same language as the search commands. */
  private async add(ctx: AlertContext, typed: string, to?: 'me'): Promise<Reply> {
    if (typed.trim() === '')
      return refusal('What should I watch? For example `/alerts add rent marina 2br under 120k`.');
    // "with back on market", "tell me when they're gone": lifecycle events, said anywhere after the search.
    const { events, rest: text } = readLifecycle(typed);
    const lifecycle = lifecycleKey(events);
    // "daily at 9:00", "send me a weekly summary on sunday at 8": how often it posts, said at the end.
    const said = readFrequency(text);
    if (!said.ok) return refusal(said.error);
    if (said.frequency) {
      const frequency = said.frequency;
      const rest = said.rest;
      if (rest === '') return refusal('What should I watch? For example `/alerts add rent marina 2br daily at 9:00`.');
      const parsedRest = parseCommand(rest);
      if (!parsedRest.ok) return refusal(alertRefusal(rest) ?? parsedRest.error);
      return this.save(ctx, parsedRest.query, undefined, typed, to, frequency, lifecycle);
    }
    // "daily", "every morning": how often, not a rent period. Taken out before the search is read, and said so.
    const delivery = takeDeliveryWords(text);
    const note = delivery.words.length > 0 ? deliveryNote(delivery.words, this.o.schedule) : undefined;
    if (delivery.text.trim() === '')
      return refusal(`${note} What should I watch? For example \`/alerts add rent marina 2br under 120k\`.`);
    const parsed = parseCommand(delivery.text);
    if (!parsed.ok) {
      // Without a listing verb the parser's reason would offer every verb; an alert can be only some of them.
      const error = alertRefusal(delivery.text) ?? parsed.error;
      return refusal(note ? `${note}\n${error}` : error);
    }
    const reply = await this.save(ctx, parsed.query, undefined, typed, to, INSTANT, lifecycle);
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
    lifecycle = '',
    replacing?: AlertRow,
  ): Promise<Reply> {
    const target = to === 'me' ? personalTarget(ctx.channel, ctx.user) : ctx.channel;
    const where = to === 'me' ? 'of yours' : 'in this channel';
    const why = notAlertable(query, location);
    if (why) return refusal(`I can't save that as an alert. ${why}`);
    let area = location;
    if (!area) {
      const r = await this.o.locations.resolve(query.location!);
      if (r.kind === 'ambiguous') {
        return refusal(
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
        return refusal(`I couldn't find a place called "${query.location}".${close ? ` Did you mean ${close}?` : ''}`);
      }
      area = { id: r.location.id, name: r.location.name };
    }
    const saved: SavedQuery = { query: { ...query, params: withoutPage(query.params) }, location: area };
    const events = lifecycleText(lifecycle);
    const summary = `${summarize(saved.query, area.name)}${events ? `, ${events}` : ''}`;
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
        lifecycle,
        ...(isSummary(frequency) ? { schedule: JSON.stringify(frequency) } : {}),
      },
      this.o.limits,
    );
    // An edit that kept the search changes only how often it posts.
    if (!created.ok && created.reason === 'duplicate' && created.existing.id === replacing?.id)
      return this.settings.edit(ctx, replacing.number, frequencyText(frequency), to === 'me');
    if (!created.ok && created.reason === 'duplicate') {
      const n = created.existing.number;
      return refusal(
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
    // An edit is the new search saved, then the old one removed: a first look of its own, so what the new search finds
    // today is not posted as new (what the channel was posted stays, so nothing comes twice), and a run of the old one
    // under way commits nothing. It keeps the old one's number where it stays (a move to "me" cannot).
    if (replacing) await this.o.repo.remove(replacing.id);
    const kept = replacing?.channel === row.channel && (await this.o.repo.renumber(row.id, replacing.number));
    const yours = `${to === 'me' ? 'your ' : ''}alert #${kept ? replacing.number : row.number}${to === 'me' ? ' (to me)' : ''}`;
    const head = !replacing
      ? `Saved as ${yours}`
      : kept
        ? `${yours[0]!.toUpperCase()}${yours.slice(1)} changed`
        : `Alert #${replacing.number} changed: it is now ${yours}`;
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
    this.commands.changed(target, [ctx.user]);
    const how = isSummary(frequency)
      ? `I'll post one ${frequency.every === 'day' ? 'daily' : 'weekly'} summary here ${await this.settings.whenText(ctx.channel, frequency)} when there is something new`
      : "I'll post new listings here as they appear";
    if (to === 'me') {
      // Said to the person alone: no one else in the channel learns what they watch.
      const mine = `${head}: ${summary}. I'll send new listings to your direct messages with me as they appear; ${matching}. Checked ${this.o.schedule}; only you see it in \`/alerts list\`.`;
      return ephemeral(mine);
    }
    const text = `${head}: ${summary}. ${how}; ${matching}. Checked ${this.o.schedule}; see \`/alerts list\`.`;
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

  /** An alert's search parsed already (a form's), with how often in words. */
  private saveSpec(
    ctx: AlertContext,
    spec: { query: Query; area?: { id: number; name: string }; every?: string },
    to?: 'me',
    replacing?: AlertRow,
  ): Promise<Reply> {
    const every = spec.every === undefined ? undefined : parseFrequency(spec.every);
    if (every && !every.ok) return Promise.resolve(refusal(every.error));
    const current = replacing ? frequencyFrom(replacing.schedule) : INSTANT;
    return this.save(
      ctx,
      spec.query,
      spec.area,
      undefined,
      to,
      every?.frequency ?? current,
      replacing?.lifecycle ?? '',
      replacing,
    );
  }

  /** `/alerts edit 3 rent marina 2br daily at 9:00`, an edit form: the whole search (and how often) replaced. */
  private async replace(ctx: AlertContext, number: number, spec: AlertSpec, to?: 'me'): Promise<Reply> {
    const row = await this.settings.changeable(ctx, number, to);
    if (!('id' in row)) return row;
    if (!('search' in spec)) return this.saveSpec(ctx, spec, to, row);
    const said = readFrequency(spec.search);
    if (!said.ok) return refusal(said.error);
    const parsed = parseCommand(said.rest);
    if (!parsed.ok) {
      // Neither how often nor a search: both are what an edit takes.
      const often = parseFrequency(spec.search);
      return refusal(
        often.ok
          ? parsed.error
          : `${often.error} Or give its whole search: \`/alerts edit ${number} rent marina 2br under 150k\`.`,
      );
    }
    const frequency = said.frequency ?? frequencyFrom(row.schedule);
    return this.save(ctx, parsed.query, undefined, spec.search, to, frequency, row.lifecycle, row);
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
}

/** How an alert is named in a command: `2` in its channel, `me 2` when it is a person's own. */
const ref = (row: { number: number; channel: string }) =>
  personIn(row.channel) !== undefined ? `me ${row.number}` : String(row.number);
