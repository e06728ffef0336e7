// Slack workspaces that added Manzil: Bolt's installations, sealed at rest (sealing.ts). And the hold a removed
// workspace puts on its channels: their alerts and digests wait, and nothing is posted, until it adds Manzil again.
import { and, desc, eq, like, ne, sql } from 'drizzle-orm';
import type { Store } from './db.js';
import type { InstallationKey, InstallationListing, SlackInstallationRepo } from './contracts/installations.js';
import type { Synced } from './contracts/synced.js';
import type { Sealer } from './sealing.js';
import { outbox, channelHold, standingOrder, slackInstallation } from './schema.js';
import { keyOf, NEVER, REMOVED_REASON, resealed } from './state-and-cache-values.js';

export { keyOf, NEVER, REMOVED_REASON };

/**
 * The rows of one installation. A workspace is its team, whatever its enterprise: Slack's team ids are unique, Bolt
 * saves an Enterprise Grid workspace under `E…:T…`, and a poster that knows only the `slack:T…:C…` channel must find it
 * by the team alone. An org-wide install has no team and is found by its enterprise.
 */
const workspaceOf = (k: InstallationKey) =>
  k.teamId ? eq(slackInstallation.teamId, k.teamId) : eq(slackInstallation.key, keyOf(k));

export function createSlackInstallationRepo(
  store: Store,
  sealer: Sealer,
  now: () => number = Date.now,
): Synced<SlackInstallationRepo> {
  const { db } = store;
  return {
    /**
     * Saves (or replaces) a workspace's installation; true when the workspace had none. One row per workspace: one
     * saved before under another enterprise (a workspace since moved into a Grid org) is replaced too.
     */
    save(k: InstallationKey, installation: unknown): boolean {
      const at = now();
      const { sealed, keyId } = sealer.seal(JSON.stringify(installation));
      return store.sqlite.transaction(() => {
        const before = db.select({ key: slackInstallation.key }).from(slackInstallation).where(workspaceOf(k)).get();
        if (k.teamId) {
          db.delete(slackInstallation)
            .where(and(workspaceOf(k), ne(slackInstallation.key, keyOf(k))))
            .run();
        }
        db.insert(slackInstallation)
          .values({
            key: keyOf(k),
            teamId: k.teamId ?? null,
            enterpriseId: k.enterpriseId ?? null,
            sealed,
            keyId,
            installedAt: at,
            updatedAt: at,
          })
          .onConflictDoUpdate({ target: slackInstallation.key, set: { sealed, keyId, updatedAt: at } })
          .run();
        return before === undefined;
      })();
    },

    /** The installation, opened; undefined when the workspace has none. Throws when no configured key can open it. */
    fetch(k: InstallationKey): unknown {
      const row = db
        .select({ sealed: slackInstallation.sealed })
        .from(slackInstallation)
        .where(workspaceOf(k))
        .orderBy(desc(slackInstallation.updatedAt))
        .get();
      return row ? JSON.parse(sealer.open(row.sealed)) : undefined;
    },

    delete(k: InstallationKey): boolean {
      return db.delete(slackInstallation).where(workspaceOf(k)).run().changes > 0;
    },

    list(): InstallationListing[] {
      return db
        .select({
          teamId: slackInstallation.teamId,
          enterpriseId: slackInstallation.enterpriseId,
          installedAt: slackInstallation.installedAt,
          keyId: slackInstallation.keyId,
        })
        .from(slackInstallation)
        .all();
    },

    /** Rotation: seals again with the current key what an older one sealed; how many. */
    reseal(): number {
      return store.sqlite.transaction(() => {
        let n = 0;
        for (const row of db.select().from(slackInstallation).all()) {
          const again = resealed(sealer, row);
          if (!again) continue;
          db.update(slackInstallation)
            .set({ ...again, updatedAt: now() })
            .where(eq(slackInstallation.key, row.key))
            .run();
          n++;
        }
        return n;
      })();
    },

    /**
     * Holds every channel of a workspace (`slack:T123:`) that has alerts, digests or queued messages: nothing is
     * polled, composed or posted there until `releaseWorkspace`. Returns how many channels.
     */
    holdWorkspace(prefix: string, at: number = now()): number {
      return store.sqlite.transaction(() => {
        const channels = new Set<string>();
        for (const table of [standingOrder, outbox] as const) {
          for (const r of db
            .selectDistinct({ channel: table.channel })
            .from(table)
            .where(like(table.channel, `${prefix}%`))
            .all())
            channels.add(r.channel);
        }
        for (const channel of channels) {
          db.insert(channelHold)
            .values({ channel, reason: REMOVED_REASON, since: at, retryAt: NEVER })
            .onConflictDoUpdate({ target: channelHold.channel, set: { reason: REMOVED_REASON, retryAt: NEVER } })
            .run();
        }
        return channels.size;
      })();
    },

    /** The workspace added Manzil again: its channels held for its removal go on, their queued messages due now. */
    releaseWorkspace(prefix: string, at: number = now()): number {
      return store.sqlite.transaction(() => {
        const held = db
          .delete(channelHold)
          .where(and(like(channelHold.channel, `${prefix}%`), eq(channelHold.reason, REMOVED_REASON)))
          .returning({ channel: channelHold.channel })
          .all();
        for (const { channel } of held) {
          db.update(outbox)
            .set({ nextAttemptAt: at })
            .where(and(eq(outbox.channel, channel), eq(outbox.state, 'pending'), sql`${outbox.nextAttemptAt} > ${at}`))
            .run();
        }
        return held.length;
      })();
    },
  };
}
