// Slack workspaces that added Manzil, on Postgres, implementing ../contracts/installations.ts (which says what each
// method promises) as ../installations.ts does on SQLite: Bolt's installations sealed at rest, and the hold a removed
// workspace puts on its channels. Holding and releasing a workspace are one transaction each, as there.
import { and, asc, desc, eq, gt, inArray, like, ne, sql } from 'drizzle-orm';
import type { InstallationKey, SlackInstallationRepo } from '../contracts/installations.js';
import type { Sealer } from '../sealing.js';
import { keyOf, NEVER, REMOVED_REASON, resealed } from '../state-and-cache-values.js';
import type { PgStore } from './open.js';
import { outbox, channelHold, standingOrder, slackInstallation } from './schema.js';
import type { PgTx } from './tx.js';

/** The channels of a workspace (`slack:T123:`) with alerts, digests or queued messages. */
async function channelsOf(tx: PgTx, prefix: string): Promise<Set<string>> {
  const channels = new Set<string>();
  for (const table of [standingOrder, outbox] as const) {
    for (const r of await tx
      .selectDistinct({ channel: table.channel })
      .from(table)
      .where(like(table.channel, `${prefix}%`)))
      channels.add(r.channel);
  }
  return channels;
}

export function createPgSlackInstallationRepo(
  store: PgStore,
  sealer: Sealer,
  now: () => number = Date.now,
): SlackInstallationRepo {
  const { db } = store;
  // A workspace is its team, whatever its enterprise (see workspaceOf there); an org-wide install, its enterprise.
  const ofWorkspace = (k: InstallationKey) =>
    k.teamId ? eq(slackInstallation.teamId, k.teamId) : eq(slackInstallation.key, keyOf(k));
  return {
    async save(k, installation) {
      const at = now();
      const { sealed, keyId } = sealer.seal(JSON.stringify(installation));
      return db.transaction(async (tx) => {
        // The workspace's row saved under another enterprise (it moved into a Grid org) is replaced: one per workspace.
        const moved = k.teamId
          ? await tx.delete(slackInstallation).where(and(ofWorkspace(k), ne(slackInstallation.key, keyOf(k))))
          : undefined;
        // The upsert is one statement, so two instances saving one workspace at once cannot both call it new: a row it
        // inserted has no updating transaction (xmax 0); one it updated has.
        const [row] = await tx
          .insert(slackInstallation)
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
          .returning({ inserted: sql<boolean>`(${slackInstallation}.xmax = 0)` });
        return row!.inserted && (moved?.rowCount ?? 0) === 0;
      });
    },

    async fetch(k) {
      const [row] = await db
        .select({ sealed: slackInstallation.sealed })
        .from(slackInstallation)
        .where(ofWorkspace(k))
        .orderBy(desc(slackInstallation.updatedAt))
        .limit(1);
      return row ? (JSON.parse(sealer.open(row.sealed)) as unknown) : undefined;
    },

    async delete(k) {
      const result = await db.delete(slackInstallation).where(ofWorkspace(k));
      return (result.rowCount ?? 0) > 0;
    },

    async list() {
      // In the order they were installed (SQLite, with no order asked, reads them in the order they were written).
      return db
        .select({
          teamId: slackInstallation.teamId,
          enterpriseId: slackInstallation.enterpriseId,
          installedAt: slackInstallation.installedAt,
          keyId: slackInstallation.keyId,
        })
        .from(slackInstallation)
        .orderBy(asc(slackInstallation.installedAt), asc(slackInstallation.key));
    },

    async reseal() {
      return db.transaction(async (tx) => {
        let n = 0;
        // Locked: two instances starting with a new key at once seal each installation once.
        for (const row of await tx.select().from(slackInstallation).for('update')) {
          const again = resealed(sealer, row);
          if (!again) continue;
          await tx
            .update(slackInstallation)
            .set({ ...again, updatedAt: now() })
            .where(eq(slackInstallation.key, row.key));
          n++;
        }
        return n;
      });
    },

    async holdWorkspace(prefix, at = now()) {
      return db.transaction(async (tx) => {
        const channels = await channelsOf(tx, prefix);
        for (const channel of channels) {
          await tx
            .insert(channelHold)
            .values({ channel, reason: REMOVED_REASON, since: at, retryAt: NEVER })
            .onConflictDoUpdate({ target: channelHold.channel, set: { reason: REMOVED_REASON, retryAt: NEVER } });
        }
        return channels.size;
      });
    },

    async releaseWorkspace(prefix, at = now()) {
      return db.transaction(async (tx) => {
        // Only the holds of its removal: a channel held for a reason of its own (archived) stays held.
        const held = await tx
          .delete(channelHold)
          .where(and(like(channelHold.channel, `${prefix}%`), eq(channelHold.reason, REMOVED_REASON)))
          .returning({ channel: channelHold.channel });
        if (held.length > 0) {
          await tx
            .update(outbox)
            .set({ nextAttemptAt: at })
            .where(
              and(
                inArray(
                  outbox.channel,
                  held.map((h) => h.channel),
                ),
                eq(outbox.state, 'pending'),
                gt(outbox.nextAttemptAt, at),
              ),
            );
        }
        return held.length;
      });
    },
  };
}
