// The state behind chat buttons: a short random token in the button, the payload here.
import { randomBytes } from 'node:crypto';
import { eq, lt } from 'drizzle-orm';
import type { Store } from './db.js';
import { buttonState } from './schema.js';

export interface ButtonStateRepo {
  /** Stores the payload (JSON) and returns its token: 22 url-safe characters. */
  save(kind: string, payload: unknown): string;
  /** The saved state, or undefined for an unknown (or pruned) token. Marks the token as used now. */
  load<T = unknown>(token: string): { kind: string; payload: T } | undefined;
  /** Deletes states not used for `olderThanMs`; returns how many. */
  prune(olderThanMs: number): number;
}

export function createButtonStateRepo(store: Store, now: () => number = Date.now): ButtonStateRepo {
  const { db } = store;
  return {
    save(kind, payload) {
      // 128 random bits: unguessable, so a token cannot be forged to reach someone else's state.
      const token = randomBytes(16).toString('base64url');
      const at = now();
      db.insert(buttonState)
        .values({ token, kind, payload: JSON.stringify(payload ?? null), createdAt: at, lastUsedAt: at })
        .run();
      return token;
    },
    load<T>(token: string) {
      const row = db
        .update(buttonState)
        .set({ lastUsedAt: now() })
        .where(eq(buttonState.token, token))
        .returning({ kind: buttonState.kind, payload: buttonState.payload })
        .get();
      return row ? { kind: row.kind, payload: JSON.parse(row.payload) as T } : undefined;
    },
    prune(olderThanMs) {
      return db.delete(buttonState).where(lt(buttonState.lastUsedAt, now() - olderThanMs)).run().changes;
    },
  };
}
