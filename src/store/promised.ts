// The store as the core reaches it: each repository's methods answer with promises, so a database whose driver only
// answers asynchronously (Postgres) can stand behind the same names as SQLite. The SQLite repositories stay
// synchronous inside (better-sqlite3 runs a transaction's callback synchronously and rejects async ones), and are
// handed to the core through `promised`.

/** `R` with every method answering a promise of what it returned. */
export type Promised<R> = {
  [K in keyof R]: R[K] extends (...args: infer A) => infer T ? (...args: A) => Promise<Awaited<T>> : never;
};

/** A synchronous repository behind the promised port: a throw becomes a rejection, as a database error would be. */
export function promised<R extends object>(repo: R): Promised<R> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(repo)) {
    if (typeof value !== 'function') throw new TypeError(`promised: ${name} is not a method`);
    out[name] = (...args: unknown[]) => {
      try {
        return Promise.resolve(value(...args));
      } catch (error) {
        return Promise.reject(error);
      }
    };
  }
  return out as Promised<R>;
}
