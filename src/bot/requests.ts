// Command text into what the bot does with it (pure): a search planned from the text and an area chosen apart from it,
// or the text of an /alerts, /digest or help request. Routing them is pipeline/understand.ts's job.
import { operationSpec } from '../api/operations.js';
import { isHelpTopic, parseCommand, type ParseResult, type Query, type Suggestion } from '../query/index.js';
import { twoAreas } from '../query/areas-split.js';
import { asksHowMany } from '../query/intent.js';
import type { Reply } from '../views/model.js';
import type { Area } from './button-payloads.js';

export const pick = (l: { id: number; name: string }): Area => ({ id: l.id, name: l.name });

/**
 * A command refused with a question: the refusal, and a button for each search it offers (its label, the search it
 * runs).
 */
export interface Doubt {
  text: string;
  options: { label: string; search: PlannedSearch }[];
}

/** A search ready to run: the query, the area chosen apart from the text, and what to tell the person about it. */
export interface PlannedSearch {
  query: Query;
  chosen?: { id?: number; name: string } | undefined;
  /** The area words of the text that the chosen area replaced. */
  leftOut?: string | undefined;
  /** Said under the reply's summary. */
  note?: string | undefined;
}

/**
 * The text parsed, with the area chosen apart from it (CommandRequest.location) as the query's area. When the text
 * names another place, the chosen one wins: it was picked from a list, on purpose; the words it replaced are named.
 */
export function planSearch(
  text: string,
  location: string | undefined,
): PlannedSearch | { error: string; retry?: Omit<Doubt, 'text'> } {
  const chosen = chosenArea(location);
  let parsed = parseCommand(text);
  // The area chosen was added to the text as quoted words: the searches offered then have it as their area.
  let areaAdded = false;
  if (!parsed.ok && chosen) {
    // A command that needs an area ("Where?") has it now: read again with the area chosen, as if typed in quotes.
    // Anything else wrong is wrong either way, and said as the text alone has it.
    const withArea = parseCommand(`${text} "${chosen.name.replace(/["“”]/g, ' ').replace(/\s+/g, ' ').trim()}"`);
    if (withArea.ok) parsed = { ok: true, query: { ...withArea.query, location: null } };
    else if (offered(withArea).length > 0 && offered(parsed).length === 0) [parsed, areaAdded] = [withArea, true];
  }
  if (!parsed.ok) {
    const options = offered(parsed).map((s) => ({
      label: s.label,
      search: withChosen(areaAdded ? { ...s.query, location: null } : s.query, chosen),
    }));
    return options.length > 0 ? { error: parsed.error, retry: { options } } : { error: parsed.error };
  }
  // "rent marina or jlt": one area a search, so a button for each (src/query/areas-split.ts).
  const both = !chosen && parsed.query.location ? twoAreas(text, parsed.query.location) : undefined;
  if (both && 'location_id' in operationSpec(parsed.query.operation).params) {
    const q = parsed.query;
    return {
      error: `I search one area at a time: which one, ${both[0]} or ${both[1]}? To see them side by side, try \`compare ${both[0]}, ${both[1]}\`.`,
      retry: { options: both.map((area) => ({ label: area, search: { query: { ...q, location: area } } })) },
    };
  }
  // "How many villas for sale in palm jumeirah": the same search, its reply opening with the count.
  return withChosen(asksHowMany(text) ? { ...parsed.query, count: true } : parsed.query, chosen);
}

/** The searches a refusal offers: "Did you mean 80,000?", or one per reading of "to rent or to buy?". */
const offered = (parsed: ParseResult): Suggestion[] =>
  parsed.ok ? [] : (parsed.choices ?? (parsed.suggestion ? [parsed.suggestion] : []));

/**
 * A query with the area chosen apart from its text, which wins over an area typed (the words it replaced are named).
 */
function withChosen(parsed: Query, chosen: { id?: number; name: string } | undefined): PlannedSearch {
  if (!chosen || !('location_id' in operationSpec(parsed.operation).params)) return { query: parsed };
  const typed = parsed.location;
  const query: Query = { ...parsed, location: chosen.name, unknownWords: [] };
  if (!typed || sameArea(typed, chosen.name)) return { query, chosen };
  return {
    query,
    chosen,
    leftOut: typed,
    note: `Searching ${chosen.name}, the location you picked; "${typed}" in the query was left out.`,
  };
}

