// The lease and heartbeat types both databases share (SQLite ./leases.ts, Postgres ./pg/leases.ts, and the pure rules
// of ./claims.ts): plain types in a module that imports none of them.

/** Who holds a lease, and under which token. */
export interface Fence {
  name: string;
  holder: string;
  token: number;
}

export interface InstanceInfo {
  id: string;
  host: string;
  pid: number;
}
