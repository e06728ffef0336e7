// A batch's listing stories as its own transaction would read them, kept in memory (issue 40). On Postgres a batch
// writes its stories only at its end, under locks taken in one order (./pg/seen.ts), so two batches never wait on each
// other's rows; its later queries still decide from its earlier queries' writes, read from here.
import type { HistoryWrites, ListingHistory } from './contracts/history.js';

const keyOf = (service: string, propertyId: string) => `${service}\u0000${propertyId}`;

export class HistoryOverlay {
  private readonly rows = new Map<string, ListingHistory>();

  /**
   * The stories of these listings as this batch stands: those read from the database with its writes over them, and
   * those it wrote that the database does not hold yet; in the order of the ids' bytes, as the database answers.
   */
  stories(service: string, ids: readonly string[], read: readonly ListingHistory[]): ListingHistory[] {
    const out = new Map(read.map((r) => [r.propertyId, r]));
    for (const id of new Set(ids)) {
      const mine = this.rows.get(keyOf(service, id));
      if (mine) out.set(id, mine);
    }
    return [...out.values()].sort((a, b) => Buffer.compare(Buffer.from(a.propertyId), Buffer.from(b.propertyId)));
  }

  /**
   * One query's writes applied as the database applies them (./listing-history.ts's statements): a row whole, its
   * first sight never later and its last never earlier; a last sight moved on; gone unless gone or seen since.
   * `given`: the stories the query decided from, which the writes change.
   */
  apply(service: string, given: readonly ListingHistory[], w: HistoryWrites): void {
    const base = new Map(given.map((r) => [r.propertyId, r]));
    const current = (id: string) => this.rows.get(keyOf(service, id)) ?? base.get(id);
    const put = (r: ListingHistory) => this.rows.set(keyOf(service, r.propertyId), r);
    for (const row of w.rows) {
      const old = current(row.propertyId);
      put(
        old
          ? {
              ...row,
              firstSeenAt: Math.min(old.firstSeenAt, row.firstSeenAt),
              lastSeenAt: Math.max(old.lastSeenAt, row.lastSeenAt),
              title: row.title ?? old.title,
            }
          : row,
      );
    }
    for (const id of w.seen) {
      const old = current(id);
      if (old && old.lastSeenAt < w.at) put({ ...old, lastSeenAt: w.at });
    }
    for (const id of w.gone) {
      const old = current(id);
      if (old && old.goneSince === null && old.lastSeenAt < w.at) put({ ...old, goneSince: w.at });
    }
  }
}
