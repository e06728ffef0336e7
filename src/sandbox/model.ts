// The sandbox's own records, before they are shaped into the service's wire format.
import type { CATEGORY, COMPLETION, FURNISHING, TRANSACTION_TYPE } from '../api/operations.js';
import type { Emirate } from './geography.js';

export type Category = (typeof CATEGORY)[number];
export type Furnishing = (typeof FURNISHING)[number];
export type Completion = (typeof COMPLETION)[number];

export interface Listing {
  id: number;
  category: Category;
  /** Slug of RESIDENTIAL_TYPES or COMMERCIAL_TYPES. */
  type: string;
  /** The most specific area: a building, or the community itself. */
  areaId: number;
  bedrooms: number;
  bathrooms: number;
  size: number;
  /** AED: the sale price, or the annual rent (other periods are derived from it). */
  price: number;
  /** "Price on request": the service then sends value 0 with is_hidden true. */
  priceHidden: boolean;
  furnishing: Furnishing;
  completion: Completion;
  amenities: string[];
  agentId: number;
  brokerId: number;
  /** The real service sometimes sends `agent_details: null`. */
  agentHidden: boolean;
  imageCount: number;
  /** ms since epoch, on the market clock. */
  listedAt: number;
  /** Ranking for the `featured` sort. */
  boost: number;
  verified: boolean;
  title: string;
  withdrawn: boolean;
}

export interface Broker {
  id: number;
  name: string;
  slug: string;
  emirate: Emirate;
  city: string;
  address: string;
  phone: string;
  description: string;
  logo: string;
  boost: number;
}

export interface Agent {
  id: number;
  brokerId: number;
  name: string;
  slug: string;
  image: string;
  position: string;
  nationality: { code: string; name: string };
  languages: { id: number; name: string }[];
  phone: string;
  superAgent: boolean;
  boost: number;
}

export interface Developer {
  id: string;
  name: string;
  slug: string;
  /** A value of EMIRATES (`al-ain` included). */
  region: string;
  description: string;
  establishedSince: string;
  logo: string;
  boost: number;
}

export interface Project {
  id: string;
  name: string;
  areaId: number;
  developerId: string;
  type: string;
  bedrooms: number[];
  priceFrom: number;
  effectivePrice: number;
  areaFrom: number;
  areaTo: number;
  images: string[];
  deliveryDate: string;
  salesStartDate: string;
  boost: number;
}

export interface Transaction {
  id: string;
  kind: (typeof TRANSACTION_TYPE)[number];
  areaId: number;
  bedrooms: number;
  type: string;
  price: number;
  size: number;
  /** YYYY-MM-DD */
  date: string;
  /** ms since epoch on the market clock: answered only once the clock has passed it. */
  at: number;
}

export interface AdrecEntry {
  /** ms since epoch of the transaction date, for filters and sorting. */
  time: number;
  record: Record<string, unknown>;
}
