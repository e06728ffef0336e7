// The chat core with each request's calls made for the team it comes from (payer.ts): counted in that team's share,
// and refused, with a clear answer, once the share is spent. Wraps the core as the lifecycle and metrics wrappers do.
// In a pool of strangers (Discord's DMs) the person is named too: their calls are also theirs, held to their part.
import { payingFor, type Payer } from '../api/payer.js';
import { delegateTo, isSharedPool, personOf, teamOf, type ChatCore } from '../ports/index.js';

const payerOf = (channel: string, user: string): Payer => {
  const team = teamOf(channel);
  return { teams: [team], purpose: 'chat', ...(isSharedPool(team) ? { person: personOf(channel, user) } : {}) };
};

export function payingChat(core: ChatCore): ChatCore {
  const forChannel = <T>(req: { channel: string; user: string }, work: () => Promise<T>) =>
    payingFor(payerOf(req.channel, req.user), work);
  return {
    ...delegateTo(core),
    handleCommand: (req) => forChannel(req, () => core.handleCommand(req)),
    handleAction: (req) => forChannel(req, () => core.handleAction(req)),
    handlePick: (req) => forChannel(req, () => core.handlePick(req)),
    // The area pickers' suggestions too: mostly from the cache, but a keystroke the cache cannot answer is a call.
    suggestLocations: (req) => forChannel(req, () => core.suggestLocations(req)),
  };
}
