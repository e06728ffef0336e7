// The state behind chat buttons on Postgres, implementing ../contracts/caches.ts (which says what each method promises)
// as ../button-state.ts does on SQLite: a short random token in the button, the payload here, scoped by service and by
// the conversation it was posted in. Each method is one statement, so instances need no more than the row's own lock.
import { and, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { ButtonStateRepo } from '../contracts/caches.js';
import {
  buttonOwners,
  jsonText,
  newButtonToken,
  parseJsonOrUndefined,
  payloadHashOf,
  TOKEN,
} from '../state-and-cache-values.js';
import type { PgStore } from './open.js';
import { buttonState } from './schema.js';

/** `service`: the property service's base URL (or 'sandbox'), as on SQLite. */
export function createPgButtonStateRepo(store: PgStore, now: () => number = Date.now, service = ''): ButtonStateRepo {
  const { db } = store;
  const owners = buttonOwners(service);
  // No scope given: any conversation; else its own, or rows from before scoping ('').
  const inScope = (scope: string | undefined) =>
    scope === undefined ? undefined : or(eq(buttonState.scope, ''), eq(buttonState.scope, scope));
  return {
    async save(kind, payload, scope = '') {
      const at = now();
      const text = jsonText(payload);
      // The row of an identical reply already saved here: kept, marked used, and its token given again.
      const [row] = await db
        .insert(buttonState)
        .values({
          token: newButtonToken(),
          service,
          scope,
          kind,
          payload: text,
          createdAt: at,
          lastUsedAt: at,
          payloadHash: payloadHashOf(kind, text),
        })
        .onConflictDoUpdate({
          target: [buttonState.service, buttonState.scope, buttonState.payloadHash],
          set: { lastUsedAt: sql`excluded.last_used_at` },
        })
        .returning({ token: buttonState.token });
      return row!.token;
    },

    async load<T>(token: string, scope?: string) {
      if (!TOKEN.test(token)) return undefined;
      // Marks it used, and adopts a row from before services (the sandbox only), in the statement that reads it.
      const [row] = await db
        .update(buttonState)
        .set({ lastUsedAt: now(), service })
        .where(and(eq(buttonState.token, token), inArray(buttonState.service, owners), inScope(scope)))
        .returning({ kind: buttonState.kind, payload: buttonState.payload });
      return row ? { kind: row.kind, payload: parseJsonOrUndefined(row.payload) as T } : undefined;
    },

    async prune(olderThanMs) {
      const result = await db.delete(buttonState).where(lt(buttonState.lastUsedAt, now() - olderThanMs));
      return result.rowCount ?? 0;
    },
  };
}
