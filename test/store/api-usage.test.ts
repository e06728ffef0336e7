// API usage: calls counted per service and UTC window, across restarts of the process.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApiUsageRepo, openStore, schema } from '../../src/store/index.js';
import { tempDir } from './helpers.js';

const SERVICE = 'https://uae-property.example/api';

describe('api usage', () => {
  it('counts calls per window, 0 for a window never used', async () => {
    const store = openStore(path.join(tempDir(), 'manzil.db'));
    const usage = createApiUsageRepo(store, SERVICE);
    await usage.record(['day:2026-11-01', 'month:2026-11'], Date.UTC(2026, 10, 1, 10));
    await usage.record(['day:2026-11-01', 'month:2026-11'], Date.UTC(2026, 10, 1, 11));
    await usage.record(['day:2026-11-02', 'month:2026-11'], Date.UTC(2026, 10, 2, 9));
    expect(await usage.count('day:2026-11-01')).toBe(2);
    expect(await usage.count('day:2026-11-02')).toBe(1);
    expect(await usage.count('month:2026-11')).toBe(3);
    expect(await usage.count('month:2026-12')).toBe(0);
    const row = store.db
      .select()
      .from(schema.apiUsage)
      .all()
      .find((r) => r.window === 'month:2026-11');
    expect(row).toEqual({ service: SERVICE, window: 'month:2026-11', calls: 3, updatedAt: Date.UTC(2026, 10, 2, 9) });
    store.close();
  });

  it('survives a restart', async () => {
    const file = path.join(tempDir(), 'manzil.db');
    const first = openStore(file);
    await createApiUsageRepo(first, SERVICE).record(['day:2026-11-01', 'month:2026-11'], Date.UTC(2026, 10, 1));
    first.close();
    const second = openStore(file);
    const usage = createApiUsageRepo(second, SERVICE);
    expect(await usage.count('day:2026-11-01')).toBe(1);
    await usage.record(['day:2026-11-01'], Date.UTC(2026, 10, 1, 1));
    expect(await usage.count('day:2026-11-01')).toBe(2);
    second.close();
  });

  it('keeps each service apart', async () => {
    const store = openStore(path.join(tempDir(), 'manzil.db'));
    await createApiUsageRepo(store, SERVICE).record(['month:2026-11'], 1);
    expect(await createApiUsageRepo(store, 'http://127.0.0.1:4010').count('month:2026-11')).toBe(0);
    expect(await createApiUsageRepo(store, SERVICE).count('month:2026-11')).toBe(1);
    store.close();
  });
});
