// Known area names, read as areas before filter words: "Villa Lantana" is an area, not a villa in "Lantana";
// "Damac Hills 2 villa" is a villa in Damac Hills 2, not a price of AED 2. The names come from the shipped list
// (known-areas.ts) and from every answer the location lookup has given (src/locations teaches them, across restarts).
import { tokenize } from './text.js';

/** The most names learned at run time: the list is for reading commands, not an archive of every building. */
const MAX_NAMES = 50_000;

/** A known name as words, as the parser reads words: lower case, dashes split, trailing dots dropped. */
function wordsOf(name: string): string[] {
  try {
    return tokenize(name)
      .filter((t) => !t.quoted && t.word !== ',')
      .map((t) => t.word);
  } catch {
    return []; // a name with an odd quote: not one the parser could meet unquoted
  }
}

export class AreaBook {
  /** Names holding a word a filter would take, by first word, longest first: only these change how a command reads. */
  private readonly byFirst = new Map<string, string[][]>();
  /** Every word of every known name: a word after a number that is one of these is an area word, not a unit. */
  private readonly words = new Set<string>();
  private readonly seen = new Set<string>();

  /** `takes`: true for a word the scanner would read as (part of) a filter, or a number. */
  constructor(private readonly takes: (word: string) => boolean) {}

  add(names: Iterable<string>): void {
    for (const name of names) {
      if (typeof name !== 'string' || this.seen.size >= MAX_NAMES) continue;
      const key = name.trim().toLowerCase();
      if (key === '' || this.seen.has(key)) continue;
      this.seen.add(key);
      const words = wordsOf(name);
      for (const w of words) this.words.add(w);
      // A leading "the" is dropped as ever ("The Springs" reads as "springs"), unless the rest is only filter words:
      // then
      // "the" is what makes it a name ("The Villa", a community, is not "villa").
      const the = words[0] === 'the';
      const rest = the ? words.slice(1) : words;
      if (rest.length === 0) continue;
      const onlyFilterWords = rest.every(this.takes);
      if (onlyFilterWords ? !the : rest.length < 2 || !rest.some(this.takes)) continue;
      const body = onlyFilterWords ? words : rest;
      const list = this.byFirst.get(body[0]!) ?? [];
      if (list.some((known) => known.length === body.length && known.every((w, k) => w === body[k]))) continue;
      list.push(body);
      list.sort((a, b) => b.length - a.length);
      this.byFirst.set(body[0]!, list);
    }
  }

  /** How many words from words[i] make the longest known name that holds a filter's word; 0 when none starts there. */
  at(words: readonly string[], i: number): number {
    const list = this.byFirst.get(words[i]!);
    if (!list) return 0;
    outer: for (const name of list) {
      for (let k = 1; k < name.length; k++) if (words[i + k] !== name[k]) continue outer;
      return name.length;
    }
    return 0;
  }

  /** True for a word of any known name ("marina", "barsha"). */
  hasWord(word: string): boolean {
    return this.words.has(word);
  }
}
