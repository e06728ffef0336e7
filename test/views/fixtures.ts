// Realistic records, parsed through the service's own schemas so their types are what the views really get.
import {
  agentDetailed,
  agentListing,
  agentSimple,
  brokerDetailed,
  brokerListing,
  brokerSimple,
  developer,
  listingSummary,
  newProject,
  propertyDetails,
} from '../../src/api/records.js';

export const searchResult = (over: Record<string, unknown> = {}) =>
  listingSummary.parse({
    property_id: '16266089',
    property_type: 'Apartment',
    price: { value: 120000, currency: 'AED', period: 'yearly', is_hidden: false },
    address: {
      full_name: 'Marina Gate 1, Marina Gate, Dubai Marina, Dubai',
      coordinates: { lat: 25.0862, lon: 55.1472 },
    },
    images: [
      'https://static.example.ae/listing/16266089/416x272.jpg',
      'https://static.example.ae/listing/16266089/2.jpg',
    ],
    agent_details: {
      id: '84213',
      name: 'Sara Haddad',
      is_super_agent: true,
      image: '',
      languages: ['English', 'Arabic'],
    },
    broker_id: '4471',
    bedrooms: '1',
    bathrooms: '2',
    size: { value: 812, unit: 'sqft' },
    floor_plan_area: 812,
    title: 'Full marina view | Chiller free | High floor',
    property_url: 'https://www.propertyfinder.ae/en/plp/rent/apartment-for-rent-dubai-dubai-marina-16266089.html',
    ...over,
  });

export const agentListingRecord = (over: Record<string, unknown> = {}) =>
  agentListing.parse({
    listing_type: 'property',
    property_id: '15880412',
    property_type: 'Villa',
    price: { value: 6_500_000, currency: 'AED', period: 'sell', is_hidden: false },
    location: { id: '1721', full_name: 'Maple 2, Maple at Dubai Hills Estate, Dubai Hills Estate, Dubai' },
    broker_id: '4471',
    images: [],
    title: '',
    bedrooms: '4',
    bathrooms: '5',
    share_url: 'https://www.propertyfinder.ae/en/plp/buy/villa-15880412.html',
    size: { value: 3_120, unit: 'sqft' },
    ...over,
  });

export const brokerListingRecord = (over: Record<string, unknown> = {}) =>
  brokerListing.parse({
    listing_type: 'property',
    property_id: '15990001',
    property_type: 'Apartment',
    price: { value: 52000, currency: 'AED', period: 'yearly', is_hidden: false },
    location: { id: '73', full_name: 'Jumeirah Village Circle, Dubai' },
    broker_id: '4471',
    images: ['https://static.example.ae/listing/15990001/416x272.webp'],
    title: 'Spacious studio | Near Circle Mall',
    bedrooms: '0',
    bathrooms: '1',
    share_url: 'https://www.propertyfinder.ae/en/plp/rent/apartment-15990001.html',
    agent_name: 'Omar Farouk',
    agent_id: '90112',
    ...over,
  });

export const detailsRecord = (over: Record<string, unknown> = {}) =>
  propertyDetails.parse({
    ...searchResult(),
    agent_details: { id: '84213', name: 'Sara Haddad' },
    listed_date: '2026-03-12T08:15:00Z',
    reference_number: 'MG1-1805',
    furnishing: 'unfurnished',
    is_verified: true,
    ...over,
  });

export const project = (over: Record<string, unknown> = {}) =>
  newProject.parse({
    listing_id: '0f9c2a7e-3b1d-4c55-9a77-2f4b8d1e6c30',
    name: 'Marina Shores',
    location: { full_name: 'Dubai Marina, Dubai' },
    bedrooms: [0, 1, 2, 3],
    price_from: 1_450_000,
    effective_price: 1_450_000,
    images: ['https://static.example.ae/projects/marina-shores/1.webp'],
    delivery_date: '2027-09-30T00:00:00Z',
    sales_start_date: '2024-02-01T00:00:00Z',
    developer_name: 'Emaar Properties',
    construction_phase: 'under_construction',
    property_type: 'apartment',
    ...over,
  });

export const simpleAgent = agentSimple.parse({
  id: 84213,
  name: 'Sara Haddad',
  image: 'https://static.example.ae/agents/84213.jpg',
  position: 'Senior Property Consultant',
  nationality: 'Lebanon',
  total_properties: 1234,
  broker_name: 'Gulf Homes Real Estate',
});

export const detailedAgent = agentDetailed.parse({
  id: 84213,
  slug: 'sara-haddad-84213',
  name: 'Sara Haddad',
  totalProperties: 57,
  phone: '+971501234567',
  position: 'Senior Property Consultant',
  nationality: { code: 'LB', name: 'Lebanon' },
  broker: { id: 4471, name: 'Gulf Homes Real Estate' },
  languages: [
    { id: 1, name: 'English' },
    { id: 2, name: 'Arabic' },
    { id: 3, name: 'French' },
  ],
});

export const simpleBroker = brokerSimple.parse({
  id: 4471,
  name: 'Gulf Homes Real Estate',
  total_properties: 2_310,
  logo: 'https://static.example.ae/brokers/4471.png',
  address: 'Office 1204, Marina Plaza, Dubai Marina',
  location: 'Dubai',
});

export const detailedBroker = brokerDetailed.parse({
  id: 4471,
  urlSlug: 'gulf-homes-real-estate-4471',
  name: 'Gulf Homes Real Estate',
  totalProperties: 2_310,
  phone: '+97144556677',
  address: 'Office 1204, Marina Plaza, Dubai Marina',
  location: 'Dubai',
  description: '<p>Gulf Homes &amp; partners: <b>leasing</b> and sales since 2009.</p>',
});

export const developerRecord = (over: Record<string, unknown> = {}) =>
  developer.parse({
    id: '8d3f3d3e-7a52-4d8e-9c0c-1b2e3f4a5b6c',
    name: 'Emaar Properties',
    description:
      '<p><strong>Emaar Properties</strong> is one of the world&#39;s most valuable real estate development companies.</p>\n' +
      '<p>With proven competencies in properties, shopping malls &amp; retail and hospitality &amp; leisure, Emaar shapes ' +
      'new lifestyles with a focus on design excellence, build quality and timely delivery. Its landmarks include ' +
      'Burj Khalifa, the world&#39;s tallest building, and The Dubai Mall, the most-visited retail and lifestyle destination ' +
      'on the planet.</p><p>Emaar has a land bank of over 1.5 billion sq metres across key markets.</p>',
    established_since: '1997-06-23T00:00:00Z',
    num_projects_online: 142,
    logo_url: 'https://static.example.ae/developers/emaar.png',
    slug: 'emaar-properties',
    ...over,
  });
