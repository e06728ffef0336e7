// The key every table with a `service` column uses for the property service: its base URL in canonical form
// (`new URL`, no trailing slash), so `https://api.example.ae/` and `https://API.example.ae` are one service; anything
// else (`sandbox`) as given.
import { eq, ne } from 'drizzle-orm';
import type { Store } from './db.js';
import { buttonState, standingOrder } from './schema.js';

export function serviceKey(service: string): string {
  try {
    return new URL(service.trim()).href.replace(/\/+$/, '');
  } catch {
    return service; // not a URL
  }
}

/**
 * Standing orders (saved searches, digests) and buttons stored under another spelling of `key` (kept before keys were canonical: a trailing
 * slash, capitals) are moved to it, so changing how UAE_API_BASE_URL is written never orphans an alert. Returns how
 * many rows moved.
 */
export function adoptServiceSpellings(store: Store, key: string): number {
  let moved = 0;
  store.db.transaction((tx) => {
    for (const table of [standingOrder, buttonState]) {
      const spellings = tx.selectDistinct({ service: table.service }).from(table).where(ne(table.service, key)).all();
      for (const { service } of spellings) {
        if (service !== '' && serviceKey(service) === key)
          moved += tx.update(table).set({ service: key }).where(eq(table.service, service)).run().changes;
      }
    }
  });
  return moved;
}
