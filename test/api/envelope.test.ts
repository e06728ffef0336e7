import { describe, expect, it } from 'vitest';
import { readEnvelope } from '../../src/api/envelope.js';
import { OPERATIONS } from '../../src/api/operations.js';

const listing = (id: unknown, extra: Record<string, unknown> = {}) => ({
  property_id: id,
  title: 'Marina view 1BR',
  price: { value: 95000, currency: 'AED', period: 'yearly', is_hidden: false },
  ...extra,
});

describe('readEnvelope', () => {
  it('drops and counts a record it cannot understand, keeping the rest of the page', () => {
    const env = readEnvelope(OPERATIONS['search-rent'], {
      success: true,
      data: [listing('1'), { nonsense: true }, listing(2)],
    });
    expect('problem' in env).toBe(false);
    if ('problem' in env) return;
    expect(env.records).toHaveLength(2);
    expect(env.dropped).toBe(1);
    expect((env.records[1] as { property_id: string }).property_id).toBe('2');
  });

  it('keeps unknown fields and tolerates null or mistyped known ones', () => {
    const env = readEnvelope(OPERATIONS['search-rent'], {
      success: true,
      data: [listing('7', { agent_details: null, bedrooms: null, size: 'big', reference_number: 'R-1' })],
    });
    if ('problem' in env) throw new Error(env.problem);
    const rec = env.records[0] as Record<string, unknown>;
    expect(rec.reference_number).toBe('R-1');
    expect(rec.agent_details).toBeNull();
    expect(rec.size).toBeUndefined();
  });

  it('treats data: [] as an empty result and a missing data as a fault', () => {
    const empty = readEnvelope(OPERATIONS['search-rent'], { success: true, data: [] });
    expect(empty).toEqual({ records: [], dropped: 0 });
    expect(readEnvelope(OPERATIONS['search-rent'], { success: true })).toEqual({ problem: 'the answer has no "data"' });
    expect('problem' in readEnvelope(OPERATIONS['search-rent'], { success: true, data: 'x' })).toBe(true);
  });

  it('reads the nested transactions shape with its summary and paging', () => {
    const env = readEnvelope(OPERATIONS['get-get-transactions'], {
      success: true,
      data: {
        data: {
          attributes: {
            transactions: [{ id: 'ab12', price: 1200000, bedrooms: 2 }],
            summary: { count: 1 },
            total_items: 31,
            total_pages: 3,
          },
        },
      },
    });
    if ('problem' in env) throw new Error(env.problem);
    expect(env.records).toHaveLength(1);
    expect(env.summary).toEqual({ count: 1 });
    expect(env.totalItems).toBe(31);
  });

  it('keeps ADREC records exactly as received, with the message', () => {
    const row = { District: 'Al Reem Island', price: '1,200,000', nested: { a: 1 } };
    const env = readEnvelope(OPERATIONS['get-adrec-transactions'], { success: true, message: 'ok', data: [row] });
    if ('problem' in env) throw new Error(env.problem);
    expect(env.records[0]).toEqual(row);
    expect(env.message).toBe('ok');
  });
});
