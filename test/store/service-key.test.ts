// One key per property service in every table with a `service` column: alerts saved while UAE_API_BASE_URL was
// written with a trailing slash or capitals are not orphaned when it is written otherwise.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createButtonStateRepo } from '../../src/store/button-state.js';
import { adoptServiceSpellings, createAlertsRepo, openStore, serviceKey } from '../../src/store/index.js';
import { tempDir } from './helpers.js';

const saved = (service: string) => ({
  service,
  channel: 'slack:T1:C1',
  owner: 'U1',
  text: 'rent marina',
  query: '{}',
  operation: 'search-rent',
  paramsKey: 'k',
  summary: 'Homes for rent in Dubai Marina',
});
const limits = { perChannel: 25, perOwner: 10 };

describe('service keys', () => {
  it('are the base URL in canonical form', () => {
    expect(serviceKey('https://API.example.ae/v1/')).toBe('https://api.example.ae/v1');
    expect(serviceKey(' https://api.example.ae ')).toBe('https://api.example.ae');
    expect(serviceKey('sandbox')).toBe('sandbox');
  });

  it('move alerts and buttons saved under another spelling of the service to its key, and nothing else', async () => {
    const file = path.join(tempDir(), 'm.db');
    const store = openStore(file);
    const alerts = createAlertsRepo(store);
    expect((await alerts.create(saved('https://API.example.ae/'), limits)).ok).toBe(true);
    expect((await alerts.create(saved('https://other.example.ae'), limits)).ok).toBe(true);
    const token = createButtonStateRepo(store, Date.now, 'https://api.example.ae/').save('page', { v: 1 });

    expect(adoptServiceSpellings(store, 'https://api.example.ae')).toBe(2);
    expect((await alerts.due('https://api.example.ae', Date.now() + 1)).map((s) => s.text)).toEqual(['rent marina']);
    expect(await alerts.due('https://other.example.ae', Date.now() + 1)).toHaveLength(1); // another service stays its own
    expect(createButtonStateRepo(store, Date.now, 'https://api.example.ae').load(token)).toMatchObject({
      kind: 'page',
    });
    expect(adoptServiceSpellings(store, 'https://api.example.ae')).toBe(0); // once done, nothing to do
    store.close();
  });
});
