// Whether a listing, as the service returned it, passes a command's words in and out (words.ts). Pure: the same check
// for a search's pages (bot/words-filter.ts) and an alert's run (alerts/channel.ts), so they cannot disagree.
//
// What is read of a listing: its `title`, its `description` when it has one, and its `amenities` / `features` when it
// has them. A word or phrase is matched whole, in any case, on word boundaries ("-bed" does not leave out "bedroom"):
// in the title and description as words, against an amenity as its whole name (`shared_pool` is "shared pool", so
// `-"shared pool"` leaves it out and `-shared` does not). `not by` reads the names the listing gives of who lists it:
// `broker_name`, `broker.name`, `agency_name`, `agent_details.name`, `agent_name`; digits alone are a `broker_id`.
import type { Words } from './types.js';

/** Lower case, every run of what is not a letter or a digit one space, with a space either side. */
const plain = (text: string): string =>
  ` ${text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()} `;

const has = (haystack: string, phrase: string): boolean => {
  const needle = plain(phrase);
  return needle !== '  ' && haystack.includes(needle);
};

type Loose = Record<string, unknown>;
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

function listOf(v: unknown): string[] {
  if (Array.isArray(v)) return v.flatMap((x) => text(x) ?? text((x as Loose | null)?.name) ?? []);
  const t = text(v);
  return t ? t.split(',') : [];
}

/** The words of a listing's text and the names of its amenities, each read as `plain` reads it. */
function listingText(l: Loose): { words: string; amenities: string[] } {
  const words = plain([text(l.title), text(l.description)].filter(Boolean).join(' \n '));
  const amenities = [...listOf(l.amenities), ...listOf(l.features)].map(plain);
  return { words, amenities };
}

function byNames(l: Loose): string[] {
  const broker = l.broker as Loose | null | undefined;
  const agent = l.agent_details as Loose | null | undefined;
  return [l.broker_name, broker?.name, l.agency_name, agent?.broker_name, agent?.name, l.agent_name]
    .map(text)
    .filter((x): x is string => x !== undefined)
    .map(plain);
}

/** True when the listing passes every word: none left out, every one required found, not by any brokerage named. */
export function passesWords(words: Words, listing: unknown): boolean {
  const l = (listing ?? {}) as Loose;
  const { words: body, amenities } = listingText(l);
  const found = (w: string) => has(body, w) || amenities.includes(plain(w));
  if (words.exclude?.some(found)) return false;
  if (words.require && !words.require.every(found)) return false;
  if (words.notBy?.length) {
    const names = byNames(l);
    const brokerId = l.broker_id === undefined || l.broker_id === null ? undefined : String(l.broker_id);
    for (const by of words.notBy) {
      if (/^\d+$/.test(by) ? brokerId === by : names.some((n) => has(n, by))) return false;
    }
  }
  return true;
}
