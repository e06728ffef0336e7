// The store's written contracts (src/store/contracts/) are plain interfaces, so that the SQLite and Postgres sides
// share them without either importing the other; the rows among them must stay the SQLite schema's rows (the Postgres
// schema is held equal to that one by pg-schema.test.ts). Checked by the type checker: `npx tsc --noEmit`.
import { describe, expectTypeOf, it } from 'vitest';
import type { OutboxRow } from '../../src/store/contracts/outbox.js';
import type { SeenRow } from '../../src/store/contracts/seen.js';
import type { schema } from '../../src/store/index.js';

describe('the store contracts', () => {
  it('write the rows as the schema reads them', () => {
    expectTypeOf<typeof schema.outbox.$inferSelect>().toEqualTypeOf<OutboxRow>();
    expectTypeOf<typeof schema.searchSeen.$inferSelect>().toEqualTypeOf<SeenRow>();
  });
});
