// A button press or a pick in the Refine picker: the button's row read back and checked (button-payloads.ts), then the
// stages of a command from where the button leads: a page (fetch, present, remember), a search to run as typed
// (resolve first), a listing's details, a value estimate, or "Save as alert".
import type { Logger } from '../../log.js';
import type { AlertDraft } from '../../ports/order-command.js';
import type { Block, Reply } from '../../views/model.js';
import { firstPosition, fitSurface, readButton, splitToken } from '../button-payloads.js';
import { listingDetails } from '../details.js';
import { detailsBlocks } from '../people.js';
import { decodeLocationOption, requester } from '../requests.js';
import type { ActionRequest, AlertsPort, PickRequest } from '../types.js';
import { VALUE_OFF, valueButton, valueOf } from '../value.js';
import { runSearch, showPage } from './answer.js';
import { ALERTS_OFF, conversationState, privately, type Stages } from './stages.js';

const EXPIRED = 'That button has expired. Run the command again to get fresh results.';
const OLDER = 'That button is from an older version of Manzil. Run the command again.';
const UNSUPPORTED = 'That button is no longer supported. Run the command again.';

/** A button's reply (the footer is the Bot's to add). Throws what the stages throw: the Bot makes it friendly. */
export async function press(stages: Stages, req: ActionRequest, log: Logger): Promise<Reply> {
  const { options, searches } = stages;
  const { row, suffix } = splitToken(req.token);
  const state = conversationState(stages, req.channel);
  const stored = await state.load(row);
  if (!stored) return privately(EXPIRED);
  const intent = readButton(stored.kind, stored.payload, suffix);
  switch (intent.kind) {
    case 'show': {
      const reply = await showPage(stages, intent, state);
      // A page replaces the page it came from; an area chosen in the (private) "which one?" prompt is posted anew.
      return intent.replace && !reply.ephemeral ? { ...reply, replaceOriginal: true } : reply;
    }
    case 'details':
      return listingDetails(searches, intent.propertyId, log, async (records) => [
        ...(await detailsBlocks(intent.propertyId, records, fitSurface(req.surface), state)),
        ...(await historyBlocks(options.alerts, intent.propertyId, log)),
        ...(options.value ? await valueButton(records[0], intent, state) : []),
      ]);
    case 'value':
      if (!options.value) return privately(VALUE_OFF);
      return valueOf(options.value, intent.area, intent.ask);
    case 'run':
      return runSearch(stages, { query: intent.query, chosen: intent.chosen }, intent.surface, state);
    case 'save':
      // The one save: this button and `/alerts add` both end in the alerts' own save (AlertsPort.save).
      if (!options.alerts) return privately(ALERTS_OFF);
      return options.alerts.save(requester(req), intent.query, intent.location, undefined, intent.to);
    case 'refine':
    case 'unusable':
      log.warn('unusable button state', {
        kind: stored.kind,
        suffix,
        reason: intent.kind === 'unusable' ? intent.reason : 'refine',
      });
      return privately(intent.kind === 'unusable' && intent.reason === 'older' ? OLDER : UNSUPPORTED);
  }
}

/**
 * A result's Save button as a new alert's form (issue 41): the search it saves, its area when the result knew it, and
 * for whom (Save for me); or why not (alerts off here, the button expired or not a Save).
 */
export async function saveDraft(
  stages: Stages,
  req: { channel: string; token: string },
): Promise<{ draft: AlertDraft } | { reply: Reply }> {
  if (!stages.options.alerts) return { reply: privately(ALERTS_OFF) };
  const { row, suffix } = splitToken(req.token);
  const stored = await conversationState(stages, req.channel).load(row);
  if (!stored) return { reply: privately(EXPIRED) };
  const intent = readButton(stored.kind, stored.payload, suffix);
  if (intent.kind !== 'save')
    return { reply: privately(intent.kind === 'unusable' && intent.reason === 'older' ? OLDER : UNSUPPORTED) };
  const area = intent.location ? { id: intent.location.id, name: intent.location.name } : undefined;
  return {
    draft: { kind: 'alert', query: intent.query, ...(area ? { area } : {}), ...(intent.to ? { to: intent.to } : {}) },
  };
}

/** The listing's history line (issue 40) under its Details, when its alerts have seen something worth saying. */
async function historyBlocks(alerts: AlertsPort | undefined, propertyId: string, log: Logger): Promise<Block[]> {
  try {
    const line = await alerts?.history?.(propertyId);
    return line ? [{ kind: 'context', text: `🕰️ ${line.charAt(0).toUpperCase()}${line.slice(1)}` }] : [];
  } catch (error) {
    // The history is not worth failing the Details for.
    log.warn('could not read a listing history for its details', { propertyId, error });
    return [];
  }
}

/** An area chosen in the Refine picker: the same search, in that area, from its first page. */
export async function pickArea(stages: Stages, req: PickRequest): Promise<Reply> {
  const { row, suffix } = splitToken(req.token);
  const state = conversationState(stages, req.channel);
  const stored = await state.load(row);
  const location = decodeLocationOption(req.value);
  if (!stored || !location) return privately('That picker has expired. Run the command again.');
  const intent = readButton(stored.kind, stored.payload, suffix);
  if (intent.kind !== 'refine')
    return privately(intent.kind === 'unusable' && intent.reason === 'older' ? OLDER : UNSUPPORTED);
  const view = { query: intent.query, location, position: firstPosition(intent.query), surface: intent.surface };
  const reply = await showPage(stages, view, state);
  return reply.ephemeral ? reply : { ...reply, replaceOriginal: true };
}
