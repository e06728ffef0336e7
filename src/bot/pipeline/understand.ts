// Stage 1, understand the text: a command becomes what Manzil will do with it, before any I/O. Either something to say
// at once (help, small talk, text that does not parse, a part that is off, a page too far), a request for another part
// (alerts, digests, value, compare), a question with a button ("did you mean 80,000?"), or a search to run.
import { operationSpec } from '../../api/operations.js';
import type { LocationResolver } from '../../locations/index.js';
import type { Logger } from '../../log.js';
import {
  compareRequest,
  helpText,
  readArabic,
  smallTalkOf,
  smallTalkReply,
  summarize,
  typedWithSlash,
  type CompareAsk,
  type Query,
} from '../../query/index.js';
import { withoutAddress } from '../../query/address.js';
import { valueRequest, type ValueRequest } from '../../query/value.js';
import { MAX_PAGE, firstPosition, lastPage } from '../button-payloads.js';
import {
  alertsRequest,
  personalAlertRequest,
  digestsRequest,
  helpRequest,
  pagingRequest,
  planSearch,
  type Doubt,
  type PlannedSearch,
} from '../requests.js';
import type { OrderCommand } from '../../ports/order-command.js';
import type { BotOptions, CommandRequest } from '../types.js';
import { VALUE_OFF } from '../value.js';
import { ALERTS_OFF, TOO_FAR } from './stages.js';

const DIGESTS_OFF = 'Digests are not enabled on this Manzil.';
const COMPARE_OFF = 'Comparing areas is not enabled on this Manzil.';

export type Understood =
  /**
   * Said privately, at once: the adapter can answer without a public "thinking…" first. `help`: it is help; `off`: a
   * command to a part that is off.
   */
  | { say: string; refused?: true; help?: true; off?: 'alerts' | 'digests' }
  | { alerts: string }
  | { digests: string }
  /** A command to an alert or a digest that came as a value (CommandRequest.order): run as it is, no text read. */
  | { order: OrderCommand }
  | { value: ValueRequest }
  | { compare: CompareAsk }
  | { doubt: Doubt }
  /** `next` or `more` typed alone: the next page of the conversation's last result. */
  | { next: true }
  | { search: PlannedSearch };

/** Which optional parts are on: a command for one that is off is answered at once. */
type Parts = { [K in 'alerts' | 'digests' | 'compare' | 'value']?: BotOptions[K] | boolean };

/** Pure and cheap: no call, no state written. */
export function understand(req: CommandRequest, on: Parts, log: Logger): Understood {
  // A command that came as a value (Discord's options) goes to its kind as it is: its text is not read.
  const { order } = req;
  if (order?.kind === 'alert') return on.alerts ? { order } : { say: ALERTS_OFF, off: 'alerts' };
  if (order?.kind === 'digest') return on.digests ? { order } : { say: DIGESTS_OFF, off: 'digests' };
  // Arabic read as English for every part ("قارن دبي مارينا و جي ال تي" is a compare); a search reads the text itself,
  // so its summary can say how the Arabic was read.
  // A leading "@manzil" or "hey manzil" is taken off first, once, so it routes nothing astray.
  const text = withoutAddress(readArabic(req.text) ?? req.text);
  const alerts = alertsRequest(text) ?? personalAlertRequest(text);
  if (alerts !== undefined) return on.alerts ? { alerts } : { say: ALERTS_OFF, off: 'alerts' };
  const digests = digestsRequest(text);
  if (digests !== undefined) return on.digests ? { digests } : { say: DIGESTS_OFF, off: 'digests' };
  const compare = compareRequest(text);
  if (compare !== undefined) {
    if ('error' in compare) return { say: compare.error, refused: true };
    return on.compare ? { compare } : { say: COMPARE_OFF };
  }
  if (pagingRequest(text)) return { next: true };
  // "hello", "thanks", "what can you do?": a friendly answer with commands to try; "help?" is help.
  const chat = smallTalkOf(text);
  if (chat !== undefined && chat !== 'help') return { say: smallTalkReply(chat, typedWithSlash(req.text)) };
  const help = chat === 'help' ? '' : helpRequest(text);
  const helpWords = help === undefined ? undefined : helpText(help || undefined, req.commandStyle);
  if (helpWords !== undefined) return { say: helpWords, help: true };
  const value = valueRequest(text);
  if (value && 'error' in value) return { say: value.error, refused: true };
  if (value) return on.value ? { value: value.ask } : { say: VALUE_OFF };
  const search = planSearch(req.text, req.location);
  if ('error' in search) {
    log.info('command not understood', { text: req.text.slice(0, 200), error: search.error });
    // "Did you mean 80,000?" needs a button, so a row: not an immediate reply.
    return search.retry ? { doubt: { text: search.error, ...search.retry } } : { say: search.error, refused: true };
  }
  // Checked before the area is looked up: a refused page should cost no call at all.
  const at = firstPosition(search.query);
  if (at.page > lastPage(search.query) || (at.chat ?? 1) > MAX_PAGE) return { say: TOO_FAR };
  return { search };
}

/**
 * How a command would be understood, in one line ("2-bedroom homes for rent in Dubai Marina, …"), without running it:
 * for autocomplete as the person types. Undefined when the text is not (yet) a command. `location` is an area chosen
 * apart from the text (CommandRequest.location), read as a command reads it. No call and no state: the area name
 * comes from the location cache alone.
 */
export async function describe(
  locations: LocationResolver,
  log: Logger,
  text: string,
  location?: string,
): Promise<string | undefined> {
  const search = planSearch(text, location);
  if ('error' in search) return undefined;
  const summary = summarize(search.query, search.chosen?.name ?? (await cachedArea(locations, log, search.query)));
  return search.leftOut ? `${summary} (the location picked; "${search.leftOut}" left out)` : summary;
}

/**
 * How the area words of a query read, from the location cache alone (never a call: this runs per keystroke): the
 * area's name when known ("Dubai Marina"), "marina (4 areas match)" when several do; undefined when not cached.
 */
async function cachedArea(locations: LocationResolver, log: Logger, query: Query): Promise<string | undefined> {
  if (!query.location || !('location_id' in operationSpec(query.operation).params)) return undefined;
  try {
    const known = await locations.cached(query.location);
    if (known?.kind === 'found') return known.location.name;
    if (known?.kind === 'ambiguous') return `${query.location} (${known.choices.length} places match)`;
  } catch (e) {
    log.warn('location cache unreadable for a description', { error: e });
  }
  return undefined;
}
