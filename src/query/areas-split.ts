// Two areas in one search ("rent marina or jlt 2br", "buy jvc, jvt", "marina and jlt"): the service searches one
// area at a time, so the bot asks which one, with a button for each, rather than look up a place named after both
// (issue 39). A compare ("marina vs jlt") is read before this and keeps its meaning. Pure.
import { knownAreaAt } from './scan.js';

/** Where one place ends and the next begins, as typed between them. */
const JOINS = String.raw`\s*(?:,|&|/|\+|\s(?:or|and|and/or)\s)\s*`;
/** A place and its emirate ("downtown, dubai"), one place: never split before an emirate's name. */
const EMIRATES = /^(?:dubai|abu dhabi|sharjah|ajman|ras al khaimah|rak|fujairah|umm al quwain|uae)$/;

const escape = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The two areas of a search's area words, as typed, when the text joins them with a comma, "or", "and", "&" or "/";
 * undefined for one area (a known name read whole, such as "Jumeirah Lake Towers", or a place and its emirate).
 */
export function twoAreas(text: string, location: string): [string, string] | undefined {
  const words = location
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '' && w !== 'or' && w !== 'and');
  if (words.length < 2 || knownAreaAt(words, 0) === words.length) return undefined;
  const typed = text.toLowerCase();
  for (let k = 1; k < words.length; k++) {
    const [left, right] = [words.slice(0, k).join(' '), words.slice(k).join(' ')];
    if (EMIRATES.test(right)) continue;
    const spaced = (s: string) =>
      s
        .split(' ')
        .map(escape)
        .join(String.raw`\s+`);
    if (
      new RegExp(String.raw`(?:^|[^\p{L}\p{N}])${spaced(left)}${JOINS}${spaced(right)}(?![\p{L}\p{N}])`, 'u').test(
        typed,
      )
    )
      return [left, right];
  }
  return undefined;
}
