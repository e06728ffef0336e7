// The chat core with each request's calls made for the team it comes from (payer.ts): counted in that team's share,
// and refused, with a clear answer, once the share is spent. Wraps the core as the lifecycle and metrics wrappers do.
import { payingFor } from '../api/payer.js';
import { delegateTo, teamOf, type ChatCore } from '../ports/index.js';

export function payingChat(core: ChatCore): ChatCore {
  const forPlace = <T>(place: string, work: () => Promise<T>) => payingFor({ teams: [teamOf(place)], purpose: 'chat' }, work);
  // Suggestions come with no place (and mostly from the cache): nobody's share.
  return {
    ...delegateTo(core),
    handleCommand: (req) => forPlace(req.place, () => core.handleCommand(req)),
    handleAction: (req) => forPlace(req.place, () => core.handleAction(req)),
    handlePick: (req) => forPlace(req.place, () => core.handlePick(req)),
  };
}
