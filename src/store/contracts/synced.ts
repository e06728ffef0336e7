// The SQLite repositories stay synchronous inside (better-sqlite3 runs a transaction's callback synchronously, so one
// repository can take part in another's transaction), and are handed out through `promised` (../promised.ts). Their
// type is derived from the written contract, not the other way round: `Synced<XRepo>` is what a SQLite factory must
// return, so the contract is checked against the implementation.

/** `R` with every method answering what its promise resolved to. */
export type Synced<R> = {
  [K in keyof R]: R[K] extends (...args: infer A) => Promise<infer T> ? (...args: A) => T : never;
};
