// The verbs: what each one is called, which family of filters it reads, and the examples help shows
// (every example is checked by the tests to parse).
import type { OperationName } from '../api/operations.js';
import type { Family } from './types.js';

export interface Verb {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly description: string;
  readonly examples: readonly string[];
  readonly family: Family;
  /** The operations this verb can become, for help. */
  readonly operations: readonly OperationName[];
  /** `sold` and `rented` as verbs also say the transaction type. */
  readonly deals?: Readonly<Record<string, 'rent' | 'sale'>>;
  /** Aliases accepted but not advertised. */
  readonly quiet?: readonly string[];
  /** What follows the verb, for help: `<area>`, `<id>`... */
  readonly usage: string;
}

export const VERB_TABLE: readonly Verb[] = [
  {
    name: 'rent',
    aliases: [],
    family: 'rent',
    usage: '<place> [filters]',
    description: 'Homes (or commercial space) for rent',
    operations: ['search-rent', 'search-commercial-rent'],
    examples: [
      '/rent marina 2br under 120k',
      '/rent jvc studio furnished under 6k monthly',
      '/rent office business bay 1000-2000 sqft',
      '/rent downtown 1-3 br pool gym cheapest',
    ],
  },
  {
    name: 'buy',
    aliases: ['sale', 'for sale'],
    family: 'buy',
    usage: '<place> [filters]',
    description: 'Homes (or commercial space) for sale',
    operations: ['search-buy', 'search-commercial-buy'],
    examples: [
      '/buy downtown 2 bed under 3.5m',
      '/buy palm jumeirah villa 4+ br sea view',
      '/buy dubai hills townhouse off-plan newest',
      '/buy commercial office business bay over 1,000 sqft',
    ],
  },
  {
    name: 'projects',
    aliases: ['offplan', 'off-plan', 'new projects'],
    quiet: ['project', 'off plan'],
    family: 'projects',
    usage: '<place> [filters]',
    description: 'New off-plan projects',
    operations: ['search-new-projects'],
    examples: [
      '/projects dubai hills 2br under 2m',
      '/projects business bay earliest handover',
      '/offplan jvc apartments cheapest',
    ],
  },
  {
    name: 'transactions',
    aliases: ['txn', 'sold', 'rented'],
    quiet: ['transaction', 'txns'],
    family: 'transactions',
    usage: 'sold|rented <place> [filters]',
    description: 'Past sales or rentals in a place',
    operations: ['get-get-transactions'],
    deals: { sold: 'sale', rented: 'rent' },
    examples: [
      '/transactions sold marina 2br',
      '/sold dubai hills villa last 6 months highest price',
      '/txn rented jvc studio 3m',
    ],
  },
  {
    name: 'adrec',
    aliases: [],
    family: 'adrec',
    usage: '[districts, comma-separated] [filters]',
    description: 'Official Abu Dhabi transaction records',
    operations: ['get-adrec-transactions'],
    examples: [
      '/adrec al reem island',
      '/adrec "Al Reem Island", "Yas Island" apartment from 01/01/2026 to 31/03/2026',
      '/adrec saadiyat island apartment page 2',
    ],
  },
  {
    name: 'trend',
    aliases: [],
    quiet: ['trends', 'price trend'],
    family: 'trend',
    usage: '<place> [type]',
    description: 'Price trend of a place',
    operations: ['price-trend-of-location'],
    examples: ['/trend marina', '/trend dubai hills villa', '/trend business bay apartments'],
  },
  {
    name: 'agents',
    aliases: [],
    family: 'agents',
    usage: '[place] [filters]',
    description: 'Agents, optionally in a place',
    operations: ['search-agents', 'search-agents-detailed'],
    examples: ['/agents business bay most sales', '/agents marina rent', '/agents detailed downtown commercial sale'],
  },
  {
    name: 'brokers',
    aliases: [],
    quiet: ['brokerages'],
    family: 'brokers',
    usage: '[place] [filters]',
    description: 'Brokerages, optionally in a place',
    operations: ['search-brokers', 'search-brokers-detailed'],
    examples: ['/brokers marina', '/brokers dubai most agents', '/brokers detailed business bay most listings'],
  },
  {
    name: 'agent',
    aliases: [],
    family: 'agent',
    usage: '<id> [filters]',
    description: "One agent's listings",
    operations: ['agent-properties'],
    examples: ['/agent 201460', '/agent 201460 rent cheapest', '/agent 201460 commercial sale'],
  },
  {
    name: 'broker',
    aliases: [],
    quiet: ['brokerage'],
    family: 'broker',
    usage: '<id> [filters]',
    description: "One brokerage's listings",
    operations: ['broker-properties'],
    examples: ['/broker 1005', '/broker 1005 sale most expensive', '/broker 1005 commercial rent page 2'],
  },
  {
    name: 'property',
    aliases: [],
    family: 'property',
    usage: '<id>',
    description: 'One property in full',
    operations: ['property-details'],
    examples: ['/property 15010364', '/property 15006950', '/manzil property 15003855'],
  },
  {
    name: 'developers',
    aliases: [],
    quiet: ['developer'],
    family: 'developers',
    usage: '[emirate]',
    description: 'Developers in an emirate (Dubai unless you say)',
    operations: ['real-estate-developer'],
    examples: ['/developers', '/developers abu dhabi', '/developers dubai page 2'],
  },
  {
    name: 'location',
    aliases: [],
    quiet: ['locations', 'where'],
    family: 'location',
    usage: '<words>',
    description: 'Look up a place by name',
    operations: ['autocomplete-location'],
    examples: ['/location marina', '/location jumeirah village', '/location "Business Bay"'],
  },
];

