// The sandbox's records in the service's wire shapes (field names and types as in the spec and upstream-observed).
import type { Dataset } from './dataset.js';
import { typeLabel } from './listings.js';
import type { Agent, Broker, Developer, Listing, Project, Transaction } from './model.js';

export type RentFrequency = 'yearly' | 'monthly' | 'weekly' | 'daily';
const PER_YEAR: Record<RentFrequency, number> = { yearly: 1, monthly: 12, weekly: 52, daily: 365 };
const SITE = 'https://www.sandbox-manzil.example';
const IMG = 'https://img.sandbox-manzil.example';

/** The price a listing shows: sale as is; rent (stored yearly) in the requested period. */
export function shownPrice(l: Listing, frequency: RentFrequency): { value: number; period: string } {
  if (l.category.endsWith('sale')) return { value: l.price, period: 'sell' };
  return { value: Math.round(l.price / PER_YEAR[frequency]), period: frequency };
}

/** Commercial rent is shown monthly unless asked otherwise, residential rent yearly (as upstream). */
export const defaultFrequency = (l: Listing): RentFrequency =>
  l.category === 'commercial_rent' ? 'monthly' : 'yearly';

function priceObject(l: Listing, frequency: RentFrequency) {
  const { value, period } = shownPrice(l, frequency);
  return { value: l.priceHidden ? 0 : value, currency: 'AED', period, is_hidden: l.priceHidden };
}

const images = (l: Listing) => Array.from({ length: l.imageCount }, (_, i) => `${IMG}/l/${l.id}/${i + 1}.jpg`);
const url = (l: Listing) => `${SITE}/property/${l.id}`;

export function listingSummary(ds: Dataset, l: Listing, frequency: RentFrequency = defaultFrequency(l)) {
  const area = ds.geo.byId.get(l.areaId)!;
  const agent = ds.agentById.get(l.agentId)!;
  return {
    property_id: String(l.id),
    property_type: typeLabel(l.type),
    price: priceObject(l, frequency),
    address: { full_name: ds.geo.fullName(area.id), coordinates: { lat: area.lat, lon: area.lon } },
    images: images(l),
    agent_details: l.agentHidden
      ? null
      : {
          id: String(agent.id),
          name: agent.name,
          is_super_agent: agent.superAgent,
          image: agent.image,
          languages: agent.languages.map((x) => x.name),
        },
    broker_id: String(l.brokerId),
    bedrooms: String(l.bedrooms),
    bathrooms: String(l.bathrooms),
    size: { value: l.size, unit: 'sqft' },
    floor_plan_area: l.size,
    title: l.title,
    property_url: url(l),
    // Seen upstream beyond the contract; they let a caller see why a listing matched.
    listed_date: new Date(l.listedAt).toISOString(),
    is_verified: l.verified,
    reference_number: `SBX-${l.id}`,
    furnishing: l.furnishing,
    completion_status: l.completion,
    amenities: l.amenities,
    category: l.category,
  };
}

/** Property details: the summary's fields, with `agent_details` reduced to id and name. */
export function propertyDetails(ds: Dataset, l: Listing) {
  const summary = listingSummary(ds, l);
  const agent = ds.agentById.get(l.agentId)!;
  return { ...summary, agent_details: l.agentHidden ? null : { id: String(agent.id), name: agent.name } };
}

function ownerListing(ds: Dataset, l: Listing) {
  return {
    listing_type: 'property',
    property_id: String(l.id),
    property_type: typeLabel(l.type),
    price: priceObject(l, defaultFrequency(l)),
    location: { id: String(l.areaId), full_name: ds.geo.fullName(l.areaId) },
    broker_id: String(l.brokerId),
    images: images(l),
    title: l.title,
    bedrooms: String(l.bedrooms),
    bathrooms: String(l.bathrooms),
    share_url: url(l),
    category: l.category,
  };
}

export const agentListing = (ds: Dataset, l: Listing) => ({
  ...ownerListing(ds, l),
  size: { value: l.size, unit: 'sqft' },
});

export function brokerListing(ds: Dataset, l: Listing) {
  const agent = ds.agentById.get(l.agentId)!;
  return { ...ownerListing(ds, l), agent_name: agent.name, agent_id: String(agent.id) };
}

export interface AgentCounts {
  total: number;
  sale: number;
  rent: number;
}

export function agentSimple(ds: Dataset, a: Agent, c: AgentCounts) {
  return {
    id: a.id,
    name: a.name,
    image: a.image,
    position: a.position,
    nationality: a.nationality.name,
    total_properties: c.total,
    broker_name: ds.brokerById.get(a.brokerId)!.name,
    broker_id: a.brokerId,
    for_sale: c.sale,
    for_rent: c.rent,
  };
}

export function agentDetailed(ds: Dataset, a: Agent, c: AgentCounts) {
  const broker = ds.brokerById.get(a.brokerId)!;
  return {
    id: a.id,
    slug: a.slug,
    name: a.name,
    totalProperties: c.total,
    phone: a.phone,
    position: a.position,
    nationality: a.nationality,
    broker: { id: broker.id, name: broker.name },
    languages: a.languages,
    image: a.image,
    isSuperAgent: a.superAgent,
    forSale: c.sale,
    forRent: c.rent,
  };
}

export const brokerSimple = (b: Broker, total: number, agents: number) => ({
  id: b.id,
  name: b.name,
  total_properties: total,
  logo: b.logo,
  address: b.address,
  location: b.city,
  agent_count: agents,
});

export const brokerDetailed = (b: Broker, total: number, agents: number) => ({
  id: b.id,
  urlSlug: b.slug,
  name: b.name,
  totalProperties: total,
  phone: b.phone,
  address: b.address,
  location: b.city,
  // Upstream truncates long descriptions.
  description: b.description.length > 160 ? `${b.description.slice(0, 157)}...` : b.description,
  agentCount: agents,
  logo: b.logo,
});

export function project(ds: Dataset, p: Project) {
  return {
    listing_id: p.id,
    name: p.name,
    location: { id: String(p.areaId), full_name: ds.geo.fullName(p.areaId) },
    bedrooms: p.bedrooms,
    price_from: p.priceFrom,
    effective_price: p.effectivePrice,
    images: p.images,
    delivery_date: p.deliveryDate,
    sales_start_date: p.salesStartDate,
    developer_name: ds.developerById.get(p.developerId)!.name,
    construction_phase: 'under_construction',
    property_type: p.type,
    area_from: p.areaFrom,
    area_to: p.areaTo,
  };
}

export function transaction(ds: Dataset, t: Transaction) {
  const community = ds.geo.communityOf(t.areaId)!;
  return {
    id: t.id,
    bedrooms: t.bedrooms,
    high_level_location_name: community.name,
    price: t.price,
    property_type: typeLabel(t.type),
    transaction_date: t.date,
    location_name: ds.geo.byId.get(t.areaId)!.name,
    area_sqft: t.size,
    transaction_type: t.kind,
  };
}

export const developer = (d: Developer, projects: number) => ({
  id: d.id,
  name: d.name,
  description: d.description,
  established_since: d.establishedSince,
  num_projects_online: projects,
  logo_url: d.logo,
  slug: d.slug,
});
