// What every adapter falls back to: the text that stands for a reply, the reply without its photos, and the chain that
// sends a reply in plainer and plainer forms until the platform takes one, so the person always gets an answer.
import type { Reply } from '../../src/views/model.js';

/** What a reply is called when it has no words of its own. */
export const DEFAULT_TEXT = 'Manzil';

export interface FallbackTextOptions {
  /** When the reply has no text of its own, the first block with words (a text's, a card's title) speaks for it. */
  fromBlocks?: boolean;
}

/** The words that stand for a reply where its blocks are not shown (a notification, a text-only message), unescaped. */
export function fallbackText(reply: Reply, options: FallbackTextOptions = {}): string {
  const first = options.fromBlocks
    ? reply.blocks.map((b) => ('text' in b ? b.text : b.kind === 'card' ? b.card.title : '')).find((t) => t.trim())
    : undefined;
  return [reply.text, first].find((t) => t !== undefined && t.trim()) ?? DEFAULT_TEXT;
}

/**
 * The reply without its photos (the cards' images, which the platform fetches and may refuse). Charts are files, kept.
 */
export function withoutImages(reply: Reply): Reply {
  return {
    ...reply,
    blocks: reply.blocks.map((b) => (b.kind === 'card' ? { ...b, card: { ...b.card, imageUrl: undefined } } : b)),
  };
}

/** One platform's forms of a reply, best first, for sendWithFallback. */
export interface Forms<P> {
  /** The reply in the platform's full markup. */
  render: (reply: Reply) => P;
  /** The reply as text alone: the last resort. */
  textOnly: (reply: Reply) => P;
}

export interface FallbackOptions {
  /**
   * Whether a failure means the platform refused the content (try a plainer form) rather than the call; default:
   * always.
   */
  isContentRefusal?: (error: unknown) => boolean;
  /** Told of every failed attempt (numbered from 1), before the next form is tried or the error thrown. */
  onFailure: (error: unknown, attempt: number) => void;
}

/**
 * Delivers the reply through `deliver`, each form after the last was refused: as is, without images, text only.
 * Resolves with what the accepted delivery returned; throws the last error when every form failed, or at once when a
 * failure is not a refusal of the content (a rate limit, an unknown channel: a plainer message cannot help).
 * Each form is built only when it is needed.
 */
export async function sendWithFallback<P, T>(
  reply: Reply,
  forms: Forms<P>,
  deliver: (payload: P) => Promise<T>,
  options: FallbackOptions,
): Promise<T> {
  const builds: (() => P)[] = [
    () => forms.render(reply),
    () => forms.render(withoutImages(reply)),
    () => forms.textOnly(reply),
  ];
  let last: unknown;
  for (const [i, build] of builds.entries()) {
    try {
      return await deliver(build());
    } catch (e) {
      last = e;
      options.onFailure(e, i + 1);
      if (options.isContentRefusal && !options.isContentRefusal(e)) break;
    }
  }
  throw last;
}
