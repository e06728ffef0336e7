// `/compare` in the command language (pure): `/compare marina, jlt 2br rent`, `/manzil compare marina and jlt`,
// "marina vs jlt", "is jvc or jlt better for a 2 bed". The areas as typed (resolved by the bot), a bedroom count and
// rent or buy when said.

/** At most this many areas in one answer: a table still readable on a phone, and a bounded cost. */
export const MAX_COMPARE_AREAS = 5;

export interface CompareAsk {
  /** The areas as typed, in order, at least two. */
  areas: string[];
  /** A bedroom count (0: studio); absent: every count. */
  bedrooms?: number;
  /** Which listings are counted live: for rent, for sale; absent: both. */
  kind?: 'rent' | 'buy';
}

export const COMPARE_EXAMPLE = '/compare marina, jlt 2br';

/** `help compare`: the command and the sentences it is read from (each checked by the tests to read as a compare). */
export const COMPARE_HELP = [
  `/compare <area>, <area>[, …] [<beds>] [rent|buy]: two to ${MAX_COMPARE_AREAS} areas side by side: median sale price and rent, AED per sqft, gross yield, 12-month change, listings now.`,
  '• Areas: comma-separated, or joined by "and", "vs", "or"; quote a name that could be several places ("Arabian Ranches 3")',
  '• Bedrooms: 2br, three bedrooms, studio: one table of that count; without one, a table per count (studio to 4+)',
  '• rent or buy: only the listings for rent, or for sale, are counted',
  'Examples:',
  `• ${COMPARE_EXAMPLE}`,
  '• marina vs jlt',
  '• is jvc or jlt better for a 2 bed?',
  '• which is cheaper, jvc or jlt, to rent a three bedroom?',
].join('\n');

const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7 };
const BEDS = String.raw`(\d{1,2}|one|two|three|four|five|six|seven)\s*-?\s*(?:br|brs|b\/r|bhk|beds?|bedrooms?|bedroom\s+flats?)\b`;
const KIND_WORDS: [RegExp, 'rent' | 'buy'][] = [
  [/\b(?:to\s+)?(?:rent|rents|rental|rentals|renting|lease|tenant)\b/gi, 'rent'],
  [/\b(?:to\s+)?(?:buy|buying|sale|sales|for\s+sale|purchase|invest|investing|investment)\b/gi, 'buy'],
];
// Words of a question around the areas: "is … better for a …", "which is cheaper, … or …".
const FILLER =
  /\b(?:which|what|is|are|was|the|a|an|for|in|better|best|cheaper|cheapest|one|area|areas|place|places|between|to|me|please|flats?|apartments?|homes?)\b|[?!.]/gi;

/** The compare asked by the text; `{ error }` when it is one but cannot be read; undefined when it is not one. */
export function compareRequest(text: string): CompareAsk | { error: string } | undefined {
  const t = text.trim();
  const command = /^\/?(?:manzil\s+)?\/?compare\b([\s\S]*)$/i.exec(t);
  const question =
    /^(?:(?:which|what)\s+is\s+|is\s+|are\s+)([\s\S]+\bor\b[\s\S]+?)\b(?:better|cheaper|best)\b([\s\S]*)$/i.exec(t);
  const which = /^(?:which|what)\s+is\s+(?:better|cheaper|best)\b([\s\S]*\bor\b[\s\S]*)$/i.exec(t);
  let rest: string;
  if (command) rest = command[1]!;
  else if (question) rest = `${question[1]!.replace(/\bor\b/i, ',')} ${question[2]!}`;
  else if (which) rest = which[1]!.replace(/\bor\b/i, ',');
  else if (/\S\s+(?:vs\.?|versus)\s+\S/i.test(t)) rest = t.replace(/^\/?(?:manzil\s+)?/i, '');
  else return undefined;
  return readAsk(rest);
}

function readAsk(text: string): CompareAsk | { error: string } {
  let rest = ` ${text} `;
  let bedrooms: number | undefined;
  const beds = new RegExp(BEDS, 'i').exec(rest);
  if (beds) {
    const n = NUMBER_WORDS[beds[1]!.toLowerCase()] ?? Number(beds[1]);
    bedrooms = n;
    rest = rest.replace(beds[0], ' ');
  } else if (/\bstudios?\b/i.test(rest)) {
    bedrooms = 0;
    rest = rest.replace(/\bstudios?\b/i, ' ');
  }
  let kind: 'rent' | 'buy' | undefined;
  for (const [re, k] of KIND_WORDS) {
    if (re.test(rest)) kind ??= k;
    rest = rest.replace(re, ' ');
  }
  const areas = rest
    .split(/\s*(?:,|;|&|\+|\/|\bvs\.?|\bversus\b|\band\b|\bor\b|\bwith\b)\s*/i)
    .map((a) =>
      a
        .replace(FILLER, ' ')
        .replace(/["“”']/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter(Boolean);
  const unique = [...new Map(areas.map((a) => [a.toLowerCase(), a])).values()];
  if (unique.length < 2)
    return {
      error: `Which areas? Name two to ${MAX_COMPARE_AREAS}, for example \`${COMPARE_EXAMPLE}\` or "marina vs jlt".`,
    };
  if (unique.length > MAX_COMPARE_AREAS)
    return {
      error: `I compare at most ${MAX_COMPARE_AREAS} areas at once (you named ${unique.length}); split them over two asks.`,
    };
  if (bedrooms !== undefined && bedrooms > 7)
    return { error: `${bedrooms} bedrooms is more than any home here has; try 1 to 7, or studio.` };
  return { areas: unique, ...(bedrooms !== undefined ? { bedrooms } : {}), ...(kind ? { kind } : {}) };
}
