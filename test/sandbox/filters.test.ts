// Every filter family really filters, sorts really sort, and paging has a fixed size and an empty end.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useSandbox } from './helpers.js';

const sb = useSandbox();

describe('listing filters', () => {
  it('bedrooms and bathrooms take comma lists, 0 meaning studio', async () => {
    const two = await sb.all('/search-rent', { location_id: '50', bedrooms: '1,2' });
    expect(new Set(two.map((l) => l.bedrooms))).toEqual(new Set(['1', '2']));
    const studios = await sb.all('/search-rent', { location_id: '43', bedrooms: '0' });
    expect(studios.length).toBeGreaterThan(0);
    expect(studios.every((l) => l.bedrooms === '0')).toBe(true);
    const baths = await sb.all('/search-buy', { location_id: '2', bathrooms: '3' });
    expect(baths.length).toBeGreaterThan(0);
    expect(baths.every((l) => l.bathrooms === '3')).toBe(true);
  });

  it('price and area bounds hold on every record, and hidden prices never pass a price bound', async () => {
    const all = await sb.all('/search-buy', { location_id: '2' });
    expect(all.some((l) => l.price.is_hidden)).toBe(true);
    const hits = await sb.all('/search-buy', {
      location_id: '2',
      price_min: '1500000',
      price_max: '3000000',
      area_min: '800',
      area_max: '1600',
    });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.length).toBeLessThan(all.length);
    for (const l of hits) {
      expect(l.price.is_hidden).toBe(false);
      expect(l.price.value).toBeGreaterThanOrEqual(1_500_000);
      expect(l.price.value).toBeLessThanOrEqual(3_000_000);
      expect(l.size.value).toBeGreaterThanOrEqual(800);
      expect(l.size.value).toBeLessThanOrEqual(1600);
    }
  });

  it('property_type, furnishing, completion_status and amenities (all requested must be present)', async () => {
    const villas = await sb.all('/search-buy', { location_id: '41', property_type: 'villa' });
    expect(villas.length).toBeGreaterThan(0);
    expect(villas.every((l) => l.property_type === 'Villa')).toBe(true);
    const furnished = await sb.all('/search-rent', { location_id: '2', furnishing: 'furnished' });
    expect(furnished.length).toBeGreaterThan(0);
    expect(furnished.every((l) => l.furnishing === 'furnished')).toBe(true);
    const offPlan = await sb.all('/search-buy', { location_id: '2', completion_status: 'off_plan' });
    expect(offPlan.length).toBeGreaterThan(0);
    expect(offPlan.every((l) => l.completion_status === 'off_plan')).toBe(true);
    const withAmenities = await sb.all('/search-rent', { location_id: '2', amenities: 'balcony,shared_pool' });
    const everything = await sb.all('/search-rent', { location_id: '2' });
    expect(withAmenities.length).toBeGreaterThan(0);
    expect(withAmenities.length).toBeLessThan(everything.length);
    for (const l of withAmenities) expect(l.amenities).toEqual(expect.arrayContaining(['balcony', 'shared_pool']));
  });

  it('a community includes its buildings; a building gives only itself; a city includes its communities', async () => {
    const marina = await sb.all('/search-rent', { location_id: '50' });
    expect(marina.some((l) => l.address.full_name.startsWith('Vida Residences Dubai Marina, Dubai Marina'))).toBe(true);
    expect(marina.some((l) => l.address.full_name === 'Dubai Marina, Dubai')).toBe(true);
    const vida = await sb.all('/search-rent', { location_id: '5001' });
    expect(vida.length).toBeGreaterThan(0);
    expect(vida.every((l) => l.address.full_name === 'Vida Residences Dubai Marina, Dubai Marina, Dubai')).toBe(true);
    const dubai = await sb.all('/search-rent', { location_id: '2', bedrooms: '4' });
    expect(new Set(dubai.map((l) => l.address.full_name.split(', ').at(-2))).size).toBeGreaterThan(5);
  });

  it('rent_frequency decides the period prices are shown and compared in', async () => {
    const yearly = await sb.all('/search-rent', { location_id: '50' });
    const monthly = await sb.all('/search-rent', { location_id: '50', rent_frequency: 'monthly' });
    expect(yearly.every((l) => l.price.period === 'yearly')).toBe(true);
    expect(monthly.every((l) => l.price.period === 'monthly')).toBe(true);
    const byId = new Map(yearly.map((l) => [l.property_id, l.price.value]));
    for (const l of monthly.filter((m) => !m.price.is_hidden))
      expect(l.price.value).toBe(Math.round(byId.get(l.property_id)! / 12));
    const cheap = await sb.all('/search-rent', { location_id: '50', rent_frequency: 'monthly', price_max: '9000' });
    expect(cheap.length).toBeGreaterThan(0);
    expect(cheap.every((l) => l.price.value <= 9000)).toBe(true);
    const daily = (await sb.api('/search-rent', { location_id: '50', rent_frequency: 'daily' })).json.data[0];
    expect(daily.price.period).toBe('daily');
    // Commercial rent defaults to monthly, as in the spec.
    const offices = (await sb.api('/search-commercial-rent', { location_id: '86' })).json.data;
    expect(offices.every((l: { price: { period: string } }) => l.price.period === 'monthly')).toBe(true);
    const officesYearly = (await sb.api('/search-commercial-rent', { location_id: '86', rent_frequency: 'yearly' }))
      .json.data;
    expect(officesYearly[0].price.period).toBe('yearly');
  });

  it('sorts: price ascending and descending (hidden prices last), newest first by listing date', async () => {
    const asc = await sb.all('/search-buy', { location_id: '51', sort: 'price_asc' });
    const shown = (ls: typeof asc) => ls.filter((l) => !l.price.is_hidden).map((l) => l.price.value as number);
    expect(shown(asc)).toEqual([...shown(asc)].sort((a, b) => a - b));
    expect(asc.findIndex((l) => l.price.is_hidden)).toBeGreaterThanOrEqual(shown(asc).length);
    const desc = await sb.all('/search-buy', { location_id: '51', sort: 'price_desc' });
    expect(shown(desc)).toEqual([...shown(desc)].sort((a, b) => b - a));
    const newest = await sb.all('/search-buy', { location_id: '51' });
    const dates = newest.map((l) => l.listed_date as string);
    expect(dates).toEqual([...dates].sort().reverse());
    const featured = await sb.all('/search-buy', { location_id: '51', sort: 'featured' });
    expect(featured.map((l) => l.property_id)).not.toEqual(newest.map((l) => l.property_id));
  });

  it('pages hold 25 listings, differ, and run out into data: []', async () => {
    const p1 = (await sb.api('/search-rent', { location_id: '50', page: '1' })).json.data;
    const p2 = (await sb.api('/search-rent', { location_id: '50', page: '2' })).json.data;
    expect(p1).toHaveLength(25);
    expect(p2.length).toBeGreaterThan(0);
    const ids1 = new Set(p1.map((l: { property_id: string }) => l.property_id));
    expect(p2.some((l: { property_id: string }) => ids1.has(l.property_id))).toBe(false);
    expect((await sb.api('/search-rent', { location_id: '50', page: '500' })).json).toEqual({
      success: true,
      data: [],
    });
  });

  it('holds for random filter combinations (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(['0', '1', '2', '3', '4'], { minLength: 1 }),
        fc.integer({ min: 30_000, max: 300_000 }),
        fc.integer({ min: 300, max: 2000 }),
        fc.constantFrom(undefined, 'furnished', 'unfurnished', 'partly'),
        async (beds, priceMax, areaMin, furnishing) => {
          const params: Record<string, string> = {
            location_id: '2',
            bedrooms: beds.join(','),
            price_max: String(priceMax),
            area_min: String(areaMin),
          };
          if (furnishing) params.furnishing = furnishing;
          const { json } = await sb.api('/search-rent', params);
          for (const l of json.data) {
            expect(beds).toContain(l.bedrooms);
            expect(l.price.value).toBeLessThanOrEqual(priceMax);
            expect(l.size.value).toBeGreaterThanOrEqual(areaMin);
            if (furnishing) expect(l.furnishing).toBe(furnishing);
          }
        },
      ),
      { numRuns: 25, seed: 7 },
    );
  });
});

