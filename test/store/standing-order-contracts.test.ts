// The standing orders' written contracts (src/store/contracts/{standing-orders,alerts,digests}.ts) are plain
// interfaces; their rows must stay the schemas' rows on both databases, and each kind's row a standing order's.
// Checked by the type checker: `npx tsc --noEmit`.
import { describe, expectTypeOf, it } from 'vitest';
import type { AlertRow } from '../../src/store/contracts/alerts.js';
import type { DigestRow } from '../../src/store/contracts/digests.js';
import type { StandingOrderRow } from '../../src/store/contracts/standing-orders.js';
import type { schema } from '../../src/store/index.js';
import type * as pgSchema from '../../src/store/pg/schema.js';

describe('the standing orders contracts', () => {
  it('write the rows as both schemas read them', () => {
    expectTypeOf<typeof schema.alertDefinition.$inferSelect>().toEqualTypeOf<AlertRow>();
    expectTypeOf<typeof pgSchema.alertDefinition.$inferSelect>().toEqualTypeOf<AlertRow>();
    expectTypeOf<typeof schema.digest.$inferSelect>().toEqualTypeOf<DigestRow>();
    expectTypeOf<typeof pgSchema.digest.$inferSelect>().toEqualTypeOf<DigestRow>();
  });

  it('make each kind a standing order', () => {
    expectTypeOf<AlertRow>().toExtend<StandingOrderRow>();
    expectTypeOf<DigestRow>().toExtend<StandingOrderRow>();
  });
});
