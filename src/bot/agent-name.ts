// The name an agent's listings are headed by ("Listings of Olga Mueller (agent 207502)"). The service's agent listings
// name no agent, but a listing's details do (`agent_details`: id and name), so the first listing's details are read:
// one call, cached with the answers, and never holding the reply up (a name not known in time is left out).
import type { Query } from '../query/index.js';
import type { SearchOutcome, SearchRunner } from './search.js';

const NAME_WAIT_MS = 1_500;

interface Detailed {
  agent_details?: { id?: string | number | null; name?: string | null } | null;
}

export async function agentNameOf(
  searches: Pick<SearchRunner, 'search'>,
  outcome: SearchOutcome,
): Promise<string | undefined> {
  if (outcome.operation !== 'agent-properties') return undefined;
  const agentId = outcome.params.agent_id;
  const first = (outcome.result.records as { property_id?: string }[])[0]?.property_id;
  if (!agentId || !first) return undefined;
  const details: Query = {
    operation: 'property-details',
    params: { property_id: first },
    location: null,
    unknownWords: [],
  };
  const read = searches
    .search(details, undefined, 1)
    .then((r) => {
      const agent = (r.result.records[0] as Detailed | undefined)?.agent_details;
      return agent && String(agent.id) === agentId && agent.name?.trim() ? agent.name.trim() : undefined;
    })
    .catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), NAME_WAIT_MS)));
  const name = await Promise.race([read, late]);
  clearTimeout(timer);
  return name;
}
