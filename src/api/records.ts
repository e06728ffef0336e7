// Record schemas of the UAE Property Data Service, tolerant by design (see shared/spec/upstream-observed.md):
// unknown fields are kept, a field that is absent, null or of an unexpected type becomes undefined
// instead of failing the record, and only a record without its identity is rejected (then dropped and counted).
import { z } from 'zod';

/** Optional and forgiving: a bad value becomes undefined rather than failing the whole record. */
const soft = <T extends z.ZodType>(schema: T) => schema.nullish().catch(undefined);

const text = z.string();
/** Numeric text that some records send as a number ("16266089" or 16266089). */
const numericText = z.union([z.string(), z.number()]).transform(String);
const num = z.union([
  z.number(),
  z
    .string()
    .regex(/^-?\d+(\.\d+)?$/)
    .transform(Number),
]);
const int = num.pipe(z.number().int());
const bool = z.boolean();
const coordinates = z.looseObject({ lat: soft(num), lon: soft(num) });

export const price = z.looseObject({
  value: soft(num),
  currency: soft(text),
  period: soft(text),
  is_hidden: soft(bool),
});

const agentDetails = z.looseObject({
  id: soft(numericText),
  name: soft(text),
  is_super_agent: soft(bool),
  image: soft(text),
  languages: soft(z.array(z.unknown())),
});

const size = z.looseObject({ value: soft(num), unit: soft(text) });
const listingLocation = z.looseObject({ id: soft(numericText), full_name: soft(text) });

const listingFields = {
  property_id: numericText,
  property_type: soft(text),
  price: soft(price),
  images: soft(z.array(z.string())),
  broker_id: soft(numericText),
  bedrooms: soft(numericText),
  bathrooms: soft(numericText),
  size: soft(size),
  title: soft(text),
};

export const listingSummary = z.looseObject({
  ...listingFields,
  address: soft(z.looseObject({ full_name: soft(text), coordinates: soft(coordinates) })),
  agent_details: soft(agentDetails),
  floor_plan_area: soft(num),
  property_url: soft(text),
  // Seen on the real service though not in the contract.
  location: soft(listingLocation),
  share_url: soft(text),
  listed_date: soft(text),
  is_verified: soft(bool),
});
export type ListingSummary = z.output<typeof listingSummary>;

/** @alias The property operation's record: one listing, in the same shape as a search's. */
export const propertyDetails = listingSummary;
export type PropertyDetails = ListingSummary;

export const agentListing = z.looseObject({
  ...listingFields,
  listing_type: soft(text),
  location: soft(listingLocation),
  share_url: soft(text),
});
export type AgentListing = z.output<typeof agentListing>;

export const brokerListing = agentListing.extend({ agent_name: soft(text), agent_id: soft(numericText) });
export type BrokerListing = z.output<typeof brokerListing>;

export const newProject = z.looseObject({
  listing_id: text,
  name: soft(text),
  location: soft(z.looseObject({ full_name: soft(text) })),
  bedrooms: soft(z.array(int)),
  price_from: soft(num),
  effective_price: soft(num),
  images: soft(z.array(z.string())),
  delivery_date: soft(text),
  sales_start_date: soft(text),
  developer_name: soft(text),
  construction_phase: soft(text),
  property_type: soft(text),
});
export type NewProject = z.output<typeof newProject>;

export const transaction = z.looseObject({
  id: numericText,
  bedrooms: soft(int),
  high_level_location_name: soft(text),
  price: soft(num),
  property_type: soft(text),
  transaction_date: soft(text),
});
export type Transaction = z.output<typeof transaction>;

/** Nothing public shows ADREC's record shape: any object is kept exactly as received. */
export const adrecRecord = z.record(z.string(), z.unknown());
export type AdrecRecord = z.output<typeof adrecRecord>;

export const agentSimple = z.looseObject({
  id: numericText,
  name: soft(text),
  image: soft(text),
  position: soft(text),
  nationality: soft(text),
  total_properties: soft(int),
  broker_name: soft(text),
});
export type AgentSimple = z.output<typeof agentSimple>;

export const agentDetailed = z.looseObject({
  id: numericText,
  slug: soft(text),
  name: soft(text),
  totalProperties: soft(int),
  phone: soft(text),
  position: soft(text),
  nationality: soft(z.looseObject({ code: soft(text), name: soft(text) })),
  broker: soft(z.looseObject({ id: soft(numericText), name: soft(text) })),
  languages: soft(z.array(z.looseObject({ id: soft(int), name: soft(text) }))),
});
export type AgentDetailed = z.output<typeof agentDetailed>;

export const brokerSimple = z.looseObject({
  id: numericText,
  name: soft(text),
  total_properties: soft(int),
  logo: soft(text),
  address: soft(text),
  location: soft(text),
});
export type BrokerSimple = z.output<typeof brokerSimple>;

export const brokerDetailed = z.looseObject({
  id: numericText,
  urlSlug: soft(text),
  name: soft(text),
  totalProperties: soft(int),
  phone: soft(text),
  address: soft(text),
  location: soft(text),
  description: soft(text),
});
export type BrokerDetailed = z.output<typeof brokerDetailed>;

export const location = z.looseObject({
  id: int,
  name: text,
  coordinates: soft(coordinates),
});
export type Location = z.output<typeof location>;

export const developer = z.looseObject({
  id: text,
  name: soft(text),
  description: soft(text),
  established_since: soft(text),
  num_projects_online: soft(int),
  logo_url: soft(text),
  slug: soft(text),
});
export type Developer = z.output<typeof developer>;

export const priceTrendPoint = z.looseObject({
  bedroom_id: int,
  community_price: soft(num),
  tower_price: soft(num),
  date: soft(text),
  period: soft(text),
  time_frame: soft(text),
});
export type PriceTrendPoint = z.output<typeof priceTrendPoint>;
