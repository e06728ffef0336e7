// The conversation core: a command or a button press becomes a Reply of platform-neutral views.
// It knows nothing of Slack or Discord; adapters hand it requests and render what it returns.
import type { ApiResult } from '../api/client.js';
import { operationSpec, type OperationName } from '../api/operations.js';
import type { Location } from '../api/records.js';
import type { LocationResolver } from '../locations/index.js';
import type { Logger } from '../log.js';
import { helpText, parseCommand, summarize, toParams, type Query } from '../query/index.js';
import type { Block, Button, Reply } from '../views/model.js';
import { friendlyError } from './friendly-error.js';
import { CARD_OPERATIONS, LISTING_OPERATIONS, renderRecords } from './render-results.js';
import { planPage, type PagePosition } from './paging.js';
import { ResultCache } from './result-cache.js';
import type { ActionRequest, ButtonStateStore, CommandRequest, PickRequest, SuggestOption } from './types.js';

/** The one thing the bot needs of the API client. */
export interface ServiceCaller {
  call<Op extends OperationName>(operation: Op, params: Record<string, string>): Promise<ApiResult<unknown>>;
}

export interface BotOptions {
  api: ServiceCaller;
  locations: LocationResolver;
  state: ButtonStateStore;
  logger: Logger;
  /** Shown under every reply, e.g. that the data is the sandbox's sample. */
  footer?: string;
  /** How long an answer is reused for paging and details. */
  resultTtlMs?: number;
}

export const CARDS_PER_PAGE = 10;
/** The service's page size is not published (15 to 50 observed); a page shorter than this is surely the last. */
const SMALLEST_FULL_PAGE = 10;

/** Everything needed to show one chat page of a search again, even after a restart. */
interface SearchState extends PagePosition {
  query: Query;
  location?: { id: number; name: string };
}

interface ChooseState {
  query: Query;
  location: { id: number; name: string };
}

const EXAMPLE = 'Try `/rent marina 2br under 120k` or `/manzil help`.';

export class Bot {
  private readonly results: ResultCache<ApiResult<unknown>>;
  /** The longest service page seen per operation: a shorter page is the last one, so it gets no Next button. */
  private readonly longestPage = new Map<OperationName, number>();

  constructor(private readonly options: BotOptions) {
    this.results = new ResultCache(options.resultTtlMs ?? 5 * 60_000);
  }

  /** A slash command. Never throws: every failure becomes a friendly reply and a precise log line. */
  async handleCommand(req: CommandRequest): Promise<Reply> {
    const started = performance.now();
    const log = this.options.logger.child({ user: req.user, place: req.place });
    try {
      const help = helpRequest(req.text);
      if (help !== undefined) return this.finish({ text: helpText(help || undefined), blocks: [{ kind: 'text', text: helpText(help || undefined) }], ephemeral: true });
      const parsed = parseCommand(req.text);
      if (!parsed.ok) {
        log.info('command not understood', { text: req.text.slice(0, 200), error: parsed.error });
        return this.ephemeral(parsed.error);
      }
      const reply = await this.start(parsed.query);
      log.info('command answered', { operation: parsed.query.operation, ms: Math.round(performance.now() - started) });
      return reply;
    } catch (e) {
      return this.failure(e, log, { text: req.text.slice(0, 200) });
    }
  }

  /** A button press. Never throws. */
  async handleAction(req: ActionRequest): Promise<Reply> {
    const log = this.options.logger.child({ user: req.user, place: req.place, action: req.action });
    try {
      const stored = this.options.state.load(req.token);
      if (!stored) return this.ephemeral('That button has expired. Run the command again to get fresh results.');
      switch (stored.kind) {
        case 'search':
          return { ...(await this.showPage(stored.payload as SearchState)), replaceOriginal: true };
        case 'choose': {
          const { query, location } = stored.payload as ChooseState;
          return { ...(await this.showPage(firstPage(query, location))), replaceOriginal: true };
        }
        case 'details':
          return await this.details(stored.payload as { propertyId: string });
        case 'save':
          return this.ephemeral('Alerts are coming soon: saving a search as an alert will arrive in the next release of Manzil.');
        default:
          log.warn('unknown button state', { kind: stored.kind });
          return this.ephemeral('That button is no longer supported. Run the command again.');
      }
    } catch (e) {
      return this.failure(e, log);
    }
  }

