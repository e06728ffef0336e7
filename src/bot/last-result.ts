// The last result each conversation was shown, so `next` or `more` typed alone pages it (issue 38): the token of the
// row behind its buttons, as the Next button carries it. Held in memory, per instance: after a restart, or in another
// instance, `next` says there is no result to page and the Next button still works.
import type { ButtonStateStore } from './types.js';

/** Conversations remembered at most; the least recently searched go first. */
const MAX_CONVERSATIONS = 10_000;

export class LastResults {
  private readonly rows = new Map<string, string>();

  /** The row token of the last page shown in the conversation, if any. */
  of(scope: string): string | undefined {
    return this.rows.get(scope);
  }

  /** The conversation's button state, remembering each page row it saves as the conversation's last result. */
  track(state: ButtonStateStore, scope: string): ButtonStateStore {
    return {
      load: (token) => state.load(token),
      save: async (kind, payload) => {
        const token = await state.save(kind, payload);
        if (kind === 'page') this.remember(scope, token);
        return token;
      },
    };
  }

  private remember(scope: string, token: string): void {
    this.rows.delete(scope);
    this.rows.set(scope, token);
    if (this.rows.size > MAX_CONVERSATIONS) this.rows.delete(this.rows.keys().next().value!);
  }
}
