// A chat channel's own settings on SQLite (the contract: ./contracts/channel-settings.ts): quiet hours and time zone.
import { and, eq, gt } from 'drizzle-orm';
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
  // Read by every query of an alerts run (its channels' quiet hours and zones): prepared once, not built by drizzle
  // and prepared by SQLite on each call, which cost a tenth of a run's CPU.
  const read = sqlite.prepare(
    `SELECT place AS channel, quiet_from AS quietFrom, quiet_to AS quietTo, timezone FROM place_setting
     WHERE place IN (SELECT value FROM json_each(?))`,
  );
  return {
    channelSettings(channels) {
      if (channels.length === 0) return [];
      return read.all(JSON.stringify(channels)) as ChannelSettings[];
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
