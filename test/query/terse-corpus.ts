// The terse commands of the first edition's grammar (the fragments of roundtrip.test.ts, without the em dash, which
// the second edition reads as a separator), generated from a fixed seed so the same corpus can be compared across releases.
import { createHash } from 'node:crypto';
import fc from 'fast-check';

const FRAGMENTS = [
  'marina', 'dubai marina', '"Business Bay"', 'jvc', 'al barsha 1', 'in', 'the', 'and', ',', 'with',
  '2br', 'studio', '1-3 br', '3+ br', '1 or 2 beds', '2 baths', '12x br', '2.5 baths', 'studio or 1br',
  'under 120k', 'over 1.2m', '80k-120k', 'between 1m and 2m', '120,000 aed', 'aed 90000', 'upto', 'under',
  '1000-2000 sqft', 'over 100 sqm', 'monthly', '10k per month', 'weekly', 'pa',
  'apartment', 'villa', 'office', 'warehouse', 'th', 'hotel apartments', 'plot', 'commercial', 'residential',
  'furnished', 'unfurnished', 'semi-furnished', 'ready', 'off-plan', 'pool', 'gym', 'sea view', "maid's room",
  'newest', 'cheapest', 'most expensive', 'earliest handover', 'oldest', 'most sales', 'most agents', 'featured',
  'last year', '6m', '3 months', 'last month', 'page 2', 'p3', 'page 0', 'sold', 'rented', 'rent', 'sale', 'detailed',
  'from 01/02/2024', 'to 28/02/2024', 'abu dhabi', 'rak', 'furnishd', '???', '12345',
];
const VERB_WORDS = ['/rent', '/buy', '/projects', '/transactions', '/sold', '/txn rented', '/adrec', '/trend', '/agents', '/brokers',
  '/agent 123', '/broker 45', '/property 99', '/developers', '/location', '/manzil rent', 'buy', '/offplan'];

export const terseCommand = fc
  .tuple(fc.constantFrom(...VERB_WORDS), fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 8 }))
  .map(([verb, parts]) => [verb, ...parts].join(' '));

export const TERSE_SEED = 7;
export const TERSE_RUNS = 20_000;
export const terseCorpus = (): string[] => fc.sample(terseCommand, { seed: TERSE_SEED, numRuns: TERSE_RUNS });

/** A short digest of a parse result, so the fixture stays small. */
export const digest = (result: unknown): string => createHash('sha256').update(JSON.stringify(result)).digest('hex').slice(0, 16);
