// "Add to Slack": the workspaces that added Manzil. The Slack adapter hands Bolt's installations to the core, which
// keeps them sealed in its store; the adapter never sees the store.

export interface WorkspaceKey {
  /** A workspace is found by its team alone, whatever its enterprise: a channel (`slack:T…:C…`) names only the team. */
  teamId?: string | undefined;
  /** Org-wide (Enterprise Grid) installs, which have no team, are kept by their enterprise. */
  enterpriseId?: string | undefined;
}

export interface SlackInstallations {
  /** A workspace added (or added again) Manzil: its installation is kept, and its channels held for a removal go on. */
  save(key: WorkspaceKey, installation: unknown): Promise<void>;
  /** The installation as it was saved; undefined when the workspace has none. */
  fetch(key: WorkspaceKey): Promise<unknown>;
  /** The workspace removed Manzil or revoked its token: its installation is deleted, its alerts and digests wait. */
  remove(key: WorkspaceKey, why: string): Promise<void>;
}
