// An agent's listings are headed by the agent's name (issue 38), the name read from the sandbox's own agent search
// over raw HTTP here, not through the code under test.
import { describe, expect, it } from 'vitest';
import { ask, sandboxHarness } from './harness.js';

const rig = sandboxHarness({ key: 'agent-heading' });

/** Agents of one area, by the service's own agent search: id and name. */
async function agentsOf(locationId: string): Promise<{ id: number; name: string; total_properties: number }[]> {
  const r = await fetch(`${rig.sandbox.url}/search-agents?location_id=${locationId}`, {
    headers: { 'x-gateway-key': rig.sandbox.key },
  });
  return ((await r.json()) as { data: { id: number; name: string; total_properties: number }[] }).data;
}

const header = async (text: string) => {
  const reply = await ask(rig.h.bot, text);
  const first = reply.blocks[0];
  return first?.kind === 'header' ? first.text : '';
};

describe("an agent's listings", () => {
  it('are headed by the agent name, for agents of several areas and with filters', async () => {
    const agents = [...(await agentsOf('50')).slice(0, 2), ...(await agentsOf('86')).slice(0, 2)].filter(
      (a) => a.total_properties > 0,
    );
    expect(agents.length).toBeGreaterThanOrEqual(3);
    for (const a of agents) expect(await header(`agent ${a.id}`)).toBe(`Listings of ${a.name} (agent ${a.id})`);
    const a = agents[0]!;
    expect(await header(`/agent ${a.id} rent cheapest`)).toMatch(
      new RegExp(`^Listings of ${a.name} \\(agent ${a.id}\\), residential rent, cheapest first`),
    );
  });

  it('keep the id alone when the agent has no listings to read a name from', async () => {
    expect(await header('agent 99999999')).toBe('Listings of agent 99999999');
  });
});
