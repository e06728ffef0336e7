// The standing orders' written contracts (src/store/contracts/{standing-orders,alerts,digests}.ts) are plain
// interfaces; their rows must stay the schemas' rows on both databases (standing_order, and each kind's side table),
// and each kind's row a standing order's with its own fields.
// Checked by the type checker: `npx tsc --noEmit`.
import { describe, expectTypeOf, it } from 'vitest';
import type { AlertFieldsRow, AlertRow } from '../../src/store/contracts/alerts.js';
import type { DigestFieldsRow, DigestRow } from '../../src/store/contracts/digests.js';
import type { StandingOrderRow } from '../../src/store/contracts/standing-orders.js';
import type { schema } from '../../src/store/index.js';
import type * as pgSchema from '../../src/store/pg/schema.js';

describe('the standing orders contracts', () => {
  it('write the rows as both schemas read them', () => {
    expectTypeOf<typeof schema.standingOrder.$inferSelect>().toEqualTypeOf<StandingOrderRow>();
    expectTypeOf<typeof pgSchema.standingOrder.$inferSelect>().toEqualTypeOf<StandingOrderRow>();
    expectTypeOf<typeof schema.alertFields.$inferSelect>().toEqualTypeOf<AlertFieldsRow>();
    expectTypeOf<typeof pgSchema.alertFields.$inferSelect>().toEqualTypeOf<AlertFieldsRow>();
    expectTypeOf<typeof schema.digestFields.$inferSelect>().toEqualTypeOf<DigestFieldsRow>();
    expectTypeOf<typeof pgSchema.digestFields.$inferSelect>().toEqualTypeOf<DigestFieldsRow>();
  });

  it('make each kind a standing order, its row the two tables read as one', () => {
    expectTypeOf<StandingOrderRow & AlertFieldsRow>().toExtend<AlertRow>();
    expectTypeOf<AlertRow>().toExtend<AlertFieldsRow>();
    expectTypeOf<StandingOrderRow & DigestFieldsRow>().toExtend<DigestRow>();
    expectTypeOf<DigestRow>().toExtend<DigestFieldsRow>();
    expectTypeOf<AlertRow>().toExtend<StandingOrderRow>();
    expectTypeOf<DigestRow>().toExtend<StandingOrderRow>();
  });
});
