// `help` and `help <verb>`, written from the verb table, the operation table and the phrase tables,
// so help never advertises a word the parser does not know.
import { OPERATIONS, type OperationSpec } from '../api/operations.js';
import { sortPhrases } from './build.js';
import { COMMAND_NAMES } from './command-names.js';
import { SLASH_COMMANDS, findSlashCommand, subcommandHelp } from './commands.js';
import { asTyped, type CommandStyle } from './typed.js';
import { COMPARE_HELP } from './compare.js';
import { VALUE_HELP } from './value.js';
import type { Verb } from './verbs.js';
import type { Family } from './types.js';
import { VERB_TABLE, findVerb } from './verbs.js';
import {
  ADREC_TYPES,
  AMENITY_PHRASES,
  COMPLETION_PHRASES,
  EMIRATE_PHRASES,
  FREQUENCY_PHRASES,
  FURNISHING_PHRASES,
  PERIOD_PHRASES,
  SHORT_PERIODS,
  type PhraseTable,
} from './vocabulary.js';

/** The first phrase for each distinct value of a table. */
function canonicalPhrases(table: PhraseTable): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const [phrase, effect] of table) {
    const key = 'value' in effect ? effect.value : effect.kind;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(phrase);
    }
  }
  return out;
}

const unique = (items: readonly string[]) => [...new Set(items)];

/** Help lines for a verb's filters, in the order they are usually typed. */
function filterLines(verb: Verb): string[] {
  const specs: OperationSpec[] = verb.operations.map((op) => OPERATIONS[op]);
  const has = (name: string) => specs.some((s) => Object.hasOwn(s.params, name));
  const values = (name: string) =>
    unique(specs.flatMap((s) => (s.params as Record<string, { values?: readonly string[] }>)[name]?.values ?? []));
  const required = (name: string) =>
    specs.every((s) => (s.params as Record<string, { required?: boolean }>)[name]?.required);
  const lines: string[] = [];
  const line = (label: string, text: string) => lines.push(`• ${label}: ${text}`);

  if (has('location_id')) {
    line(
      'Place',
      `${required('location_id') ? 'required' : 'optional'}; the words left over ("marina", "jvc"), or any text in quotes ("Dubai Marina")`,
    );
  }
  if (has('district'))
    line('Districts', 'names, comma-separated; quote them for exact spelling: "Al Reem Island", "Yas Island"');
  if (has('transaction_type')) line('Type of deal', 'sold or rented (required): "sold", "sales", "rented", "rentals"');
  if (has('property_type') && verb.family !== 'adrec') {
    const types = values('property_type').map((t) => t.replace(/-/g, ' '));
    const commercial = verb.operations.some((op) => op.includes('commercial'));
    line(
      'Property type',
      `${types.join(', ')}; also apt, flat, th, ph${commercial ? ', office, showroom, plot. A commercial-only type, or the word "commercial", searches commercial listings' : ''}`,
    );
  }
  if (has('propertyType')) line('Property type', canonicalPhrases(ADREC_TYPES).join(', '));
  if (has('bedrooms')) {
    line(
      'Bedrooms',
      verb.family === 'transactions'
        ? 'one count: 2br, 3 beds, three beds, studio'
        : '2br, 2 beds, three bedrooms, 2bhk, studio, 1-3 br, 1 to 3 br, 1 or 2 br, studio or 1br, 3+ br, 2 beds or more' +
            (has('amenities') ? ", 2br + maid (a maid's room)" : ''),
    );
  }
  if (has('bathrooms')) line('Bathrooms', '2 baths, 2 ba, 1-2 bathrooms, 2+ baths');
  if (has('price_max')) {
    line(
      'Price (AED)',
      'under 120k, below 1.2m, over 80,000, 80k-120k, between 1m and 2m, 1.5 million, 120k max, 1m or more, 1.5m+, half a million; ' +
        'a bare amount is a maximum; a range written backwards (120k-80k) is read the right way round, and the summary says so',
    );
  }
  if (has('rent_frequency')) {
    line(
      'Rent period',
      `${canonicalPhrases(FREQUENCY_PHRASES).join(', ')} (also per month, /mo, pm, pa); commercial: ${values(
        'rent_frequency',
      )
        .filter((v) => v === 'yearly' || v === 'monthly')
        .join(' or ')} only, yearly unless you say a month`,
    );
  }
  if (has('area_min'))
    line(
      'Size',
      'over 1,000 sqft, under 2000 sq ft, 1200 sq.ft., 800-1200 sqft, between 100 and 150 sqm or m² (converted to sqft, as the summary says)',
    );
  if (has('furnishing')) line('Furnishing', canonicalPhrases(FURNISHING_PHRASES).join(', '));
  if (has('completion_status')) line('Completion', canonicalPhrases(COMPLETION_PHRASES).join(', '));
  if (has('amenities')) line('Amenities', canonicalPhrases(AMENITY_PHRASES).join(', '));
  // Words in and out (words.ts) work on listings: rent, buy and an agent's or brokerage's listings.
  if (has('price_max') && verb.family !== 'transactions' && verb.family !== 'projects')
    line(
      'Words in and out',
      '-shared, -"bed space", without shared, no shared (بدون), +"sea view" (must have), not by allsopp or not by "Allsopp & Allsopp" (not listed by that brokerage; not by 1005, its number): checked in each listing\'s title, description and amenities, never sent',
    );
  if (has('period')) {
    line(
      'Period',
      `${canonicalPhrases(PERIOD_PHRASES).join(', ')} (or ${canonicalPhrases(SHORT_PERIODS).join(', ')}, 1y); ` +
        'any other span ("last 4 months", "past 2 weeks") is read as the nearest period that covers it, as the summary says',
    );
  }
  if (has('category')) line('Category', 'rent, sale, commercial rent, commercial sale');
  if (has('fromDate'))
    line(
      'Dates',
      'from 01/01/2024, to 31/03/2024, since 01/01/2024, between 01/01/2024 and 31/03/2024 (DD/MM/YYYY), or a year: since 2024',
    );
  if (has('location') && verb.family === 'developers')
    line('Emirate', `${unique(EMIRATE_PHRASES.map(([p]) => p)).join(', ')} (Dubai unless you say)`);
  const sorts = sortPhrases(verb.family);
  if (has('sort') && sorts.length > 0) line('Sort', sorts.join(', '));
  if (verb.operations.some((op) => op.endsWith('-detailed')))
    line('More detail', 'add "detailed" for phone numbers and more');
  if (specs.some((s) => s.firstPage !== undefined)) line('Page', 'page 2, p2');
  return lines;
}

