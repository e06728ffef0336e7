// A chat channel's own settings (issue 40), on either database (SQLite ../channel-settings.ts, Postgres
// ../pg/channel-settings.ts): its quiet hours and its time zone. Plain types, in a module that imports none of them.

/** What a channel has set; a channel that set nothing has no row (and reads as all null). */
export interface ChannelSettings {
  channel: string;
  /** Quiet hours, local `HH:MM`; both null when off. */
  quietFrom: string | null;
  quietTo: string | null;
  /** An IANA time zone name; null: MANZIL_TIMEZONE. */
  timezone: string | null;
}

export interface ChannelSettingsRepo {
  /** The settings of these channels that set any, in no particular order. */
  channelSettings(channels: readonly string[]): Promise<ChannelSettings[]>;
  /**
   * Sets a channel's quiet hours (`null`: off). Turned off, the entries held for its quiet hours are due at `at` in
   * the same transaction (released, folded, at the next delivery pass).
   */
  setQuiet(channel: string, quiet: { from: string; to: string } | null, at: number): Promise<void>;
  /** Sets a channel's time zone (`null`: MANZIL_TIMEZONE again). */
  setTimezone(channel: string, timezone: string | null, at: number): Promise<void>;
}
