// The error statuses a caller must handle, in the upstream shape {success:false, error, code}.
import { describe, expect, it } from 'vitest';
import { get, useSandbox } from './helpers.js';

const sb = useSandbox({ key: 'k-0123456789' });
const basic = useSandbox({ plan: 'basic' });

const expectError = (
  r: { status: number; json: { success: boolean; error: string; code: number } },
  status: number,
) => {
  expect(r.status).toBe(status);
  expect(r.json).toEqual({ success: false, error: expect.any(String), code: status });
};

describe('400: parameters checked as the real service does', () => {
  it('names a missing required parameter', async () => {
    const r = await sb.api('/search-buy');
    expectError(r, 400);
    expect(r.json.error).toContain('location_id');
  });

  it('names a value outside its set and lists the allowed values', async () => {
    const r = await sb.api('/search-rent', { location_id: '50', rent_frequency: 'hourly' });
    expectError(r, 400);
    expect(r.json.error).toMatch(/rent_frequency/);
    expect(r.json.error).toMatch(/yearly, monthly, weekly, daily/);
  });

  it('refuses commercial rent by the week, a bad amenity and a bad ADREC date', async () => {
    expect((await sb.api('/search-commercial-rent', { location_id: '86', rent_frequency: 'weekly' })).status).toBe(400);
    const amen = await sb.api('/search-buy', { location_id: '50', amenities: 'balcony,jacuzzi' });
    expectError(amen, 400);
    expect(amen.json.error).toContain('jacuzzi');
    const date = await sb.api('/get-adrec-transactions', { fromDate: '2026-01-01' });
    expectError(date, 400);
    expect(date.json.error).toContain('fromDate');
  });

  it('refuses a parameter the operation does not take, and ADREC page numbers are 0-based while others are 1-based', async () => {
    expectError(await sb.api('/search-new-projects', { location_id: '50', bathrooms: '2' }), 400);
    expectError(await sb.api('/search-buy', { location_id: '50', page: '0' }), 400);
    expect((await sb.api('/get-adrec-transactions', { page: '0' })).status).toBe(200);
  });

  it('answers 400 for an optional parameter sent empty, as upstream does', async () => {
    const r = await sb.api('/search-buy', { location_id: '50', property_type: '' });
    expectError(r, 400);
    expect(r.json.error).toContain('property_type');
  });
});

describe('401, 403 and 404', () => {
  it('401 when the key header is missing or wrong', async () => {
    expectError(await get(sb.url, '/search-buy', { location_id: '50' }, null), 401);
    expectError(await get(sb.url, '/search-buy', { location_id: '50' }, 'not-the-key'), 401);
    expect((await get(sb.url, '/search-buy', { location_id: '50' }, 'k-0123456789')).status).toBe(200);
  });

  it('403 for the detailed agent and brokerage searches on the basic plan only', async () => {
    expectError(await basic.api('/search-agents-detailed'), 403);
    expectError(await basic.api('/search-brokers-detailed'), 403);
    expect((await basic.api('/search-agents')).status).toBe(200);
    expect((await sb.api('/search-agents-detailed')).status).toBe(200);
  });

  it('404 for an unknown property id and an unknown path', async () => {
    const r = await sb.api('/property-details', { property_id: '999' });
    expectError(r, 404);
    expect(r.json.error).toContain('999');
    expectError(await sb.api('/search-castles', { location_id: '50' }), 404);
  });

  it('an empty search is 200 with data [], not an error', async () => {
    const r = await sb.api('/search-buy', { location_id: '50', price_max: '10' });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ success: true, data: [] });
  });
});
