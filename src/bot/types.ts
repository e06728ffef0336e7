// The bot's public surface for adapters: what a request is, what they get back, and the ports it needs.
import type { Query } from '../query/index.js';
import type { Reply } from '../views/model.js';

/** What a platform can show in one message: the adapter says, the core lays replies out to fit. */
export interface Surface {
  /** Cards per chat page (Slack: 10 within 50 blocks; Discord: 10 embeds, fewer with buttons). */
  cardsPerPage: number;
  /** Buttons under one card (Discord: 5 per action row). */
  buttonsPerCard: number;
}

/** A slash command, from any platform. `place` is an opaque chat place such as `slack:T0123:C0456`. */
export interface CommandRequest {
  user: string;
  place: string;
  /** The platform's limits; the core's defaults when unset. */
  surface?: Surface;
  /** True when the person may manage any alert in this place (a workspace admin or owner, Manage Server). */
  isAdmin?: () => Promise<boolean>;
  /** The command text as typed, with or without the slash verb: `/rent marina 2br`, `rent marina 2br`. */
  text: string;
  /**
   * A place chosen apart from the text, as Discord's `location` option picks one: `<id>:<name>` as suggestLocations
   * offers it (searched by that id, with no lookup), or a name (looked up as a place typed in the text is). When the
   * text names a place too, the chosen one wins and the reply says which words were left out.
   */
  location?: string;
}

/** A button press: the button's action and the token of the state stored behind it. */
export interface ActionRequest {
  user: string;
  place: string;
  surface?: Surface;
  isAdmin?: () => Promise<boolean>;
  action: string;
  token: string;
}

/** A location chosen in a picker: the picker's token and the chosen option's value. */
export interface PickRequest {
  user: string;
  place: string;
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

/** Where the state behind buttons lives (the store's button_state table in production). */
export interface ButtonStateStore {
  save(kind: string, payload: unknown): string;
  load<T = unknown>(token: string): { kind: string; payload: T } | undefined;
}

export type { Reply };

/** Who is asking, for alert commands: alerts post to `place`, and only their creator or an admin manages them. */
export interface AlertRequester {
  user: string;
  place: string;
  isAdmin?: () => Promise<boolean>;
}

/** Saved searches, as the bot reaches them (src/alerts implements it; absent when alerts are off). */
export interface AlertsPort {
  /** `/alerts <text>`: add, list, pause, resume, remove, test, help. */
  handle(who: AlertRequester, text: string): Promise<Reply>;
  /** "Save as alert" under a search reply. */
  save(who: AlertRequester, query: Query, location: { id: number; name: string } | undefined): Promise<Reply>;
}
