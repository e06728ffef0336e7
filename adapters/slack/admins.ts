// Whether a person may manage every alert in a channel: a workspace admin or owner, asked of users.info only when the
// bot needs to know, and remembered for a few minutes so a burst of commands costs one call.
import type { webApi } from '@slack/bolt';
import { LRUCache } from 'lru-cache';
import type { SendLog } from './send.js';

export const ADMIN_CACHE_MS = 5 * 60_000;

export class SlackAdmins {
  private readonly cache: LRUCache<string, boolean>;

  constructor(
    client: webApi.WebClient,
    private readonly log: SendLog = () => {},
    ttlMs = ADMIN_CACHE_MS,
  ) {
    this.cache = new LRUCache<string, boolean>({
      max: 10_000,
      ttl: ttlMs,
      // Concurrent asks for one person share one call; a failed call is not remembered.
      fetchMethod: async (user) => {
        const res = await client.users.info({ user });
        return Boolean(res.user?.is_admin || res.user?.is_owner);
      },
    });
  }

  /** Resolves false, never throws, when Slack cannot say: nobody gains rights by an outage. */
  async isAdmin(user: string): Promise<boolean> {
    try {
      return (await this.cache.fetch(user)) ?? false;
    } catch (e) {
      this.log('slack: users.info failed, treating the person as not an admin', { error: e instanceof Error ? e.message : String(e) });
      return false;
    }
  }

  /** The lazy check a request carries: nothing is asked of Slack unless the bot calls it. */
  forUser(user: string): () => Promise<boolean> {
    return () => this.isAdmin(user);
  }
}
