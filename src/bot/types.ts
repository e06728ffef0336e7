// The bot's own types: the ports it needs (button state, alerts); the requests adapters send live in src/ports.
import type { OperationName } from '../api/operations.js';
import type { LocationResolver } from '../locations/index.js';
import type { Logger } from '../log.js';
import { scopeOf } from '../ports/channel.js';
import type { AlertCommand, DigestCommand, ExistingAlert, ExistingDigest } from '../ports/order-command.js';
import type { KnownPage } from '../market/types.js';
import type { ValueAsk, ValueEstimate } from '../market/value.js';
import type { CompareAsk, Query } from '../query/index.js';
import type { PeriodRecords } from '../views/index.js';
import type { Reply } from '../views/model.js';
import type { ServiceCaller } from './search.js';

export type {
  ActionRequest,
  CommandRequest,
  FormFill,
  FormRequest,
  PickRequest,
  SuggestOption,
  SuggestRequest,
  Surface,
  TrackRequest,
} from '../ports/chat-core.js';

/** Where the state behind buttons lives (the store's button_state table in production). */
export interface ButtonStateStore {
  /** `scope`: the conversation the button is posted in (`scopeOf`); pressed anywhere else it does nothing. */
  save(kind: string, payload: unknown, scope?: string): Promise<string>;
  load(token: string, scope?: string): Promise<{ kind: string; payload: unknown } | undefined>;
}

/** The button state of one conversation: what it saves is bound to it, and it loads only what is. */
export const scopedState = (state: ButtonStateStore, channel: string): ButtonStateStore => {
  const scope = scopeOf(channel);
  return { save: (kind, payload) => state.save(kind, payload, scope), load: (token) => state.load(token, scope) };
};

export type { Reply };

/** Who is asking, for alert commands: alerts post to `channel`, and only their creator or an admin manages them. */
export interface AlertRequester {
  user: string;
  channel: string;
  isAdmin?: () => Promise<boolean>;
}

/** Saved searches, as the bot reaches them (src/alerts implements it; absent when alerts are off). */
export interface AlertsPort {
  /** `/alerts <text>`: add, list, pause, resume, remove, test, help. */
  handle(who: AlertRequester, text: string): Promise<Reply>;
  /** The same commands built without text (Discord's options). */
  run(who: AlertRequester, command: AlertCommand): Promise<Reply>;
  /** An alert as its edit form is filled from it, and the channel it is run in; or why this person cannot edit it. */
  existing(
    who: AlertRequester,
    ref: { number: number; to?: 'me' } | { id: number },
  ): Promise<{ order: ExistingAlert; channel: string } | Reply>;
  /** "Save as alert" under a search reply; "Save for me" (`to: 'me'`): to the person's direct messages. */
  save(
    who: AlertRequester,
    query: Query,
    location: { id: number; name: string } | undefined,
    typed?: string,
    to?: 'me',
  ): Promise<Reply>;
  /**
   * A listing's history line as its alerts observed it (issue 40: "first seen 41 days ago · price cut twice since, −7
   * %"), said now; undefined when there is nothing worth saying (or nothing known).
   */
  history?(propertyId: string): Promise<string | undefined>;
}

/** Market digests, as the bot reaches them (src/digests implements it; absent when digests are off). */
export interface DigestsPort {
  /** `/digest <text>`: add, list, pause, resume, remove, now, help. */
  handle(who: AlertRequester, text: string): Promise<Reply>;
  /** The same commands built without text (Discord's options). */
  run(who: AlertRequester, command: DigestCommand): Promise<Reply>;
  /** A digest as its edit form is filled from it, and the channel it is run in; or why this person cannot edit it. */
  existing(
    who: AlertRequester,
    ref: { number: number } | { id: number },
  ): Promise<{ order: ExistingDigest; channel: string } | Reply>;
}

/** `/compare`, as the bot reaches it (src/compare implements it; absent when market data is not wired). */
export interface ComparePort {
  handle(ask: CompareAsk): Promise<Reply>;
}

/**
 * Where a listing stands in its place's market, in words, from cached market data (src/market through the composition
 * root); undefined when the data is thin, the budget low, or nothing is known. Never a guess.
 */
export interface MarketContextPort {
  listingContext(area: { id: number; name: string }, listing: unknown): Promise<string | undefined>;
}

/**
 * Every transaction of a search's period (its place, kind, period and filters; not its page or sort), newest first,
 * read page by page within a cap and cached (src/market through the composition root). Throws what the service does.
 */
export interface PeriodPort {
  /** `known`: the page the reply shows, which the read takes instead of asking again when it is one of the period's. */
  transactions(
    params: Readonly<Record<string, string>>,
    use: { maxAgeMs: number; known?: KnownPage },
  ): Promise<PeriodRecords>;
}

/**
 * What a home in an area is worth and would rent for (src/market through the composition root, from the shared market
 * cache). Throws what the service does.
 */
export interface ValuePort {
  estimate(area: { id: number; name: string }, ask: ValueAsk): Promise<ValueEstimate>;
}

/** What a Bot is built from: the service, the area resolver, the button state, and the ports of its optional parts. */
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
