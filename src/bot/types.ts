// The bot's public surface for adapters: what a request is, what they get back, and the ports it needs.
import type { Reply } from '../views/model.js';

/** A slash command, from any platform. `place` is an opaque chat place such as `slack:T0123:C0456`. */
export interface CommandRequest {
  user: string;
  place: string;
  /** The command text as typed, with or without the slash verb: `/rent marina 2br`, `rent marina 2br`. */
  text: string;
}

/** A button press: the button's action and the token of the state stored behind it. */
export interface ActionRequest {
  user: string;
  place: string;
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
