// Turning failures into words for chat. Chat gets a short, kind message; the log gets the precise error.
import { ApiError } from '../api/errors.js';

export interface FriendlyError {
  text: string;
  /** Log level: the operator must look at auth/plan problems, the rest is the weather. */
  level: 'warn' | 'error';
}

/**
 * The friendly words, and, when `ref` is given and the failure is one the operator may be asked about (the service or
 * Manzil failed, not the person's input), " (ref k3x9q2)": the request id on every log line of that request.
 */
export function friendlyError(e: unknown, ref?: string): FriendlyError {
  const friendly = words(e);
  if (!ref || !worthAReference(e)) return friendly;
  return { ...friendly, text: `${friendly.text} (ref ${ref})` };
}

/** Not for what the person can fix themselves (a bad search, an unknown id) or a restart. */
function worthAReference(e: unknown): boolean {
  if (!(e instanceof ApiError)) return true;
  return e.kind !== 'invalid-params' && e.kind !== 'closed' && !(e.kind === 'http' && e.status === 404);
}

function words(e: unknown): FriendlyError {
  if (!(e instanceof ApiError)) {
    return { text: 'Something went wrong on our side. It has been logged; please try again.', level: 'error' };
  }
  if (e.kind === 'share' && e.shareOf === 'person') {
    return {
      text: "You've used your part of this month's property lookups in direct messages, so that everyone else who writes to Manzil keeps theirs. It renews on the 1st of the month (UTC); in a server's channels you can go on.",
      level: 'warn',
    };
  }
  if (e.kind === 'share') {
    return {
      text: "This workspace has used its share of this month's property lookups. It renews on the 1st of the month (UTC); whoever runs Manzil can raise it.",
      level: 'warn',
    };
  }
  if (e.kind === 'budget') {
    return {
      text: `Manzil has used its property-data allowance for now. Try again in about ${roughly(e.retryAfterSeconds ?? 60)}.`,
      level: 'warn',
    };
  }
  if (e.kind === 'invalid-params') {
    // The checks' own messages ("price_max must be a number (got "1e+24")") name parameters: they stay in the log.
    return {
      text: `That search can't be sent: the property service can't take ${filterWords(e.problems.map((p) => p.param))} as written. Try \`help\` for examples.`,
      level: 'warn',
    };
  }
  if (e.kind === 'http' && (e.status === 401 || e.status === 403)) {
    return {
      text:
        e.status === 403
          ? "This part of the property service isn't included in Manzil's current plan. The operator has been told."
          : "Manzil can't sign in to the property service right now. The operator has been told.",
      level: 'error',
    };
  }
  if (e.kind === 'http' && e.status === 404) {
    return {
      text: "The property service has nothing under that id. Check the number (it ends the listing's link) and try again.",
      level: 'warn',
    };
  }
  if (e.kind === 'http' && e.status === 400)
    return { text: 'The property service refused that search as invalid. Try `help` for examples.', level: 'error' };
  if (e.kind === 'too-large') {
    return {
      text: 'The property service sent an answer too large to read. Try a narrower search. The operator has been told.',
      level: 'error',
    };
  }
  if (e.kind === 'closed') return { text: 'Manzil is restarting. Try again in a moment.', level: 'warn' };
  // The breaker is open or the service asked every caller to wait: the service is busy, for about this long.
  if ((e.kind === 'unavailable' || (e.kind === 'http' && e.status === 429)) && e.retryAfterSeconds !== undefined) {
    return { text: `The property service is busy, try again in about ${roughly(e.retryAfterSeconds)}.`, level: 'warn' };
  }
  return { text: 'The property service is busy, try again in a minute.', level: 'warn' };
}

/** What a person calls each parameter the service checks; any other is "one of its filters". */
const PARAM_WORDS: [RegExp, string][] = [
  [/price|rent|amount/i, 'the price'],
  [/bath/i, 'the bathrooms'],
  [/bed|room/i, 'the bedrooms'],
  [/area|size|sqft/i, 'the size'],
  [/date|period|from|to$/i, 'the dates'],
  [/page/i, 'the page'],
  [/location|district|place/i, 'the place'],
  [/id$/i, 'the number'],
];

/** "the price and the bedrooms": the filters at fault, in words, each once. */
function filterWords(params: readonly string[]): string {
  const words = [
    ...new Set(params.map((p) => PARAM_WORDS.find(([pattern]) => pattern.test(p))?.[1] ?? 'one of its filters')),
  ];
  if (words.length === 0) return 'one of its filters';
  return words.length === 1 ? words[0]! : `${words.slice(0, -1).join(', ')} and ${words.at(-1)!}`;
}

/** "1 minute", "25 minutes", "3 hours": a wait as a person would say it. */
export function roughly(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  if (minutes < 90) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.round(minutes / 60);
  return `${hours} hours`;
}