describe('agent and brokerage listings', () => {
  it('category filters, and every listing belongs to the agent or brokerage asked for', async () => {
    const agents = (
      await sb.api('/search-agents', { location_id: '2', category: 'residential_rent', sort: 'most_rentals' })
    ).json.data;
    const agent = agents[0];
    const all = await sb.all('/agent-properties', { agent_id: String(agent.id) });
    expect(all).toHaveLength(agent.total_properties);
    const rent = await sb.all('/agent-properties', { agent_id: String(agent.id), category: 'residential_rent' });
    expect(rent.length).toBe(agent.for_rent - all.filter((l) => l.category === 'commercial_rent').length);
    expect(rent.every((l) => l.category === 'residential_rent')).toBe(true);
    const broker = await sb.all('/broker-properties', {
      broker_id: String(agent.broker_id),
      category: 'residential_rent',
    });
    expect(broker.length).toBeGreaterThanOrEqual(rent.length);
    expect(broker.every((l) => l.broker_id === String(agent.broker_id) && l.category === 'residential_rent')).toBe(
      true,
    );
    expect(broker.some((l) => l.agent_id === String(agent.id))).toBe(true);
  });
});

describe('agents, brokerages, developers and projects', () => {
  it('agents sort by sales or rentals; a location narrows them', async () => {
    const bySales = await sb.all('/search-agents', { sort: 'most_sales' });
    const sales = bySales.map((a) => a.for_sale as number);
    expect(sales).toEqual([...sales].sort((a, b) => b - a));
    const rentals = (await sb.all('/search-agents', { sort: 'most_rentals', category: 'residential_rent' })).map(
      (a) => a.for_rent as number,
    );
    expect(rentals).toEqual([...rentals].sort((a, b) => b - a));
    const inAjman = await sb.all('/search-agents', { location_id: '5' });
    expect(inAjman.length).toBeGreaterThan(0);
    expect(inAjman.length).toBeLessThan(bySales.length);
  });

  it('brokerages sort by agents or properties; pages of 20', async () => {
    const byAgents = await sb.all('/search-brokers', { sort: 'most_agents' });
    const n = byAgents.map((b) => b.agent_count as number);
    expect(n).toEqual([...n].sort((a, b) => b - a));
    const page1 = (await sb.api('/search-brokers', { sort: 'most_properties' })).json.data;
    expect(page1).toHaveLength(20);
    const totals = page1.map((b: { total_properties: number }) => b.total_properties);
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
    const sharjah = await sb.all('/search-brokers-detailed', { location_id: '4' });
    expect(sharjah.every((b) => b.location === 'Sharjah')).toBe(true);
  });

  it('developers by emirate, 20 a page', async () => {
    const dubai = await sb.all('/real-estate-developer', { location: 'dubai' });
    const abuDhabi = await sb.all('/real-estate-developer', { location: 'abu-dhabi' });
    expect(dubai.length).toBeGreaterThan(20);
    expect((await sb.api('/real-estate-developer')).json.data).toHaveLength(20);
    expect(abuDhabi.length).toBeGreaterThan(0);
    const ids = new Set(dubai.map((d) => d.id));
    expect(abuDhabi.some((d) => ids.has(d.id))).toBe(false);
  });

  it('projects filter by bedrooms offered, price from and type, and sort by delivery', async () => {
    const twoBeds = await sb.all('/search-new-projects', {
      location_id: '2',
      bedrooms: '2',
      price_max: '3000000',
      property_type: 'apartment',
    });
    expect(twoBeds.length).toBeGreaterThan(0);
    for (const p of twoBeds) {
      expect(p.bedrooms).toContain(2);
      expect(p.price_from).toBeLessThanOrEqual(3_000_000);
      expect(p.property_type).toBe('apartment');
    }
    const byDelivery = (await sb.all('/search-new-projects', { location_id: '2', sort: 'delivery_earliest' })).map(
      (p) => p.delivery_date as string,
    );
    expect(byDelivery).toEqual([...byDelivery].sort());
  });
});

