// A person's own standing orders as one view (Slack's Home tab; any platform could show it), platform-free: the core
// builds the model, an adapter draws it. And what changing one from that view asks of the core.
import type { Reply } from '../views/model.js';
import type { OrderKind } from './order-command.js';

/** What state an order is in, as one word an adapter may mark; `state` says it in words. */
export type HomeStateWord = 'active' | 'paused' | 'waiting' | 'quiet' | 'failing';

export interface HomeItem {
  kind: OrderKind;
  /** The standing order's id: what a button names it by. */
  id: number;
  /** Its number in its target, as `/alerts list` shows it. */
  number: number;
  /** What it watches: an alert's search in words, a digest's areas. */
  title: string;
  /** Where it posts: a channel (`slack:T1:C1`), or the person's DMs when `personal`. */
  target: string;
  personal: boolean;
  /** When it posts: `instant`, `daily at 09:00`, `weekly on sunday at 08:00`, `every Monday at 09:00 (Asia/Dubai)`. */
  schedule: string;
  paused: boolean;
  word: HomeStateWord;
  /** Its state in words: `active`, `paused by you`, `paused: …`, `waiting for this month's quota`, `in quiet hours until 07:00`. */
  state: string;
  /** Its last post in words: `last posted 2 hours ago`, `nothing posted yet`. */
  lastPost: string;
}

export interface HomeModel {
  /** The person's alerts (those they made in the workspace's channels, and their own "to me"), then digests. */
  alerts: HomeItem[];
  digests: HomeItem[];
}

export type HomeChange = 'pause' | 'resume' | 'remove';

/** Who asks, in which team (`slack:T1`), and whether they administer it (asked only when a change needs it). */
export interface HomeRequest {
  user: string;
  team: string;
  isAdmin?: () => Promise<boolean>;
}

export interface HomePort {
  /** The person's orders in the team: theirs only, never another person's. */
  view(team: string, user: string): Promise<HomeModel>;
  /** Pauses, resumes or removes the order `id` of `kind`, with the rights checks of the typed commands. */
  change(req: HomeRequest, kind: OrderKind, id: number, change: HomeChange): Promise<Reply>;
  /** Told after any change to a person's orders in a team, from any surface of this process; returns the unsubscribe. */
  onChange(listener: (team: string, owner: string) => void): () => void;
}
