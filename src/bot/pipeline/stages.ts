// What every stage of a question may use, built once by the Bot: its options (the service, the area resolver, the
// button state and the optional parts' ports) and the search runner (fetching through the shared answer cache).
import { scopeOf } from '../../ports/channel.js';
import { MAX_PAGE } from '../button-payloads.js';
import type { LastResults } from '../last-result.js';
import type { SearchRunner } from '../search.js';
import { scopedState, type BotOptions, type ButtonStateStore } from '../types.js';
import type { Reply } from '../../views/model.js';

export interface Stages {
  options: BotOptions;
  searches: SearchRunner;
  /** The last result of each conversation: what `next` typed alone pages. */
  lastResults: LastResults;
}

/** The button state of a conversation, each result it is shown remembered as its last (for `next` typed alone). */
export const conversationState = ({ options, lastResults }: Stages, channel: string): ButtonStateStore =>
  lastResults.track(scopedState(options.state, channel), scopeOf(channel));

/** A reply only the person who asked sees: a refusal, help, a question. */
export const privately = (text: string): Reply => ({ text, blocks: [{ kind: 'text', text }], ephemeral: true });

/**
 * A reply laid out but not yet sent, as stage 4 (or a question of stage 1 or 2) hands it to stage 5: the row its
 * buttons lead to (none without buttons), and the reply for that row's token.
 */
export interface Draft {
  row?: { kind: string; payload: unknown };
  layout(token: string): Reply;
}

export const ALERTS_OFF = 'Alerts are not enabled on this Manzil.';
export const TOO_FAR = `Manzil shows the first ${MAX_PAGE} pages of a search. Narrow it (a smaller area, a price range) to see other listings.`;