describe('transactions', () => {
  it('filter by type, bedrooms, property type and a period relative to the market clock; 15 a page', async () => {
    const sold = await sb.all('/get-get-transactions', {
      location_id: '50',
      transaction_type: 'sold',
      bedrooms: '1',
      property_type: 'apartment',
    });
    expect(sold.length).toBeGreaterThan(0);
    expect(
      sold.every((t) => t.bedrooms === 1 && t.property_type === 'Apartment' && t.transaction_type === 'sold'),
    ).toBe(true);
    const year = await sb.all('/get-get-transactions', { location_id: '50', transaction_type: 'rented' });
    const quarter = await sb.all('/get-get-transactions', {
      location_id: '50',
      transaction_type: 'rented',
      period: '3m',
    });
    expect(quarter.length).toBeGreaterThan(0);
    expect(quarter.length).toBeLessThan(year.length);
    expect(quarter.every((t) => t.transaction_date >= '2026-08-01' && t.transaction_date <= '2026-11-01')).toBe(true);
    expect(year.every((t) => t.transaction_date >= '2025-11-01')).toBe(true);
    expect(
      (await sb.api('/get-get-transactions', { location_id: '50', transaction_type: 'sold' })).json.data,
    ).toHaveLength(15);
  });

  it('sort by price or date', async () => {
    const high = (
      await sb.all('/get-get-transactions', { location_id: '51', transaction_type: 'sold', sort: 'high_price' })
    ).map((t) => t.price as number);
    expect(high).toEqual([...high].sort((a, b) => b - a));
    const oldest = (
      await sb.all('/get-get-transactions', { location_id: '51', transaction_type: 'sold', sort: 'oldest' })
    ).map((t) => t.transaction_date as string);
    expect(oldest).toEqual([...oldest].sort());
  });
});

