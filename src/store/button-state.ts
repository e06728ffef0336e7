// The state behind chat buttons: a short random token in the button, the payload here.
import { and, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { Store } from './db.js';
import { buttonState } from './schema.js';
import {
  buttonOwners,
  jsonText,
  newButtonToken,
  parseJsonOrUndefined,
  payloadHashOf,
  TOKEN,
} from './state-and-cache-values.js';
import type { ButtonStateRepo } from './contracts/caches.js';
import type { Synced } from './contracts/synced.js';

export { TOKEN };

/**
 * `service`: the property service's base URL (or 'sandbox'); state saved under one service never loads under another,
 * so the sandbox's sample ids never reach the real API. Rows from before the column existed (service '') could only
 * have been saved on the sandbox or on a service we cannot tell apart, so only the sandbox adopts them; any other
 * service reads them as unknown (the bot answers as for any expired button).
 */
export function createButtonStateRepo(
  store: Store,
  now: () => number = Date.now,
  service = '',
): Synced<ButtonStateRepo> {
  const { db } = store;
  const owners = buttonOwners(service);
  // Every card the outbox posts saves its buttons' state: built once, not per card.
  const insert = db
    .insert(buttonState)
    .values({
      token: sql.placeholder('token'),
      service,
      scope: sql.placeholder('scope'),
      kind: sql.placeholder('kind'),
      payload: sql.placeholder('payload'),
      createdAt: sql.placeholder('at'),
      lastUsedAt: sql.placeholder('at'),
      payloadHash: sql.placeholder('hash'),
    })
    // The row of an identical reply already saved here: kept, marked used, and its token given again.
    .onConflictDoUpdate({
      target: [buttonState.service, buttonState.scope, buttonState.payloadHash],
      set: { lastUsedAt: sql`excluded.last_used_at` },
    })
    .returning({ token: buttonState.token })
    .prepare();
  return {
    save(kind, payload, scope = '') {
      const text = jsonText(payload);
      return insert.get({
        token: newButtonToken(),
        scope,
        kind,
        payload: text,
        at: now(),
        hash: payloadHashOf(kind, text),
      })!.token;
    },
    load(token, scope) {
      if (!TOKEN.test(token)) return undefined;
      // A button pressed in another conversation than its own (a payload crafted with a token seen elsewhere) is
      // unknown.
      const inScope = scope === undefined ? undefined : or(eq(buttonState.scope, ''), eq(buttonState.scope, scope));
      const row = db
        .update(buttonState)
        .set({ lastUsedAt: now(), service })
        .where(and(eq(buttonState.token, token), inArray(buttonState.service, owners), inScope))
        .returning({ kind: buttonState.kind, payload: buttonState.payload })
        .get();
      return row ? { kind: row.kind, payload: parseJsonOrUndefined(row.payload) } : undefined;
    },
    prune(olderThanMs) {
      return db
        .delete(buttonState)
        .where(lt(buttonState.lastUsedAt, now() - olderThanMs))
        .run().changes;
    },
  };
}
