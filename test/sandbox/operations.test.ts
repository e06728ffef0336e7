// Every operation answers over HTTP with the envelope, and every record parses with the client's schema
// without losing a field (a soft field that fails its type would silently become undefined).
import { describe, expect, it } from 'vitest';
import { OPERATIONS, OPERATION_NAMES, type OperationName } from '../../src/api/operations.js';
import { useSandbox } from './helpers.js';

const sb = useSandbox();

/** Paths where the raw record has a value but the parsed one lost it. */
function lostPaths(raw: unknown, parsed: unknown, path = ''): string[] {
  if (raw === null || raw === undefined) return [];
  if (parsed === undefined || parsed === null) return [path || '(root)'];
  if (Array.isArray(raw)) return raw.flatMap((v, i) => lostPaths(v, (parsed as unknown[])[i], `${path}[${i}]`));
  if (typeof raw === 'object') {
    return Object.entries(raw).flatMap(([k, v]) =>
      lostPaths(v, (parsed as Record<string, unknown>)[k], `${path}.${k}`),
    );
  }
  return [];
}

async function sampleParams(): Promise<Record<OperationName, Record<string, string>>> {
  const listing = (await sb.api('/search-buy', { location_id: '50' })).json.data[0];
  const agent = (await sb.api('/search-agents', { location_id: '50' })).json.data[0];
  return {
    'search-buy': { location_id: '50' },
    'search-rent': { location_id: '50' },
    'search-commercial-rent': { location_id: '86' },
    'search-commercial-buy': { location_id: '86' },
    'search-new-projects': { location_id: '2' },
    'agent-properties': { agent_id: String(agent.id) },
    'broker-properties': { broker_id: listing.broker_id },
    'get-get-transactions': { location_id: '50', transaction_type: 'sold' },
    'get-adrec-transactions': {},
    'property-details': { property_id: listing.property_id },
    'search-agents': { location_id: '50' },
    'search-agents-detailed': { location_id: '50' },
    'search-brokers': {},
    'search-brokers-detailed': { location_id: '51' },
    'autocomplete-location': { query: 'dubai' },
    'real-estate-developer': { location: 'dubai' },
    'price-trend-of-location': { location_id: '50' },
  };
}

describe('every operation', () => {
  it('answers 200 with success and records that parse with records.ts, field for field', async () => {
    const params = await sampleParams();
    for (const op of OPERATION_NAMES) {
      const spec = OPERATIONS[op];
      const r = await sb.api(spec.path, params[op]);
      expect(r.status, op).toBe(200);
      expect(r.headers.get('content-type'), op).toMatch(/^application\/json/);
      expect(r.json.success, op).toBe(true);
      const rows: unknown[] = spec.shape === 'one' ? [r.json.data] : r.json.data;
      expect(Array.isArray(rows), op).toBe(true);
      expect(rows.length, `${op} has records`).toBeGreaterThan(0);
      for (const row of rows) {
        const parsed = spec.record.safeParse(row);
        expect(parsed.success, `${op}: ${JSON.stringify(row).slice(0, 200)}`).toBe(true);
        expect(lostPaths(row, parsed.data), op).toEqual([]);
      }
    }
  });

  it('ADREC alone carries a message next to success', async () => {
    const adrec = await sb.api('/get-adrec-transactions');
    expect(typeof adrec.json.message).toBe('string');
    const buy = await sb.api('/search-buy', { location_id: '50' });
    expect(buy.json).not.toHaveProperty('message');
  });
});