describe('ADREC', () => {
  it('pages are 0-based with `size` records, and run out into []', async () => {
    const p0 = (await sb.api('/get-adrec-transactions', { size: '5', page: '0' })).json.data;
    const p1 = (await sb.api('/get-adrec-transactions', { size: '5', page: '1' })).json.data;
    const ten = (await sb.api('/get-adrec-transactions', { size: '10' })).json.data;
    expect(p0).toHaveLength(5);
    expect([...p0, ...p1]).toEqual(ten);
    expect((await sb.api('/get-adrec-transactions')).json.data).toHaveLength(20);
    expect((await sb.api('/get-adrec-transactions', { page: '1000' })).json.data).toEqual([]);
  });

  it('filters by district list, property type list and date range', async () => {
    const r = await sb.api('/get-adrec-transactions', {
      district: 'Yas Island,Al Reem Island',
      propertyType: 'apartment,villa',
      size: '100',
    });
    expect(r.json.data.length).toBeGreaterThan(10);
    for (const x of r.json.data) {
      expect(['Yas Island', 'Al Reem Island']).toContain(x.district);
      expect(['apartment', 'villa']).toContain(x.propertyType);
    }
    const d = (await sb.api('/get-adrec-transactions', { fromDate: '01/03/2026', toDate: '31/03/2026', size: '100' }))
      .json.data;
    expect(d.length).toBeGreaterThan(0);
    expect(d.every((x: { transactionDate: string }) => x.transactionDate.endsWith('/03/2026'))).toBe(true);
    const districts = new Set<string>();
    for (let page = 0; ; page++) {
      const rows = (await sb.api('/get-adrec-transactions', { size: '100', page: String(page) })).json.data;
      if (rows.length === 0) break;
      for (const x of rows) districts.add(x.district);
    }
    expect(districts.size).toBeGreaterThanOrEqual(15);
  });
});
