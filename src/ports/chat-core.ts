// The interface adapters reach the core through: what a request is, and what they get back. The bot implements it;
// the lifecycle (counting requests, refusing new ones at a stop) and the metrics wrap it, each as a plain object.
import type { Reply } from '../views/model.js';
import type { AlertDraft, ExistingOrder, OrderCommand, OrderKind } from './order-command.js';

/** What a platform can show in one message: the adapter says, the core lays replies out to fit. */
export interface Surface {
  /** Cards per chat page (Slack: 10 within 50 blocks; Discord: 10 embeds, fewer with buttons). */
  cardsPerPage: number;
  /** Buttons under one card (Discord: 5 per action row). */
  buttonsPerCard: number;
  /**
   * Buttons to the listings of the agents and brokerages the cards name (default true). False: the cards show only the
   * command to type (the terminal chat, where a button is a number to type anyway, and more of them renumber the rest).
   */
  personButtons?: boolean;
}

/**
 * A command as the core read it, once (ChatCore.read): what the metrics count it as, what it costs one person, and
 * whether it is answered at once. The wrappers and the bot read this rather than the text again; the bot answers
 * from its own reading of the text behind it (one it made; any other reading is ignored and the text read anew).
 */
export interface RequestReading {
  /** The metrics' label: the search's operation (`search-rent`), `alerts`, `digest`, `compare`, `value`, `next`, `help`, `not-understood`. */
  readonly verb: string;
  /** What it costs one person (src/teams): a search, a run (of an alert's test, a digest now, a compare), or nothing. */
  readonly cost: 'search' | 'run' | undefined;
  /** Answered at once, with no call (help, a mistake, a part that is off). */
  readonly immediate: boolean;
}

/** A slash command, from any platform. `channel` is an opaque chat channel such as `slack:T0123:C0456`. */
export interface CommandRequest {
  user: string;
  channel: string;
  /** The platform's limits; the core's defaults when unset. */
  surface?: Surface;
  /** True when the person may manage any alert in this channel (a workspace admin or owner, Manage Server). */
  isAdmin?: () => Promise<boolean>;
  /** The command text as typed, with or without the slash verb: `/rent marina 2br`, `rent marina 2br`. */
  text: string;
  /**
   * An area chosen apart from the text, as Discord's `location` option picks one: `<id>:<name>` as suggestLocations
   * offers it (searched by that id, with no lookup), or a name (looked up as an area typed in the text is). When the
   * text names an area too, the chosen one wins and the reply says which words were left out.
   */
  location?: string;
  /** How commands are typed where the reply is read: 'slash' (`/rent …`, the default) or 'plain' (`rent …`). */
  commandStyle?: 'slash' | 'plain';
  /**
   * A command to an alert or a digest built from a platform's own options (Discord's subcommands), with no text in
   * between: the core runs it as it is and never reads `text`, which then only names the command in logs.
   */
  order?: OrderCommand;
  /** The command as the core read it (ChatCore.read), by whoever read it first; read from the text when unset. */
  reading?: RequestReading;
}

/** A button press: the button's action and the token of the state stored behind it. */
export interface ActionRequest {
  user: string;
  channel: string;
  surface?: Surface;
  isAdmin?: () => Promise<boolean>;
  action: string;
  token: string;
  /** As CommandRequest's: commands in the reply are written as typed here. */
  commandStyle?: 'slash' | 'plain';
}

/** A location chosen in a picker: the picker's token and the chosen option's value. */
export interface PickRequest {
  user: string;
  channel: string;
  token: string;
  value: string;
}

/**
 * Counts one request's whole handling while it runs, the reply's delivery included, so that a graceful stop waits
 * for it (the composition root passes the lifecycle's in-flight counter; adapters wrap each listener body in it).
 */
export type TrackRequest = <T>(work: () => Promise<T>) => Promise<T>;

export interface SuggestOption {
  label: string;
  value: string;
}

/**
 * What was typed so far in an area picker (Slack's external select, Discord's autocomplete), and who typed it: the
 * calls a suggestion costs are the asking team's, and one person's are limited (src/teams).
 */
export interface SuggestRequest {
  user: string;
  channel: string;
  typed: string;
  /**
   * Asked just before a suggestion would cost an upstream call (cached answers are free): false answers from the cache
   * alone. Set by the per-person limit; absent, calls are allowed.
   */
  mayCall?: () => Promise<boolean>;
}

/**
 * An edit form asked for (`/alerts edit 3` alone, the Home tab's Edit): the order by its number where it was asked, or
 * by its id (the Home tab's buttons, where `channel` only names the person's team). Or a new alert's form from a
 * result's Save button (`button`: its token), filled from that search.
 */
export interface FormRequest {
  user: string;
  channel: string;
  isAdmin?: () => Promise<boolean>;
  kind: OrderKind;
  order: { number: number; to?: 'me' } | { id: number } | { button: string };
}

/**
 * The order an edit form is filled from (or the draft a new alert's form is, from a Save button), and the channel it
 * is run in when submitted; or the reply why there is none.
 */
export type FormFill =
  | { ok: true; existing: ExistingOrder; channel: string }
  | { ok: true; draft: AlertDraft; channel: string }
  | { ok: false; reply: Reply };

/** The core as every adapter sees it. */
export interface ChatCore {
  /** Reads a command once, without running it: pass the reading on in `req.reading` so nothing reads it again. */
  read(req: CommandRequest): RequestReading;
  handleCommand(req: CommandRequest): Promise<Reply>;
  handleAction(req: ActionRequest): Promise<Reply>;
  handlePick(req: PickRequest): Promise<Reply>;
  /** Areas matching what was typed so far (Slack's external select, Discord's autocomplete). */
  suggestLocations(req: SuggestRequest): Promise<SuggestOption[]>;
  /** A reply that needs no I/O (help, a mistake), so an adapter can answer within its deadline without deferring. */
  immediateReply(req: CommandRequest): Reply | undefined;
  /** What a command would search for, in words (Discord's autocomplete of the query option). */
  describe(text: string, location?: string): Promise<string | undefined>;
  /** The order an edit form is filled from, when this person may change it (src/forms reads it into the fields). */
  orderForm(req: FormRequest): Promise<FormFill>;
}

/**
 * Every method of `core`, bound to it (a class instance's methods live on its prototype, not spread): a wrapper spreads
 * this and replaces only what it changes.
 */
export function delegateTo(core: ChatCore): ChatCore {
  return {
    read: (req) => core.read(req),
    handleCommand: (req) => core.handleCommand(req),
    handleAction: (req) => core.handleAction(req),
    handlePick: (req) => core.handlePick(req),
    suggestLocations: (req) => core.suggestLocations(req),
    immediateReply: (req) => core.immediateReply(req),
    describe: (text, location) => core.describe(text, location),
    orderForm: (req) => core.orderForm(req),
  };
}
