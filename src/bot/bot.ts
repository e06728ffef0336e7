// The conversation core: a command or a button press becomes a Reply of platform-neutral views.
// It knows nothing of Slack or Discord; adapters hand it requests and render what it returns.
// A search is fetched first (SearchRunner: no state written) and then presented: only the reply actually sent
// stores state, one row for all of its buttons.
import type { ApiResult } from '../api/client.js';
import { operationSpec, type OperationName } from '../api/operations.js';
import type { LocationResolver } from '../locations/index.js';
import { newRequestId, type Logger } from '../log.js';
import {
  compareRequest,
  helpText,
  smallTalkOf,
  smallTalkReply,
  summarize,
  typedWithSlash,
  type CompareAsk,
  type Query,
} from '../query/index.js';
import type { Block, Reply } from '../views/model.js';
import {
  MAX_PAGE,
  PAYLOAD_VERSION,
  firstPosition,
  readButton,
  splitToken,
  type ChooseRow,
  type Area,
} from './button-payloads.js';
import { alertButtons, type AlertButtons, type AlertLookup } from './alert-buttons.js';
import { listingDetails } from './details.js';
import { doubtReply } from './doubt.js';
import { friendlyError } from './friendly-error.js';
import { detailsBlocks } from './people.js';
import { periodScope } from './period.js';
import { LISTING_OPERATIONS } from './render-results.js';
import { fitSurface, lastPage, presentPage, type PageView } from './present.js';
import {
  alertsRequest,
  decodeLocationOption,
  digestsRequest,
  encodeLocationOption,
  helpRequest,
  pick,
  planSearch,
  requester,
  withNote,
  type Doubt,
  type PlannedSearch,
} from './requests.js';
import { valueRequest, type ValueRequest } from '../query/value.js';
import { VALUE_OFF, valueButton, valueCommand, valueOf } from './value.js';
import { SearchRunner, type AskOptions, type SearchOutcome, type ServiceCaller } from './search.js';
import {
  scopedState,
  type ActionRequest,
  type AlertsPort,
  type ButtonStateStore,
  type CommandRequest,
  type ComparePort,
  type DigestsPort,
  type MarketContextPort,
  type PeriodPort,
  type PickRequest,
  type SuggestOption,
  type SuggestRequest,
  type Surface,
  type ValuePort,
} from './types.js';

export type { ServiceCaller } from './search.js';
export interface BotOptions {
  api: ServiceCaller;
  locations: LocationResolver;
  state: ButtonStateStore;
  logger: Logger;
  /** Shown under every reply, e.g. that the data is the sandbox's sample. */
  footer?: string;
  /** How long an answer is reused for paging and details. */
  resultTtlMs?: number;
  /** How many answers are kept at most (least recently used go first). */
  resultCacheSize?: number;
  /** The clock of the answer cache (tests drive it). */
  now?: () => number;
  /** A search typed anew reuses an answer at most this old (default 60 s); buttons use `resultTtlMs`. */
  searchFreshMs?: number;
  /** When an alert last polled a query's listings (SearchRunnerOptions.lastPolled): older answers are not reused. */
  lastPolled?: (operation: OperationName, params: Record<string, string>) => Promise<number | undefined>;
  /** Saved searches; without it, alert commands say alerts are off. */
  alerts?: AlertsPort;
  /** Market digests; without it, digest commands say digests are off. */
  digests?: DigestsPort;
  /** `/compare`; without it, compare says it is off. */
  compare?: ComparePort;
  /** Market context on listing cards; none without it. */
  market?: MarketContextPort;
  /** A transactions period read whole, for the reply's figures; without it they are the page's, said so. */
  periods?: PeriodPort;
  /** Value estimates (`/value`, a listing's "What is it worth?"); without it they say they are off. */
  value?: ValuePort;
}

