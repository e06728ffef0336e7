// What each kind of outbox entry is: its payload's decoder and its renderer. Alerts register theirs, digests theirs,
// without touching each other's files or the drainer.
import type { Reply } from '../views/model.js';

export interface DeliveryKind<P = unknown> {
  /** The payload as written (versioned JSON), or undefined when this release cannot read it. */
  decode(json: string): P | undefined;
  /** The chat message, built from what was recorded (not from a later fetch). */
  render(payload: P): Reply | Promise<Reply>;
  /**
   * The names of this kind whose post is its listing's first in a channel: where it landed is kept (the store's
   * channel_posted.message_ref), for later posts of that listing to reply in its thread (issue 40).
   */
  threadRoots?: readonly string[];
  /**
   * The dedupe keys of the entries this one only points to (a drops line's drops), or undefined. It is posted when one
   * of them was sent by this database, and folded when every one was found on the platform already (a restore
   * re-deciding a run whose line was posted too) or given up.
   */
  follows?(payload: P): readonly string[] | undefined;
}

export class KindRegistry {
  private readonly kinds = new Map<string, DeliveryKind>();
  private readonly roots = new Set<string>();

  register<P>(names: string | readonly string[], kind: DeliveryKind<P>): this {
    for (const name of typeof names === 'string' ? [names] : names) {
      if (this.kinds.has(name)) throw new Error(`outbox kind "${name}" is registered already`);
      this.kinds.set(name, kind as DeliveryKind);
    }
    for (const name of kind.threadRoots ?? []) this.roots.add(name);
    return this;
  }

  /** Whether an entry of this kind is its listing's first post in its channel, whose place is kept. */
  isThreadRoot(kind: string): boolean {
    return this.roots.has(kind);
  }

  /** The message for an entry, or undefined when its kind is unknown or its payload unreadable. */
  async render(kind: string, payload: string): Promise<Reply | undefined> {
    const k = this.kinds.get(kind);
    const decoded = k?.decode(payload);
    return decoded === undefined ? undefined : k!.render(decoded);
  }

  /**
   * The message for an entry, or why there is none: its renderer threw (the error), or as `render` says none; and what
   * it only points to (DeliveryKind.follows), from the same decoded payload.
   */
  async tryRender(
    kind: string,
    payload: string,
  ): Promise<{ reply?: Reply | undefined; error?: string; follows?: readonly string[] | undefined }> {
    try {
      const k = this.kinds.get(kind);
      const decoded = k?.decode(payload);
      if (decoded === undefined) return { reply: undefined };
      return { reply: await k!.render(decoded), follows: k!.follows?.(decoded) };
    } catch (e) {
      return { error: `its message could not be rendered: ${e instanceof Error ? e.message : String(e)}` };
    }
  }

  has(kind: string): boolean {
    return this.kinds.has(kind);
  }
}
