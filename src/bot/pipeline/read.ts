// A command's one reading (ChatCore.read), from what stage 1 understood: the label the metrics count it under, what it
// costs one person (src/teams' limits) and whether it is answered at once. Pure; the text is not read here again.
import type { RequestReading } from '../../ports/chat-core.js';
import type { Understood } from './understand.js';

const RUNS_ALERT = /^test\b/i;
const RUNS_DIGEST = /^now\b/i;

function verbOf(u: Understood): string {
  if ('order' in u) return u.order.kind === 'alert' ? 'alerts' : 'digest';
  if ('alerts' in u) return 'alerts';
  if ('digests' in u) return 'digest';
  if ('say' in u)
    return u.off === 'alerts' ? 'alerts' : u.off === 'digests' ? 'digest' : u.help ? 'help' : 'not-understood';
  if ('compare' in u) return 'compare';
  if ('value' in u) return 'value';
  if ('next' in u) return 'next';
  if ('doubt' in u) return 'not-understood';
  return u.search.query.operation;
}

/**
 * A run of a saved search or a digest on request (and a compare, which reads up to five areas' market), a search, or
 * nothing worth limiting (help, a mistake, any other change to an alert or a digest: the channel's limits bound those).
 */
function costOf(u: Understood): RequestReading['cost'] {
  if ('say' in u) return undefined;
  if ('order' in u) return u.order.sub === 'test' || u.order.sub === 'now' ? 'run' : undefined;
  if ('alerts' in u) return RUNS_ALERT.test(u.alerts) ? 'run' : undefined;
  if ('digests' in u) return RUNS_DIGEST.test(u.digests) ? 'run' : undefined;
  if ('compare' in u) return 'run';
  return 'search';
}

export const readingOf = (u: Understood): RequestReading => ({
  verb: verbOf(u),
  cost: costOf(u),
  immediate: 'say' in u,
});