/** `<id>:<name>` (a picked option) or a name as typed; undefined when blank. */
function chosenArea(location: string | undefined): { id?: number; name: string } | undefined {
  const value = location?.trim();
  if (!value) return undefined;
  const option = decodeLocationOption(value);
  if (option && Number.isSafeInteger(option.id) && option.id > 0 && option.name.trim())
    return { id: option.id, name: option.name.trim() };
  return { name: value };
}

/** "marina" and the picked "Dubai Marina" speak of one area: every word typed is in the name picked. */
function sameArea(typed: string, name: string): boolean {
  const words = (s: string) =>
    s
      .toLowerCase()
      .split(/[\s,]+/)
      .filter(Boolean);
  const inName = new Set(words(name));
  return words(typed).every((w) => inName.has(w));
}

/** The note in a small line under the reply's summary (its first block), before what follows. */
export function withNote(reply: Reply, note: string): Reply {
  const [first, ...rest] = reply.blocks;
  return {
    ...reply,
    blocks: first ? [first, { kind: 'context', text: note }, ...rest] : [{ kind: 'context', text: note }],
  };
}

/** Picker option values carry the id and the name, so a pick needs no further lookup. */
export function encodeLocationOption(l: { id: number; name: string }): string {
  return `${l.id}:${l.name}`.slice(0, 150);
}

export function decodeLocationOption(value: string): { id: number; name: string } | undefined {
  const m = /^(\d+):(.+)$/s.exec(value);
  return m ? { id: Number(m[1]), name: m[2]! } : undefined;
}

export const requester = (req: { user: string; channel: string; isAdmin?: () => Promise<boolean> }) => ({
  user: req.user,
  channel: req.channel,
  ...(req.isAdmin ? { isAdmin: req.isAdmin } : {}),
});

/** `/alerts list`, `alerts add rent marina`, `/manzil alerts pause 2`: the text after `alerts`; undefined otherwise. */
export function alertsRequest(text: string): string | undefined {
  const m = /^\/?(?:manzil\s+)?\/?alerts?(?:\s+([\s\S]*))?$/i.exec(text.trim());
  return m ? (m[1] ?? '').trim() : undefined;
}

/**
 * "DM me new 2br rentals in marina", "alert me privately about rent jvc": a sentence asking for an alert of one's own,
 * as the text of an `/alerts` command (`add DM me …`: the alerts' language takes the personal words out of the search);
 * undefined otherwise. Only these plain asks: "alert me" alone stays a search's word.
 */
export function personalAlertRequest(text: string): string | undefined {
  const t = text.trim();
  const ask =
    /^(?:please\s+)?(?:(?:dm|pm)\s+me|(?:alert|message|notify|tell|ping)\s+me\s+(?:privately|in\s+private|by\s+dm))(?:\s+(?:about|of|on|for|when|with))?(?:\s+|$)/i;
  const m = ask.exec(t);
  return m ? `add me ${t.slice(m[0].length)}`.trim() : undefined;
}

/** `/digest list`, `digest add marina`, `/manzil digests now jvc`: the text after `digest`; undefined otherwise. */
export function digestsRequest(text: string): string | undefined {
  const m = /^\/?(?:manzil\s+)?\/?digests?(?:\s+([\s\S]*))?$/i.exec(text.trim());
  return m ? (m[1] ?? '').trim() : undefined;
}

/** `next`, `more`, `/manzil next page`: the next page of the conversation's last result. */
export function pagingRequest(text: string): boolean {
  return /^\/?(?:manzil\s+)?(?:next|more)(?:\s+(?:page|please|results))?[.!]?$/i.test(text.trim());
}

/**
 * `help`, `/manzil help rent`, `/rent help`, or a bare `/manzil`: the verb asked about ('' for all);
 * undefined when the text is not a request for help.
 */
export function helpRequest(text: string): string | undefined {
  const words = text.trim().replace(/^\//, '').split(/\s+/).filter(Boolean);
  if (words[0]?.toLowerCase() === 'manzil') words.shift();
  if (words.length === 0) return '';
  const [first, second] = words.map((w) => w.toLowerCase());
  if (first === 'help' || first === '?') {
    const topic = words.slice(1).join(' ').toLowerCase();
    // "help rent", "help fly": about a verb. "help me find a 2 bed flat to rent in jlt": a request, read as a sentence.
    return words.length <= 2 || isHelpTopic(topic) ? topic : undefined;
  }
  if (second === 'help' && words.length === 2) return first;
  return undefined;
}
