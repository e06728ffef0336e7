// Slack workspaces that added Manzil, as both databases keep them (SQLite ../installations.ts, Postgres
// ../pg/installations.ts): written here, dialect-free. The store only keeps Bolt's installations sealed at rest
// (../sealing.ts) and the hold a removed workspace puts on its channels; what Add to Slack means to the core (save then
// release, delete then hold) is src/slack-installations.ts, behind the port the Slack adapter owns
// (src/ports/slack-installations.ts). Nothing here is fenced: each method is one transaction.

/** A workspace's key: its team, or for an org-wide (Enterprise Grid) install, which has no team, its enterprise. */
export interface InstallationKey {
  teamId?: string | undefined;
  enterpriseId?: string | undefined;
}

/** An installation as `manzil installations` lists it: who, since when, and under which key it is sealed. */
export interface InstallationListing {
  teamId: string | null;
  enterpriseId: string | null;
  installedAt: number;
  keyId: string;
}

export interface SlackInstallationRepo {
  /**
   * Seals and saves (or replaces) a workspace's installation; answers true when the workspace had none. One row per
   * workspace, found by its team whatever its enterprise: one saved before under another enterprise (a workspace
   * since moved into a Grid org) is replaced too.
   */
  save(key: InstallationKey, installation: unknown): Promise<boolean>;
  /**
   * The installation, opened; undefined when the workspace has none. Rejects when no configured key can open it (a
   * key removed too soon), rather than answering as if there were none.
   */
  fetch(key: InstallationKey): Promise<unknown>;
  /** Deletes the workspace's installation; answers false when it had none. */
  delete(key: InstallationKey): Promise<boolean>;
  /** Every installation, in the order they were installed; empty when none. Opens none of them. */
  list(): Promise<InstallationListing[]>;
  /** Key rotation: seals again with the current key what an older one sealed, each once; answers how many. */
  reseal(): Promise<number>;
  /**
   * Holds every channel of a workspace (`prefix`: `slack:T123:`) that has alerts, digests or queued messages, from
   * `at` (now when not given): nothing is polled, composed or posted there until `releaseWorkspace`. Answers how many
   * channels (0 when none).
   */
  holdWorkspace(prefix: string, at?: number): Promise<number>;
  /**
   * The workspace added Manzil again: only the holds of its removal are lifted (a channel held for a reason of its
   * own, such as archived, stays held), and their queued messages are due at `at` (now when not given). Answers how
   * many channels (0 when none).
   */
  releaseWorkspace(prefix: string, at?: number): Promise<number>;
}