describe('record shapes follow the spec', () => {
  it('listing summaries: numeric-text ids, string rooms, AED price, sqft size, address and https .example URLs', async () => {
    const { json } = await sb.api('/search-rent', { location_id: '50' });
    for (const l of json.data) {
      expect(l.property_id).toMatch(/^\d+$/);
      expect(typeof l.bedrooms).toBe('string');
      expect(typeof l.bathrooms).toBe('string');
      expect(l.price).toMatchObject({ currency: 'AED', period: 'yearly' });
      expect(typeof l.price.value).toBe('number');
      expect(typeof l.price.is_hidden).toBe('boolean');
      expect(l.size).toMatchObject({ unit: 'sqft' });
      expect(typeof l.address.full_name).toBe('string');
      expect(typeof l.address.coordinates.lat).toBe('number');
      expect(l.property_url).toBe(`https://www.sandbox-manzil.example/property/${l.property_id}`);
      for (const img of l.images) expect(img).toMatch(/^https:\/\/[a-z.-]+\.example\//);
      expect(typeof l.broker_id).toBe('string');
      if (l.agent_details)
        expect(l.agent_details).toMatchObject({
          id: expect.any(String),
          name: expect.any(String),
          is_super_agent: expect.any(Boolean),
          languages: expect.any(Array),
        });
    }
    const sale = (await sb.api('/search-buy', { location_id: '50' })).json.data[0];
    expect(sale.price.period).toBe('sell');
  });

  it('property details carry only id and name in agent_details', async () => {
    const all = await sb.all('/search-buy', { location_id: '51' });
    const withAgent = all.find((l) => l.agent_details);
    const { json } = await sb.api('/property-details', { property_id: withAgent.property_id });
    expect(json.data.property_id).toBe(withAgent.property_id);
    expect(Object.keys(json.data.agent_details).sort()).toEqual(['id', 'name']);
  });

  it('agent and broker listings use location {id as string, full_name} and share_url', async () => {
    const agent = (await sb.api('/search-agents', { location_id: '50' })).json.data[0];
    const a = (await sb.api('/agent-properties', { agent_id: String(agent.id) })).json.data;
    for (const l of a) {
      expect(l.listing_type).toBe('property');
      expect(typeof l.location.id).toBe('string');
      expect(l.share_url).toMatch(/^https:\/\/www\.sandbox-manzil\.example\/property\/\d+$/);
      expect(l.size.unit).toBe('sqft');
      expect(l).not.toHaveProperty('address');
    }
    const b = (await sb.api('/broker-properties', { broker_id: String(a[0].broker_id) })).json.data;
    for (const l of b)
      expect(l).toMatchObject({ agent_name: expect.any(String), agent_id: expect.stringMatching(/^\d+$/) });
  });

  it('projects, transactions, developers, trends and locations have the spec types', async () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const projects = (await sb.api('/search-new-projects', { location_id: '2' })).json.data;
    for (const p of projects) {
      expect(p.listing_id).toMatch(uuid);
      expect(p.bedrooms.every(Number.isInteger)).toBe(true);
      expect(new Date(p.delivery_date).toISOString()).toBe(p.delivery_date);
      expect(p.construction_phase).toBe('under_construction');
      expect(p.property_type).toMatch(/^[a-z-]+$/);
    }
    const allProjects = await sb.all('/search-new-projects', { location_id: '2' });
    expect(allProjects.some((p) => p.images.some((i: string) => i.endsWith('.webp')))).toBe(true);

    const tx = (await sb.api('/get-get-transactions', { location_id: '50', transaction_type: 'rented' })).json.data;
    for (const t of tx) {
      expect(t.id).toMatch(/^[0-9a-f]+$/);
      expect(Number.isInteger(t.bedrooms)).toBe(true);
      expect(t.transaction_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(t.high_level_location_name).toBe('Dubai Marina');
    }
    const devs = (await sb.api('/real-estate-developer')).json.data;
    for (const d of devs) {
      expect(d.id).toMatch(uuid);
      expect(d.description).toMatch(/<p>/);
    }
    const detailed = (await sb.api('/search-agents-detailed')).json.data[0];
    expect(detailed).toMatchObject({
      totalProperties: expect.any(Number),
      nationality: { code: expect.stringMatching(/^[A-Z]{2}$/) },
      broker: { id: expect.any(Number) },
    });
    expect(detailed.phone).toMatch(/^\+971\d+$/);
    const brokerDetailed = (await sb.api('/search-brokers-detailed')).json.data[0];
    expect(brokerDetailed).toMatchObject({ urlSlug: expect.any(String), totalProperties: expect.any(Number) });
    const loc = (await sb.api('/autocomplete-location', { query: 'business bay' })).json.data[0];
    expect(loc).toEqual({
      id: 86,
      name: 'Business Bay',
      coordinates: { lat: expect.any(Number), lon: expect.any(Number) },
    });
  });

  it('price trend: 12 months for each bedroom count 0..4, ending at the market clock month, AED per sqft', async () => {
    const { json } = await sb.api('/price-trend-of-location', { location_id: '5001' });
    expect(json.data).toHaveLength(60);
    for (let bed = 0; bed <= 4; bed++) {
      const points = json.data.filter((p: { bedroom_id: number }) => p.bedroom_id === bed);
      expect(points).toHaveLength(12);
      expect(points.at(-1).period).toBe('Nov 2026');
      expect(points[0].period).toBe('Dec 2025');
    }
    // Dubai Marina is around 2,230 AED/sqft; a tower's own figure sits near its community's.
    for (const p of json.data) {
      expect(p.community_price).toBeGreaterThan(1800);
      expect(p.community_price).toBeLessThan(2800);
      expect(p.time_frame).toBe('1Y');
    }
  });
});
