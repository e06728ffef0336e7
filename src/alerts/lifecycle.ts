// The lifecycle events an alert may follow besides new listings and price drops (issue 40): a listing back on the
// market after being gone, and a listing gone (let, sold or withdrawn). Said in `/alerts add` words, terse (`… with
// back on market`, `… with gone`, `… with back on market and gone`) or in sentences ("tell me when it's back on the
// market", "and when they're gone"), anywhere after the last quote. Kept on the alert as a key ('' | 'back' | 'gone' |
// 'back,gone'). Pure.

export type LifecycleEvent = 'back' | 'gone';

const BACK = String.raw`back(?:\s+on(?:\s+the)?\s+market)?|relisted|(?:come|comes|coming)\s+back`;
const GONE = String.raw`gone|(?:let|sold|withdrawn)(?:\s*(?:,|or)\s*(?:let|sold|withdrawn))*|off(?:\s+the)?\s+market`;
const WHO = String.raw`(?:it|they|one|listings?|a\s+listing|something)`;
const IS = String.raw`(?:'s|'re|\s+is|\s+are|\s+goes|\s+go|\s+gets?|\s+went)?`;
const EVENT = `(?<event>${BACK}|${GONE})`;

/** One phrase that names one or two events; the filler around a sentence's form is taken with it. */
const PHRASES = [
  // Terse: "with back on market", "with gone", "with back on market and gone", "+ back on market".
  new RegExp(
    String.raw`(?:^|[\s,;]+)(?:with|\+|and\s+with)\s+(?<event>${BACK}|${GONE})(?:\s+(?:and|&|,)\s+(?<second>${BACK}|${GONE}))?(?=$|[\s,;.!])`,
    'i',
  ),
  // Sentences: "tell me when it's back on the market", "and when they're gone", "let me know when one is sold".
  new RegExp(
    String.raw`(?:^|[\s,;]+)(?:and\s+)?(?:(?:please\s+)?(?:tell|let)\s+(?:me|us)(?:\s+know)?\s+|also\s+|notify\s+(?:me|us)\s+)?(?:when|if)\s+${WHO}${IS}\s+${EVENT}(?:\s+(?:or|and)\s+(?:when\s+${WHO}${IS}\s+)?(?<second>${BACK}|${GONE}))?(?=$|[\s,;.!])`,
    'i',
  ),
];

const eventOf = (word: string): LifecycleEvent =>
  new RegExp(`^(?:${GONE})$`, 'i').test(word.trim()) ? 'gone' : 'back';

/** The events said in `/alerts add` words, and the words without them (the search, and maybe how often). */
export function readLifecycle(text: string): { events: LifecycleEvent[]; rest: string } {
  // Quoted text (an area's name) is never read as an event: only what follows the last quote.
  const cut = text.lastIndexOf('"') + 1;
  let tail = text.slice(cut);
  const events = new Set<LifecycleEvent>();
  for (let found = true; found;) {
    found = false;
    for (const re of PHRASES) {
      const m = re.exec(tail);
      if (!m) continue;
      events.add(eventOf(m.groups!.event!));
      if (m.groups!.second) events.add(eventOf(m.groups!.second));
      tail = `${tail.slice(0, m.index)} ${tail.slice(m.index + m[0].length)}`;
      found = true;
    }
  }
  const rest = `${text.slice(0, cut)}${tail}`
    .replace(/\s+/g, ' ')
    .replace(/\s+([,.!;])/g, '$1')
    .trim();
  return {
    events: lifecycleFrom(lifecycleKey([...events])),
    rest: events.size > 0 ? rest.replace(/[,;]\s*$/, '') : text.trim(),
  };
}

/** The key kept on the alert: its events in one order, '' for none. */
export const lifecycleKey = (events: readonly LifecycleEvent[]): string =>
  (['back', 'gone'] as const).filter((e) => events.includes(e)).join(',');

export const lifecycleFrom = (key: string): LifecycleEvent[] =>
  key.split(',').filter((e): e is LifecycleEvent => e === 'back' || e === 'gone');

export const follows = (key: string, event: LifecycleEvent): boolean => lifecycleFrom(key).includes(event);

/** In an alert's summary (so in `/alerts list` and its cards): "with back on the market and gone", '' for none. */
export function lifecycleText(key: string): string {
  const events = lifecycleFrom(key);
  if (events.length === 0) return '';
  return `with ${events.map((e) => (e === 'back' ? 'back on the market' : 'gone (let, sold or withdrawn)')).join(' and ')}`;
}
