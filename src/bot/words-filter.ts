// The words in and out of a search ("rent marina 2br -shared"): the service has no such filter, so Manzil keeps, of
// each page the service returns, the listings that pass them (query/words-match.ts, the check the alerts use too).
import { passesWords, type Query } from '../query/index.js';

export interface WordsFilter {
  keeps(listing: unknown): boolean;
  /** What a page says when the service's listings were there and the words left out every one of them. */
  allExcluded(fetched: number, more: boolean): string;
}

/** The filter of a query with words, or undefined when it has none. */
export function wordsFilter(query: Query): WordsFilter | undefined {
  const words = query.words;
  if (!words) return undefined;
  return {
    keeps: (listing) => passesWords(words, listing),
    allExcluded: (fetched, more) =>
      `${fetched} listing${fetched === 1 ? '' : 's'} matched the area but every one was excluded by your words.${more ? ' Next looks at the following listings.' : ''}`,
  };
}