/** The sentence help shows (checked by the tests to parse). */
export const SENTENCE_EXAMPLE = '/manzil can you find 3 bedroom villas for sale in arabian ranches';

/** The Arabic requests help shows (checked by the tests to read as they say). */
export const ARABIC_EXAMPLES = ['/manzil إيجار شقة غرفتين دبي مارينا', '/rent دبي مارينا 2br'] as const;

const COMPARE = SLASH_COMMANDS.find((c) => c.name === 'compare')!;
const usage = (verb: Verb) => `/${verb.name} ${verb.usage}`;
const verbList = () => COMMAND_NAMES.join(', ');

/** The verbs with no slash command of their own (commands.ts), typed after /manzil. */
const withoutCommand = () =>
  VERB_TABLE.filter((v) => !SLASH_COMMANDS.some((c) => c.verb === v.name)).map((v) => v.name);
/** The commands that manage what is posted to a channel (alerts, digests), from commands.ts. */
const managed = () => SLASH_COMMANDS.filter((c) => c.subcommands);
/** `add|list|pause|…`: the settings are left to `help alerts`, which lists them (one Slack section holds the help). */
const subcommandNames = (subs: readonly { name: string; setting?: true }[]) =>
  subs
    .filter((s) => !s.setting)
    .map((s) => s.name)
    .join('|') + (subs.some((s) => s.setting) ? '|…' : '');

/**
 * `help` (every verb and command, one line each with an example), `help <verb>` (its filters and examples), `help
 * alerts`.
 */
export function helpText(verbText?: string, style: CommandStyle = 'slash'): string {
  return asTyped(helpInSlashes(verbText, style), style);
}