const ALERTS_OFF = 'Alerts are not enabled on this Manzil.';
/** How long a search's answer waits for market context on its cards (a first look-up in an area may take a call). */
const MARKET_CONTEXT_WAIT_MS = 1_500;
const DIGESTS_OFF = 'Digests are not enabled on this Manzil.';
const COMPARE_OFF = 'Comparing areas is not enabled on this Manzil.';
const EXAMPLE = 'Try `/rent marina 2br under 120k` or `/manzil help`.';
const EXPIRED = 'That button has expired. Run the command again to get fresh results.';
const OLDER = 'That button is from an older version of Manzil. Run the command again.';
const UNSUPPORTED = 'That button is no longer supported. Run the command again.';
const TOO_FAR = `Manzil shows the first ${MAX_PAGE} pages of a search. Narrow it (a smaller area, a price range) to see other listings.`;

export class Bot {
  /** Fetching without UI state: an alerts poller may share it (and its answer cache). */
  readonly searches: SearchRunner;

  constructor(private readonly options: BotOptions) {
    this.searches = new SearchRunner(options.api, {
      ttlMs: options.resultTtlMs ?? 5 * 60_000,
      ...(options.resultCacheSize !== undefined ? { maxEntries: options.resultCacheSize } : {}),
      ...(options.now ? { now: options.now } : {}),
      ...(options.lastPolled ? { lastPolled: options.lastPolled, logger: options.logger } : {}),
    });
  }

  /** Buttons under alert messages, from stored state (alert-buttons.ts; the delivery thread uses it without a Bot). */
  alertButtons(find: AlertLookup): AlertButtons {
    return alertButtons(this.options.state, find);
  }

  /** A slash command. Never throws: every failure becomes a friendly reply and a precise log line. */
  async handleCommand(req: CommandRequest): Promise<Reply> {
    const started = performance.now();
    const ref = newRequestId();
    const log = this.options.logger.child({ req: ref, user: req.user, channel: req.channel });
    try {
      const plan = this.plan(req, log);
      if ('reply' in plan) return plan.reply;
      if ('alerts' in plan) return this.finish(await this.options.alerts!.handle(requester(req), plan.alerts));
      if ('digests' in plan) return this.finish(await this.options.digests!.handle(requester(req), plan.digests));
      if ('value' in plan) {
        const reply = await valueCommand(this.options.value!, this.options.locations, plan.value);
        log.info('command answered', { operation: 'value', ms: Math.round(performance.now() - started) });
        return this.finish(reply);
      }
      if ('compare' in plan) return this.finish(await this.options.compare!.handle(plan.compare));
      const state = scopedState(this.options.state, req.channel);
      if ('doubt' in plan) return await this.doubt(plan.doubt, fitSurface(req.surface), state);
      const reply = await this.start(plan.search, fitSurface(req.surface), state);
      log.info('command answered', {
        operation: plan.search.query.operation,
        ms: Math.round(performance.now() - started),
      });
      return plan.search.note ? withNote(reply, plan.search.note) : reply;
    } catch (e) {
      return this.failure(e, log, ref, { text: req.text.slice(0, 200) });
    }
  }

