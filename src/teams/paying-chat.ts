// The chat core with each request's calls made for the team it comes from (payer.ts): counted in that team's share,
// and refused, with a clear answer, once the share is spent. Wraps the core as the lifecycle and metrics wrappers do.
import { payingFor } from '../api/payer.js';
import type { ChatCore } from '../ports/index.js';
import { teamOf } from '../store/index.js';

export function payingChat(core: ChatCore): ChatCore {
  const forPlace = <T>(place: string, work: () => Promise<T>) => payingFor({ teams: [teamOf(place)], purpose: 'chat' }, work);
  return {
    handleCommand: (req) => forPlace(req.place, () => core.handleCommand(req)),
    handleAction: (req) => forPlace(req.place, () => core.handleAction(req)),
    handlePick: (req) => forPlace(req.place, () => core.handlePick(req)),
    // Suggestions come with no place (and mostly from the cache): nobody's share.
    suggestLocations: (typed) => core.suggestLocations(typed),
    immediateReply: (req) => core.immediateReply(req),
    describe: (text, location) => core.describe(text, location),
  };
}
