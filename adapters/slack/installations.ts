// Add to Slack in Bolt's terms: its InstallationStore on the core's installations port, and the Web API client of
// each workspace from its own bot token.
import type { Installation, InstallationStore } from '@slack/bolt';
import { LRUCache } from 'lru-cache';
import type { SlackInstallations, WorkspaceKey } from '../../src/ports/index.js';
import { postingClient, type PostingClientOptions, type SlackClients } from './poster.js';

const keyOfInstallation = (i: Installation): WorkspaceKey =>
  i.isEnterpriseInstall ? { enterpriseId: i.enterprise?.id } : { teamId: i.team?.id, enterpriseId: i.enterprise?.id };
/**
 * The installation a request or event belongs to, as Bolt sees it (its query, a listener's context): an org-wide
 * install by its enterprise, a workspace (of an Enterprise Grid org or not) by its team.
 */
export const workspaceKey = (q: {
  teamId?: string | undefined;
  enterpriseId?: string | undefined;
  isEnterpriseInstall?: boolean | undefined;
}): WorkspaceKey =>
  q.isEnterpriseInstall ? { enterpriseId: q.enterpriseId } : { teamId: q.teamId, enterpriseId: q.enterpriseId };

export function installationStore(installations: SlackInstallations): InstallationStore {
  return {
    storeInstallation: (installation) => installations.save(keyOfInstallation(installation), installation),
    async fetchInstallation(query) {
      const found = (await installations.fetch(workspaceKey(query))) as Installation | undefined;
      // Bolt reads a throw as "not installed here" and refuses the request.
      if (!found) throw new Error(`slack: no installation for workspace ${query.teamId ?? query.enterpriseId ?? '?'}`);
      return found as Installation<'v2', boolean>;
    },
    deleteInstallation: (query) => installations.remove(workspaceKey(query), 'Bolt deleted the installation'),
  };
}

/**
 * Each workspace's posting client, from its installation's bot token, read for every post (a local read) and found by
 * the team alone, which is all a channel names (an Enterprise Grid workspace's too: the store finds it by its team). A
 * token
 * replaced by adding the app again, or gone with its removal, is never used a moment longer. Clients are kept by token.
 */
export function installedClients(installations: SlackInstallations, options: PostingClientOptions): SlackClients {
  const clients = new LRUCache<string, ReturnType<typeof postingClient>>({ max: 5_000 });
  return {
    single: undefined,
    async forTeam(teamId) {
      const token = ((await installations.fetch({ teamId })) as Installation | undefined)?.bot?.token;
      if (!token) return undefined;
      const known = clients.get(token);
      if (known) return known;
      const client = postingClient(token, options);
      clients.set(token, client);
      return client;
    },
  };
}