  /**
   * The reply to a command when it needs no I/O (help, text that does not parse, a page too far, alerts off), so that
   * an adapter can answer at once, privately, without a public "thinking…" first. Undefined when the command has to
   * run (handleCommand). Pure and cheap: no call, no state written. Never throws.
   */
  immediateReply(req: CommandRequest): Reply | undefined {
    try {
      const plan = this.plan(
        req,
        this.options.logger.child({ req: newRequestId(), user: req.user, channel: req.channel }),
      );
      return 'reply' in plan ? plan.reply : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * What a command comes to before any I/O: a reply already, an alerts request, a question with a button, or a search.
   */
  private plan(
    req: CommandRequest,
    log: Logger,
  ):
    | { reply: Reply }
    | { alerts: string }
    | { digests: string }
    | { value: ValueRequest }
    | { compare: CompareAsk }
    | { doubt: Doubt }
    | { search: PlannedSearch } {
    const alerts = alertsRequest(req.text);
    if (alerts !== undefined) return this.options.alerts ? { alerts } : { reply: this.ephemeral(ALERTS_OFF) };
    const digests = digestsRequest(req.text);
    if (digests !== undefined) return this.options.digests ? { digests } : { reply: this.ephemeral(DIGESTS_OFF) };
    const compare = compareRequest(req.text);
    if (compare !== undefined) {
      if ('error' in compare) return { reply: this.ephemeral(compare.error) };
      return this.options.compare ? { compare } : { reply: this.ephemeral(COMPARE_OFF) };
    }
    // "hello", "thanks", "what can you do?": a friendly answer with commands to try; "help?" is help.
    const chat = smallTalkOf(req.text);
    if (chat !== undefined && chat !== 'help')
      return { reply: this.ephemeral(smallTalkReply(chat, typedWithSlash(req.text))) };
    const help = chat === 'help' ? '' : helpRequest(req.text);
    const helpWords = help === undefined ? undefined : helpText(help || undefined, req.commandStyle);
    if (helpWords !== undefined)
      return { reply: this.finish({ text: helpWords, blocks: [{ kind: 'text', text: helpWords }], ephemeral: true }) };
    const value = valueRequest(req.text);
    if (value && 'error' in value) return { reply: this.ephemeral(value.error) };
    if (value) return this.options.value ? { value: value.ask } : { reply: this.ephemeral(VALUE_OFF) };
    const search = planSearch(req.text, req.location);
    if ('error' in search) {
      log.info('command not understood', { text: req.text.slice(0, 200), error: search.error });
      // "Did you mean 80,000?" needs a button, so a row: not an immediate reply.
      return search.retry
        ? { doubt: { text: search.error, ...search.retry } }
        : { reply: this.ephemeral(search.error) };
    }
    // Checked before the area is looked up: a refused page should cost no call at all.
    if (firstPosition(search.query).page > lastPage(search.query)) return { reply: this.ephemeral(TOO_FAR) };
    return { search };
  }

  /** A button press. Never throws. */
  async handleAction(req: ActionRequest): Promise<Reply> {
    const ref = newRequestId();
    const log = this.options.logger.child({ req: ref, user: req.user, channel: req.channel, action: req.action });
    try {
      const { row, suffix } = splitToken(req.token);
      const state = scopedState(this.options.state, req.channel);
      const stored = await state.load(row);
      if (!stored) return this.ephemeral(EXPIRED);
      const intent = readButton(stored.kind, stored.payload, suffix);
      switch (intent.kind) {
        case 'show': {
          const reply = await this.showPage(intent, state);
          // A page replaces the page it came from; an area chosen in the (private) "which one?" prompt is posted anew.
          return intent.replace && !reply.ephemeral ? { ...reply, replaceOriginal: true } : reply;
        }
        case 'details':
          return this.finish(
            await listingDetails(this.searches, intent.propertyId, log, async (records) => [
              ...(await detailsBlocks(intent.propertyId, records, fitSurface(req.surface), state)),
              ...(this.options.value ? await valueButton(records[0], intent, state) : []),
            ]),
          );
        case 'value':
          if (!this.options.value) return this.ephemeral(VALUE_OFF);
          return this.finish(await valueOf(this.options.value, intent.area, intent.ask));
        case 'run':
          return await this.start({ query: intent.query, chosen: intent.chosen }, intent.surface, state);
        case 'save':
          if (!this.options.alerts) return this.ephemeral(ALERTS_OFF);
          return this.finish(await this.options.alerts.save(requester(req), intent.query, intent.location));
        case 'refine':
        case 'unusable':
          log.warn('unusable button state', {
            kind: stored.kind,
            suffix,
            reason: intent.kind === 'unusable' ? intent.reason : 'refine',
          });
          return this.ephemeral(intent.kind === 'unusable' && intent.reason === 'older' ? OLDER : UNSUPPORTED);
      }
    } catch (e) {
      return this.failure(e, log, ref);
    }
  }

  /** A location chosen in the Refine picker: the same search, in that area. */
  async handlePick(req: PickRequest): Promise<Reply> {
    const ref = newRequestId();
    const log = this.options.logger.child({ req: ref, user: req.user, channel: req.channel, action: 'pick' });
    try {
      const { row, suffix } = splitToken(req.token);
      const state = scopedState(this.options.state, req.channel);
      const stored = await state.load(row);
      const location = decodeLocationOption(req.value);
      if (!stored || !location) return this.ephemeral('That picker has expired. Run the command again.');
      const intent = readButton(stored.kind, stored.payload, suffix);
      if (intent.kind !== 'refine')
        return this.ephemeral(intent.kind === 'unusable' && intent.reason === 'older' ? OLDER : UNSUPPORTED);
      const reply = await this.showPage(
        { query: intent.query, location, position: firstPosition(intent.query), surface: intent.surface },
        state,
      );
      return reply.ephemeral ? reply : { ...reply, replaceOriginal: true };
    } catch (e) {
      return this.failure(e, log, ref);
    }
  }

  /**
   * Location options for a picker, as the person types (at most 100, as Slack allows); mostly from the cache, and from
   * the service only when `mayCall` allows it.
   */
  async suggestLocations({ typed, mayCall }: SuggestRequest): Promise<SuggestOption[]> {
    if (typed.trim().length < 2) return [];
    try {
      const found = await this.options.locations.suggest(typed, mayCall);
      return found.slice(0, 100).map((l) => ({ label: l.name.slice(0, 75), value: encodeLocationOption(l) }));
    } catch (e) {
      this.options.logger.warn('location suggestions failed', { error: e });
      return [];
    }
  }

  /**
   * How a command would be understood, in one line ("2-bedroom homes for rent in Dubai Marina, …"), without running it:
   * for autocomplete as the person types. Undefined when the text is not (yet) a command. `location` is an area chosen
   * apart from the text (CommandRequest.location), read as handleCommand reads it. No call and no state: the area
   * name comes from the location cache alone.
   */
  async describe(text: string, location?: string): Promise<string | undefined> {
    const search = planSearch(text, location);
    if ('error' in search) return undefined;
    const summary = summarize(search.query, search.chosen?.name ?? (await this.cachedArea(search.query)));
    return search.leftOut ? `${summary} (the location picked; "${search.leftOut}" left out)` : summary;
  }

  /**
   * How the area words of a query read, from the location cache alone (never a call: this runs per keystroke): the
   * area's name when known ("Dubai Marina"), "marina (4 areas match)" when several do; undefined when not cached.
   */
  private async cachedArea(query: Query): Promise<string | undefined> {
    if (!query.location || !('location_id' in operationSpec(query.operation).params)) return undefined;
    try {
      const known = await this.options.locations.cached(query.location);
      if (known?.kind === 'found') return known.location.name;
      if (known?.kind === 'ambiguous') return `${query.location} (${known.choices.length} places match)`;
    } catch (e) {
      this.options.logger.warn('location cache unreadable for a description', { error: e });
    }
    return undefined;
  }

  /** Fetches one service page of a search; writes no state. */
  async search(query: Query, location: Area | undefined, page: number): Promise<ApiResult<unknown>> {
    return (await this.searches.search(query, location, page)).result;
  }

  private async start({ query, chosen }: PlannedSearch, surface: Surface, state: ButtonStateStore): Promise<Reply> {
    const spec = operationSpec(query.operation);
    const needsLocation = 'location_id' in spec.params;
    const typed = { maxAgeMs: this.options.searchFreshMs ?? 60_000 };
    if (!needsLocation || !query.location)
      return this.showPage({ query, position: firstPosition(query), surface }, state, typed);
    // An area picked from a list carries its id: searched there, with no second lookup (two areas may share a name).
    if (chosen?.id !== undefined)
      return this.showPage(
        { query, location: { id: chosen.id, name: chosen.name }, position: firstPosition(query), surface },
        state,
        typed,
      );
    const resolution = await this.options.locations.resolve(query.location);
    if (resolution.kind === 'found')
      return this.showPage(
        { query, location: pick(resolution.location), position: firstPosition(query), surface },
        state,
        typed,
      );
    // "Which one?" and "did you mean?" go only to the person who typed: the channel sees the results.
    if (resolution.kind === 'ambiguous') {
      const text = `"${query.location}" matches several places. Which one did you mean?`;
      return this.finish({
        text,
        blocks: [{ kind: 'text', text }, await this.choices(query, surface, resolution.choices.map(pick), state)],
        ephemeral: true,
      });
    }
    const unknown =
      query.unknownWords.length > 0
        ? ` I also didn't understand ${query.unknownWords.map((w) => `"${w}"`).join(', ')}.`
        : '';
    // "Did you mean Dubai Marina?": the resolver's best few, named in the text and offered as buttons.
    const names = resolution.suggestions.map((s) => s.name);
    const question =
      names.length > 0
        ? ` Did you mean ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`}?`
        : '';
    const text = `I couldn't find a place called "${query.location}".${question}${unknown}`;
    const blocks: Block[] = [{ kind: 'text', text }];
    if (resolution.suggestions.length > 0) {
      blocks.push(await this.choices(query, surface, resolution.suggestions.map(pick), state));
    } else {
      blocks.push({ kind: 'context', text: EXAMPLE });
    }
    return this.finish({ text, blocks, ephemeral: true });
  }

  private async doubt(doubt: Doubt, surface: Surface, state: ButtonStateStore): Promise<Reply> {
    return this.finish({ ...(await doubtReply(doubt, surface, state)), ephemeral: true });
  }

  /** One row for the areas offered; each button carries its index. */
  private async choices(query: Query, surface: Surface, areas: Area[], state: ButtonStateStore): Promise<Block> {
    const offered = areas.slice(0, 25);
    const row = await state.save('choose', {
      v: PAYLOAD_VERSION,
      query,
      surface,
      choices: offered,
    } satisfies ChooseRow);
    return {
      kind: 'actions',
      buttons: offered.map((c, i) => ({ label: c.name, action: 'choose', token: `${row}.c${i}` })),
    };
  }

  /** `ask.maxAgeMs`: a search typed anew (the bound of a fresh answer); buttons reuse answers for the cache's TTL. */
  private async showPage(view: PageView, state: ButtonStateStore, ask: AskOptions = {}): Promise<Reply> {
    if (view.position.page > lastPage(view.query)) return this.ephemeral(TOO_FAR);
    const outcome = await this.searches.search(view.query, view.location, view.position.page, ask);
    // The period's figures are as fresh as the page beside them: read at most one answer-cache lifetime ago.
    const read = { maxAgeMs: this.options.resultTtlMs ?? 5 * 60_000, log: this.options.logger };
    const [context, period] = await Promise.all([
      this.marketContext(view, outcome),
      periodScope(this.options.periods, outcome, read),
    ]);
    return presentPage(view, outcome, {
      state,
      ...(period ? { period } : {}),
      longestPage: (op) => this.searches.longestPage(op),
      finish: (r) => this.finish(r),
      ...(context.size > 0 ? { marketContext: (id: string) => context.get(id) } : {}),
      // The page Next would show, fetched now (and cached for the press): a failure keeps Next, as before.
      hasRecords: (page) => this.searches.hasRecords(view.query, view.location, page),
    });
  }

  /**
   * Market context for the listings of a page, from the shared market cache (at most a call or two per area a day).
   * It never holds the answer up: what is not known within MARKET_CONTEXT_WAIT_MS is left out.
   */
  private async marketContext(view: PageView, outcome: SearchOutcome): Promise<Map<string, string>> {
    const market = this.options.market;
    const out = new Map<string, string>();
    if (!market || !view.location || !LISTING_OPERATIONS.has(outcome.operation)) return out;
    const area = view.location;
    const look = async (r: { property_id?: string }) => {
      const text = r.property_id ? await market.listingContext(area, r).catch(() => undefined) : undefined;
      if (text && r.property_id) out.set(r.property_id, text);
    };
    // The first look fetches what the area needs (once a day at most); the others then read it from the cache.
    const [first, ...rest] = outcome.result.records as { property_id?: string }[];
    const all = first ? look(first).then(() => Promise.allSettled(rest.map(look))) : Promise.resolve();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise((resolve) => (timer = setTimeout(resolve, MARKET_CONTEXT_WAIT_MS)))]);
    clearTimeout(timer);
    return new Map(out);
  }

  private ephemeral(text: string): Reply {
    return this.finish({ text, blocks: [{ kind: 'text', text }], ephemeral: true });
  }

  /** `ref` is the request's id (`req` on its log lines), shown to the person as "(ref …)" to quote to the operator. */
  private failure(e: unknown, log: Logger, ref: string, fields: Record<string, unknown> = {}): Reply {
    const friendly = friendlyError(e, ref);
    log[friendly.level]('request failed', { ...fields, error: e });
    return this.ephemeral(friendly.text);
  }

  private finish(reply: Reply): Reply {
    return this.options.footer ? { ...reply, footer: this.options.footer } : reply;
  }
}
