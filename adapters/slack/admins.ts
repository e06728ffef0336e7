// Whether a person may manage every alert in a channel: a workspace admin or owner, asked of users.info only when the
// bot needs to know, and remembered for a few minutes so a burst of commands costs one call.
import { LRUCache } from 'lru-cache';
import type { SlackClients } from './poster.js';
import type { SendLog } from './send.js';

export const ADMIN_CACHE_MS = 5 * 60_000;

export class SlackAdmins {
  private readonly cache: LRUCache<string, boolean>;

  constructor(
    clients: SlackClients,
    private readonly log: SendLog = () => {},
    ttlMs = ADMIN_CACHE_MS,
  ) {
    this.cache = new LRUCache<string, boolean>({
      max: 10_000,
      ttl: ttlMs,
      // Concurrent asks for one person share one call; a failed call is not remembered. Asked with the person's own
      // workspace's token (`TEAM:USER`), so no workspace ever learns about another's people.
      fetchMethod: async (key) => {
        const [team, user] = key.split(':') as [string, string];
        const client = await clients.forTeam(team);
        if (!client) return false;
        const res = await client.users.info({ user });
        return Boolean(res.user?.is_admin || res.user?.is_owner);
      },
    });
  }

  /** Resolves false, never throws, when Slack cannot say: nobody gains rights by an outage. */
  async isAdmin(team: string, user: string): Promise<boolean> {
    try {
      return (await this.cache.fetch(`${team}:${user}`)) ?? false;
    } catch (e) {
      this.log('slack: users.info failed, treating the person as not an admin', {
        error: e instanceof Error ? e.message : String(e),
      });
      return false;
    }
  }

  /** The lazy check a request carries: nothing is asked of Slack unless the bot calls it. */
  forUser(team: string, user: string): () => Promise<boolean> {
    return () => this.isAdmin(team, user);
  }
}
