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

/** An instance as its heartbeat row records it (the SQLite schema's row: held equal by a type test). */
export interface InstanceRow extends InstanceInfo {
  startedAt: number;
  heartbeatAt: number;
}

/** A job's last run, as its lease recorded it at `finish`. */
export interface LastRun {
  at: number;
  ms: number;
  ok: boolean;
}

/**
 * Leases on named jobs (one poller run at a time across the instances sharing the database) and each instance's
 * heartbeat. A lease carries a fencing token, new at each take-over and never reused in the database: renewing,
 * finishing or committing under it checks the token, so an instance that stalled past its lease and lost it can
 * change nothing.
 */
export interface LeaseRepo {
  /**
   * Takes the lease `name` for `holder` until `at + ttlMs` when it is free, expired, or held by one of `gone`
   * (instances whose heartbeat lapsed): answers its fence, under a new token. Undefined while another holds it.
   */
  acquire(
    name: string,
    holder: string,
    at: number,
    ttlMs: number,
    gone?: readonly string[],
  ): Promise<Fence | undefined>;
  /** Extends the lease to `at + ttlMs`; only its holder under the same token can. False: it was lost (taken over). */
  renew(fence: Fence, at: number, ttlMs: number): Promise<boolean>;
  /** Whether `fence` still holds its lease: same name, holder and token. */
  holds(fence: Fence): Promise<boolean>;
  /**
   * Ends the run: frees the lease and records `run` (when given), only under the same token. False: the lease was
   * lost, and a stale run records nothing.
   */
  finish(fence: Fence, run: LastRun | undefined): Promise<boolean>;
  /**
   * A real committed write (the job row named 'healthz'), for /healthz: a read-only file, a full disk or a read-only
   * connection all reject it.
   */
  probe(at: number): Promise<void>;
  /** The job's last recorded run; undefined when it never finished one. */
  lastRun(name: string): Promise<LastRun | undefined>;
  /** This instance is alive at `at` (first seen: it started at `at`). */
  heartbeat(self: InstanceInfo, at: number): Promise<void>;
  /**
   * The ids of instances surely gone: their heartbeat is older than `lapseMs`, or they ran on this host under a
   * process id that no longer runs (`isAlive`), or under this very process's id but before `processStartedAt` (a
   * container restarted under the same pid; another instance started since, such as the delivery thread, is a
   * sibling). Their claims are taken over at once. Empty when none.
   */
  lapsed(
    self: InstanceInfo,
    at: number,
    lapseMs: number,
    isAlive: (pid: number) => boolean,
    processStartedAt?: number,
  ): Promise<string[]>;
  /** An instance known to be gone (a delivery thread that died): its heartbeat set back to `lapsedAt`, lapsed. */
  markGone(id: string, lapsedAt: number): Promise<void>;
  /**
   * Forgets these instances (this one, at a clean stop), or those whose heartbeat is older than `olderThan` (bounded
   * growth); answers how many (0 when none).
   */
  forget(ids: readonly string[] | { olderThan: number }): Promise<number>;
  /** Every instance known, latest heartbeat first; empty when none. */
  instances(): Promise<InstanceRow[]>;
}