function helpInSlashes(verbText: string | undefined, style: CommandStyle): string {
  if (verbText === undefined || verbText.trim() === '') {
    const slash = style === 'slash';
    return [
      `Manzil searches the UAE property market. ${slash ? 'Start with /<verb> or /manzil <verb>:' : 'Start with a verb:'}`,
      ...VERB_TABLE.map((v) => `• ${usage(v)}: ${v.description}. e.g. ${v.examples[0]}`),
      `Say "help <verb>" for its filters, e.g. "help rent".${slash ? ` A verb without a slash command of its own (${withoutCommand().join(', ')}) works after /manzil: "/manzil adrec al reem island".` : ''}`,
      `• /compare ${COMPARE.usage}: ${COMPARE.description}; up to 5 areas. e.g. /compare ${COMPARE.example}, "marina vs jlt", or "is jvc or jlt better for a 2 bed?"; say "help compare"`,
      'Alerts and digests post to this channel; say "help alerts" or "help digest" for their commands:',
      ...managed().map(
        (c) => `• /${c.name} ${subcommandNames(c.subcommands!)}: ${c.description}. e.g. /${c.name} ${c.example}`,
      ),
      `• /value <area> <beds> [<size>]: what a home is worth and would rent for. e.g. /value jvc 2br 1200 sqft, or "is 1.8m fair for a 2 bed in jvc?"; say "help value"`,
      `Sentences work too, e.g. "${SENTENCE_EXAMPLE}"; numbers may be spelled out ("three beds", "one hundred and fifty thousand"), a misspelt filter word is corrected and chat words ("thanks") left out, as the summary says.`,
      `In Arabic too, e.g. ${ARABIC_EXAMPLES.map((e) => `"${e}"`).join(' or ')}.`,
      'Also: digits in Arabic or Persian script ("٣br under ٩٥k"), "75 grand", areas in sq.ft. or sqm; known places read whole ("Villa Lantana", "Damac Hills 2"); ' +
        'questions about the past ("what did 2br in jlt sell for", "rentals in jvc last 4 months"); a price too small to be one is asked about ("did you mean 80,000?").',
    ].join('\n');
  }
  if (findSlashCommand(verbText)?.name === 'value') return VALUE_HELP;
  if (findSlashCommand(verbText)?.name === 'compare') return COMPARE_HELP;
  const command = managed().find((c) => c === findSlashCommand(verbText));
  if (command) return subcommandHelp(command);
  const verb = findVerb(verbText);
  if (!verb)
    return `I don't know "${verbText.trim()}". The verbs are: ${verbList()}. Say "help" for an example of each.`;
  const also = verb.aliases.length > 0 ? ` (also ${verb.aliases.map((a) => `/${a}`).join(', ')})` : '';
  const filters = filterLines(verb);
  return [
    `${usage(verb)}${also}: ${verb.description}.`,
    ...(filters.length > 0 ? ['Filters, in any order:', ...filters] : []),
    'Examples:',
    ...verb.examples.map((e) => `• ${e}`),
    ...(FAMILY_NOTES[verb.family] ? [FAMILY_NOTES[verb.family]!] : []),
  ].join('\n');
}

const ONE_AREA =
  'One area a search: "rent marina or jlt 2br" asks which one, with a button for each; to see both side by side, "compare marina, jlt".';
/** What a verb's help adds after its examples: how questions and two areas are read (issue 39). */
const FAMILY_NOTES: Partial<Record<Family, string>> = {
  rent: `${ONE_AREA} "how many 2br flats to rent in jlt" opens with the count.`,
  buy: `${ONE_AREA} "how many villas for sale in palm jumeirah" opens with the count.`,
  transactions:
    'Questions work too: "what did 2br in marina sell for", "what are villas in arabian ranches selling for" (sales), "what do 1br in jvc rent for" (lettings); "what would … rent for" is an estimate, see "help value".',
};

/**
 * Whether "help <text>" asks about a verb or a command ("help rent", "help for sale"), not for something ("help me
 * find…").
 */
export const isHelpTopic = (text: string): boolean =>
  findVerb(text) !== undefined || findSlashCommand(text) !== undefined;
