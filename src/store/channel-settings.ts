// A chat channel's own settings on SQLite (the contract: ./contracts/channel-settings.ts): quiet hours and time zone.
import { and, eq, gt, inArray } from 'drizzle-orm';
import type { ChannelSettings, ChannelSettingsRepo } from './contracts/channel-settings.js';
import type { Synced } from './contracts/synced.js';
import type { Store } from './db.js';
import { channelSetting as c, outbox } from './schema.js';

export function createChannelSettingsRepo(store: Store): Synced<ChannelSettingsRepo> {
  const { db, sqlite } = store;
  const upsert = (channel: string, set: Partial<Omit<ChannelSettings, 'channel'>>, at: number) =>
    db
      .insert(c)
      .values({ channel, ...set, updatedAt: at })
      .onConflictDoUpdate({ target: c.channel, set: { ...set, updatedAt: at } })
      .run();
  return {
    channelSettings(channels) {
      if (channels.length === 0) return [];
      return db
        .select({ channel: c.channel, quietFrom: c.quietFrom, quietTo: c.quietTo, timezone: c.timezone })
        .from(c)
        .where(inArray(c.channel, [...channels]))
        .all();
    },
    setQuiet(channel, quiet, at) {
      sqlite
        .transaction(() => {
          upsert(channel, { quietFrom: quiet?.from ?? null, quietTo: quiet?.to ?? null }, at);
          if (quiet === null)
            db.update(outbox)
              .set({ nextAttemptAt: at })
              .where(and(eq(outbox.state, 'held'), eq(outbox.channel, channel), gt(outbox.nextAttemptAt, at)))
              .run();
        })
        .immediate();
    },
    setTimezone(channel, timezone, at) {
      upsert(channel, { timezone }, at);
    },
  };
}
