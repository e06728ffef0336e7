// Words of a standing search (an alert) that say how often to hear about it: "daily", "every morning", "once a week".
// In a search they could be read as a rent period ("daily" is a rent paid by the day), which silently changes what is
// watched. An alert is checked on the poller's schedule whatever is typed, so these words are taken out before the
// search is read, and the reply says they were not used. A rent period stays sayable: "per day", "a week", "monthly".

const UNITS =
  '(?:day|days|morning|mornings|evening|evenings|night|nights|hour|hours|hr|hrs|week|weeks|wk|wks|weekday|weekdays|weekend|weekends|minute|minutes|min|mins|month|fortnight)';
const DAYS = '(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?';
const COUNT =
  '(?:\\d+|few|couple of|other|two|three|four|five|six|eight|ten|twelve|fifteen|twenty|thirty|forty five|sixty)';
/** A time of day: "9am", "8:30", "7 pm"; said after a phrase ("daily at 9am") or alone after "at". */
const TIME = '(?:\\d{1,2}(?::\\d{2})?\\s*(?:am|pm)|\\d{1,2}:\\d{2})';
/** A part of the day after a day's phrase: "every weekday morning", "each sunday evening". */
const PART = '(?: (?:morning|afternoon|evening|night)s?)?';

/**
 * The delivery phrases, longest forms first so "once a week" is taken whole. "weekly" and "daily" are here: in an
 * alert they are far more often how often than a rent period, and the rent period has its own words.
 */
const DELIVERY = new RegExp(
  [
    `(?:once|twice|three times) (?:a|per|every) ${UNITS}`,
    `(?:every|each) ${COUNT} ${UNITS}`,
    `(?:every|each) (?:single )?${UNITS}${PART}`,
    `(?:every|each|on) ${DAYS}${PART}`,
    `(?:in the|each|every) (?:morning|evening)s?`,
    `(?:once |twice )?(?:daily|weekly|nightly|hourly|fortnightly|biweekly|bi-weekly)`,
    'everyday|on weekdays|on weekends|weekdays|weekends',
    // "As it happens" is how alerts work already: said, but not a filter.
    'real-time|realtime|real time|instantly|immediately|asap|as soon as possible|right away|24/7',
  ]
    // A time of day may follow any of them ("daily at 9am"), or come alone ("at 8:30").
    .map((p) => `(?:${p})(?: (?:at )?${TIME})?`)
    .concat(`at ${TIME}`)
    // Any spacing between the words: "every  day" is "every day".
    .map((p) => `(?<![\\p{L}\\p{N}/])(?:${p.replace(/ /g, '\\s+')})(?![\\p{L}\\p{N}])`)
    .join('|'),
  'giu',
);

export interface DeliveryWords {
  /** The command without them (quoted text untouched). */
  text: string;
  /** What was taken out, as typed, in order. */
  words: string[];
}

/** Takes the delivery words out of a standing search's text; quoted text (an area's name) is never touched. */
export function takeDeliveryWords(text: string): DeliveryWords {
  const words: string[] = [];
  const parts = text.split('"');
  const kept = parts.map((part, k) =>
    k % 2 === 1
      ? part
      : part.replace(DELIVERY, (said) => {
          words.push(said.trim().replace(/\s+/g, ' '));
          return ' ';
        }),
  );
  const rest = kept.join('"').replace(/\s+/g, ' ').trim();
  return { text: words.length > 0 ? rest : text, words };
}

/** The reply's sentence for words taken out: how often the alert is checked instead, and how to say a rent period. */
export function deliveryNote(words: readonly string[], schedule: string): string {
  const quoted = words.map((w) => `"${w}"`).join(', ');
  return `I didn't use ${quoted}: alerts are checked ${schedule}, whatever the search says, and new listings are posted as they are found. For a rent by the day or the week, write "per day" or "per week".`;
}