/** Verb phrases by their words (`for sale` -> ['for', 'sale']), longest first. Dashes are spaces, as in tokens. */
const PHRASES = VERB_TABLE.flatMap((verb) =>
  [verb.name, ...verb.aliases, ...(verb.quiet ?? [])].map((phrase) => ({
    words: phrase.split(/[\s-]+/),
    verb,
    phrase,
  })),
).sort((a, b) => b.words.length - a.words.length);

/** The most words a verb phrase has. */
export const VERB_MAX_WORDS = PHRASES[0]!.words.length;

/**
 * The phrases by first word, in the order above: only phrases sharing the first word can compete, and the first one
 * wins.
 */
const PHRASES_BY_FIRST = new Map<
  string,
  { words: readonly string[]; match: { verb: Verb; length: number; deal?: 'rent' | 'sale' } }[]
>();
for (const { words, verb } of PHRASES) {
  const deal = verb.deals?.[words.join(' ')];
  const list = PHRASES_BY_FIRST.get(words[0]!) ?? [];
  list.push({ words, match: { verb, length: words.length, ...(deal ? { deal } : {}) } });
  PHRASES_BY_FIRST.set(words[0]!, list);
}

/** The verb at the start of the words, with how many words it took. */
export function matchVerb(
  words: readonly string[],
): { verb: Verb; length: number; deal?: 'rent' | 'sale' } | undefined {
  const first = words[0];
  const list = first === undefined ? undefined : PHRASES_BY_FIRST.get(first);
  if (!list) return undefined;
  outer: for (const { words: phrase, match } of list) {
    for (let k = 1; k < phrase.length; k++) if (words[k] !== phrase[k]) continue outer;
    return { ...match };
  }
  return undefined;
}

const BY_FAMILY = new Map(VERB_TABLE.map((v) => [v.family, v]));
export const verbByFamily = (family: Family): Verb => BY_FAMILY.get(family)!;

/** A verb by name or alias, for `help <verb>`. */
export function findVerb(text: string): Verb | undefined {
  return matchVerb(
    text
      .trim()
      .toLowerCase()
      .replace(/^\//, '')
      .split(/[\s-]+/),
  )?.verb;
}
