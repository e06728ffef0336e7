// A chat channel's own settings on Postgres, as ../channel-settings.ts keeps them on SQLite.
import { and, eq, gt, inArray } from 'drizzle-orm';
import type { ChannelSettings, ChannelSettingsRepo } from '../contracts/channel-settings.js';
import type { PgStore } from './open.js';
import { channelSetting as c, outbox } from './schema.js';
import type { PgRunner } from './tx.js';

export function createPgChannelSettingsRepo(store: PgStore): ChannelSettingsRepo {
  const { db } = store;
  const upsert = (tx: PgRunner, channel: string, set: Partial<Omit<ChannelSettings, 'channel'>>, at: number) =>
    tx
      .insert(c)
      .values({ channel, ...set, updatedAt: at })
      .onConflictDoUpdate({ target: c.channel, set: { ...set, updatedAt: at } });
  return {
    async channelSettings(channels) {
      if (channels.length === 0) return [];
      return db
        .select({ channel: c.channel, quietFrom: c.quietFrom, quietTo: c.quietTo, timezone: c.timezone })
        .from(c)
        .where(inArray(c.channel, [...channels]));
    },
    async setQuiet(channel, quiet, at) {
      await db.transaction(async (tx) => {
        await upsert(tx, channel, { quietFrom: quiet?.from ?? null, quietTo: quiet?.to ?? null }, at);
        if (quiet === null)
          await tx
            .update(outbox)
            .set({ nextAttemptAt: at })
            .where(and(eq(outbox.state, 'held'), eq(outbox.channel, channel), gt(outbox.nextAttemptAt, at)));
      });
    },
    async setTimezone(channel, timezone, at) {
      await upsert(db, channel, { timezone }, at);
    },
  };
}