  /** A location chosen in the Refine picker: the same search, in that place. */
  async handlePick(req: PickRequest): Promise<Reply> {
    const log = this.options.logger.child({ user: req.user, place: req.place, action: 'pick' });
    try {
      const stored = this.options.state.load<{ query: Query }>(req.token);
      const location = decodeLocationOption(req.value);
      if (!stored || !location) return this.ephemeral('That picker has expired. Run the command again.');
      return { ...(await this.showPage(firstPage(stored.payload.query, location))), replaceOriginal: true };
    } catch (e) {
      return this.failure(e, log);
    }
  }

  /** Location options for a picker, as the person types (at most 100, as Slack allows). */
  async suggestLocations(typed: string): Promise<SuggestOption[]> {
    if (typed.trim().length < 2) return [];
    try {
      const found = await this.options.locations.lookup(typed);
      return found.slice(0, 100).map((l) => ({ label: l.name.slice(0, 75), value: encodeLocationOption(l) }));
    } catch (e) {
      this.options.logger.warn('location suggestions failed', { error: e });
      return [];
    }
  }

  private async start(query: Query): Promise<Reply> {
    const spec = operationSpec(query.operation);
    const needsLocation = 'location_id' in spec.params;
    if (!needsLocation || !query.location) return this.showPage(firstPage(query));
    const resolution = await this.options.locations.resolve(query.location);
    if (resolution.kind === 'found') return this.showPage(firstPage(query, resolution.location));
    if (resolution.kind === 'ambiguous') {
      const buttons = resolution.choices.map((c) => this.button(c.name, 'choose', 'choose', { query, location: pick(c) } satisfies ChooseState));
      const text = `"${query.location}" matches several places. Which one did you mean?`;
      return this.finish({ text, blocks: [{ kind: 'text', text }, { kind: 'actions', buttons }] });
    }
    const unknown = query.unknownWords.length > 0 ? ` I also didn't understand ${query.unknownWords.map((w) => `"${w}"`).join(', ')}.` : '';
    const text = `I couldn't find a place called "${query.location}".${unknown}`;
    const blocks: Block[] = [{ kind: 'text', text }];
    if (resolution.suggestions.length > 0) {
      blocks.push({ kind: 'context', text: 'Did you mean one of these?' });
      blocks.push({ kind: 'actions', buttons: resolution.suggestions.map((c) => this.button(c.name, 'choose', 'choose', { query, location: pick(c) } satisfies ChooseState)) });
    } else {
      blocks.push({ kind: 'context', text: EXAMPLE });
    }
    return this.finish({ text, blocks, ephemeral: true });
  }

