// A command, stage by stage, each handing its result to the next:
//   1. understand the text (understand.ts, over src/query's parse)
//   2. plan the search and resolve its area (resolve.ts, over src/locations)
//   3. fetch (fetch.ts: the service page, its market context and period)
//   4. present a page (present.ts: the cards and buttons for the surface)
//   5. remember the buttons (remember.ts: one state row behind them)
// Requests for the optional parts (alerts, digests, value, compare) leave after stage 1 for their port.
import type { Logger } from '../../log.js';
import type { Reply } from '../../views/model.js';
import { fitSurface, lastPage, readButton } from '../button-payloads.js';
import { scopeOf } from '../../ports/channel.js';
import { doubtDraft } from '../doubt.js';
import { requester, withNote, type Doubt, type PlannedSearch } from '../requests.js';
import type { AskOptions } from '../search.js';
import type { ButtonStateStore, CommandRequest, Surface } from '../types.js';
import { valueCommand } from '../value.js';
import { deepestTypedPage } from '../snapshot.js';
import { fetchPage } from './fetch.js';
import { presentPage } from './present.js';
import { remember } from './remember.js';
import { resolveArea, type PageView } from './resolve.js';
import { TOO_FAR, conversationState, privately, type Stages } from './stages.js';
import type { Understood } from './understand.js';

/** A command's reply (the footer is the Bot's to add). Throws what the stages throw: the Bot makes it friendly. */
export async function answer(stages: Stages, req: CommandRequest, understood: Understood, log: Logger): Promise<Reply> {
  const { options } = stages;
  const started = performance.now();
  if ('say' in understood) return privately(understood.say);
  if ('order' in understood) {
    const { order } = understood;
    return order.kind === 'alert'
      ? options.alerts!.run(requester(req), order)
      : options.digests!.run(requester(req), order);
  }
  if ('alerts' in understood) return options.alerts!.handle(requester(req), understood.alerts);
  if ('digests' in understood) return options.digests!.handle(requester(req), understood.digests);
  if ('compare' in understood) return options.compare!.handle(understood.compare);
  if ('value' in understood) {
    const reply = await valueCommand(options.value!, options.locations, understood.value);
    log.info('command answered', { operation: 'value', ms: Math.round(performance.now() - started) });
    return reply;
  }
  const state = conversationState(stages, req.channel);
  const surface = fitSurface(req.surface);
  if ('next' in understood) return nextOfLast(stages, req.channel, state);
  if ('doubt' in understood) return askDoubt(stages, understood.doubt, surface, state);
  const { search } = understood;
  const reply = await runSearch(stages, search, surface, state);
  log.info('command answered', { operation: search.query.operation, ms: Math.round(performance.now() - started) });
  return search.note ? withNote(reply, search.note) : reply;
}

/** A planned search from stage 2 on: a command's, or a button's that runs one as a command would. */
export async function runSearch(
  stages: Stages,
  search: PlannedSearch,
  surface: Surface,
  state: ButtonStateStore,
): Promise<Reply> {
  const resolved = await resolveArea(stages.options.locations, search, surface);
  if ('ask' in resolved) return remember(state, resolved.ask);
  // A search typed anew reuses only a fresh answer; buttons reuse answers for the cache's lifetime.
  return showPage(stages, resolved.view, state, { maxAgeMs: stages.options.searchFreshMs ?? 60_000 });
}

/** One chat page of a search whose area is known, from stage 3 on: a command's first page, or a button's. */
export async function showPage(
  stages: Stages,
  view: PageView,
  state: ButtonStateStore,
  ask: AskOptions = {},
): Promise<Reply> {
  if (view.position.page > lastPage(view.query)) return privately(TOO_FAR);
  const deepest = deepestTypedPage(view.surface.cardsPerPage);
  if ((view.position.chat ?? 1) > deepest)
    return privately(`A typed page goes as far as page ${deepest}: ask for page ${deepest}, then press Next to go on.`);
  const fetched = await fetchPage(stages, view, ask);
  const page = await presentPage(view, fetched);
  return remember(state, page);
}

const NOTHING_TO_PAGE =
  'There is no result to page here yet: `next` and `more` show the next page of the last search in this conversation. Try `rent marina` first.';
const LAST_PAGE =
  'That was the last page of your last search. Search again, or widen it (fewer filters, a nearby area).';

/** `next` or `more` typed alone: the next page of the conversation's last result, as its Next button shows it. */
async function nextOfLast(stages: Stages, channel: string, state: ButtonStateStore): Promise<Reply> {
  const token = stages.lastResults.of(scopeOf(channel));
  const stored = token ? await state.load(token) : undefined;
  if (!stored) return privately(NOTHING_TO_PAGE);
  const intent = readButton(stored.kind, stored.payload, 'n');
  if (intent.kind !== 'show') return privately(LAST_PAGE);
  return showPage(stages, intent, state);
}

/**
 * A question with a button per search it offers ("Rented or sold?", "Did you mean 80,000?"). Its area is looked up
 * first, so each button carries the area found (and runs there, never reading the words again); when no area matches
 * and none is close, no button is offered that could only fail: the person is told the area was not found.
 */
async function askDoubt(stages: Stages, doubt: Doubt, surface: Surface, state: ButtonStateStore): Promise<Reply> {
  const first = doubt.options[0]!.search;
  // The row keeps one area for all its readings; buttons for two areas ("marina or jlt") each look theirs up.
  const oneArea = doubt.options.every((o) => o.search.query.location === first.query.location);
  if (first.chosen?.id !== undefined || !oneArea) return remember(state, doubtDraft(doubt, surface));
  const resolved = await resolveArea(stages.options.locations, first, surface);
  if ('ask' in resolved) return remember(state, resolved.ask.row ? doubtDraft(doubt, surface) : resolved.ask);
  const area = resolved.view.location;
  if (!area) return remember(state, doubtDraft(doubt, surface));
  const options = doubt.options.map((o) =>
    o.search.query.location === first.query.location ? { ...o, search: { ...o.search, chosen: area } } : o,
  );
  return remember(state, doubtDraft({ ...doubt, options }, surface));
}
