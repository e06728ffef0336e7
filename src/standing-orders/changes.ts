// "The orders of owner X in team Y changed": told by the standing orders' commands after any change from any surface
// (typed, a button, a form, the Home tab), in this process, so a view of a person's orders (Slack's Home tab) can be
// drawn again. Platform-free; a listener that fails is logged by whoever listens, never by the change.

export type OrderChangeListener = (team: string, owner: string) => void;

export class OrderChanges {
  private readonly listeners = new Set<OrderChangeListener>();

  subscribe(listener: OrderChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells every listener, once per distinct owner. */
  changed(team: string, owners: Iterable<string>): void {
    for (const owner of new Set(owners))
      for (const listener of this.listeners) {
        try {
          listener(team, owner);
        } catch {
          // A listener's own failure is its to log; a change is never undone by it.
        }
      }
  }
}