  private async showPage(state: SearchState): Promise<Reply> {
    const { query, location } = state;
    const op = query.operation;
    const spec = operationSpec(op);
    const params = toParams({ ...query, params: { ...query.params, ...(spec.firstPage !== undefined ? { page: String(state.page) } : {}) } }, location?.id);
    const result = await this.fetch(op, params);
    const summary = summarize(query, location?.name);
    const paged = spec.firstPage !== undefined;
    const total = result.records.length;
    const longestPage = Math.max(total, this.longestPage.get(op) ?? 0);
    if (paged) this.longestPage.set(op, longestPage);
    const byCard = CARD_OPERATIONS.has(op);
    const plan = planPage(state, {
      total, firstPage: spec.firstPage ?? 1, byCard, perChatPage: CARDS_PER_PAGE, longestPage, smallestFullPage: SMALLEST_FULL_PAGE,
    });
    const shown = result.records.slice(plan.offset, plan.offset + plan.count);

    const blocks: Block[] = [{ kind: 'header', text: summary }];
    if (shown.length === 0) {
      const text = plan.previous ? 'No more results.' : 'No results. Try fewer filters, a wider price range or a nearby area.';
      blocks.push({ kind: 'text', text });
    } else {
      const unreadable = result.dropped ? ` (${result.dropped} unreadable left out)` : '';
      if (byCard) blocks.push({ kind: 'context', text: `Showing ${plan.firstNumber}–${plan.firstNumber + shown.length - 1}${unreadable}` });
      blocks.push(...renderRecords(op, shown, {
        locationName: location?.name ?? query.location ?? '',
        listingButtons: (propertyId) => [this.button('Details', 'details', 'details', { propertyId })],
      }));
    }

    const buttons: Button[] = [];
    if (paged && plan.previous) buttons.push(this.button('◀ Previous', 'page', 'search', { ...state, ...plan.previous }));
    if (paged && plan.next) buttons.push(this.button('Next ▶', 'page', 'search', { ...state, ...plan.next }));
    if (LISTING_OPERATIONS.has(op) && total > 0) buttons.push({ ...this.button('Save as alert', 'save', 'save', { query, location }), style: 'primary' });
    if (buttons.length > 0) blocks.push({ kind: 'actions', buttons });
    if ('location_id' in spec.params && location) {
      blocks.push({ kind: 'location-picker', token: this.options.state.save('refine', { query }), placeholder: 'Refine: another location…' });
    }
    return this.finish({ text: shown.length > 0 ? `${summary}: ${shown.length} shown` : `${summary}: no results`, blocks });
  }

  private async details({ propertyId }: { propertyId: string }): Promise<Reply> {
    const result = await this.fetch('property-details', { property_id: propertyId });
    const blocks = renderRecords('property-details', result.records, { locationName: '', listingButtons: () => [] });
    return this.finish({ text: `Property ${propertyId}`, blocks, ephemeral: true });
  }

  /** One answer of the service, reused for a few minutes (paging back, Details twice) and shared by concurrent askers. */
  private fetch(op: OperationName, params: Record<string, string>): Promise<ApiResult<unknown>> {
    return this.results.get(`${op}?${new URLSearchParams(params)}`, () => this.options.api.call(op, params));
  }

  private button(label: string, action: Button['action'], kind: string, payload: unknown): Button {
    return { label, action, token: this.options.state.save(kind, payload) };
  }

  private ephemeral(text: string): Reply {
    return this.finish({ text, blocks: [{ kind: 'text', text }], ephemeral: true });
  }

  private failure(e: unknown, log: Logger, fields: Record<string, unknown> = {}): Reply {
    const friendly = friendlyError(e);
    log[friendly.level]('request failed', { ...fields, error: e });
    return this.ephemeral(friendly.text);
  }

  private finish(reply: Reply): Reply {
    return this.options.footer ? { ...reply, footer: this.options.footer } : reply;
  }
}

function firstPage(query: Query, location?: Location | { id: number; name: string }): SearchState {
  const first = operationSpec(query.operation).firstPage ?? 1;
  const page = query.params.page !== undefined ? Number(query.params.page) : first;
  return { query, ...(location ? { location: pick(location) } : {}), page, offset: 0 };
}

const pick = (l: { id: number; name: string }) => ({ id: l.id, name: l.name });

/** Picker option values carry the id and the name, so a pick needs no further lookup. */
export function encodeLocationOption(l: { id: number; name: string }): string {
  return `${l.id}:${l.name}`.slice(0, 150);
}

export function decodeLocationOption(value: string): { id: number; name: string } | undefined {
  const m = /^(\d+):(.+)$/s.exec(value);
  return m ? { id: Number(m[1]), name: m[2]! } : undefined;
}

/**
 * `help`, `/manzil help rent`, `/rent help`, or a bare `/manzil`: the verb asked about ('' for all);
 * undefined when the text is not a request for help.
 */
export function helpRequest(text: string): string | undefined {
  const words = text.trim().replace(/^\//, '').split(/\s+/).filter(Boolean);
  if (words[0]?.toLowerCase() === 'manzil') words.shift();
  if (words.length === 0) return '';
  const [first, second] = words.map((w) => w.toLowerCase());
  if (first === 'help' || first === '?') return words.slice(1).join(' ').toLowerCase();
  if (second === 'help' && words.length === 2) return first;
  return undefined;
}
