// One writer at a time among the threads of this process, handed over at once and chat's thread first.
//
// Why: SQLite lets one connection write at a time, and a connection that finds the file locked waits in SQLite's busy
// handler, which sleeps 1, 2, 5, 10, 25, 50, 100 ms between tries. With the delivery thread writing hundreds of small
// transactions a second, the main thread's writes (a button's state, the call ledger) slept there for tens of
// milliseconds and more, and every chat request waiting behind them with it. Taking this lock first, a thread waits
// at most for the other's current transaction, and is woken the moment it ends (Atomics.notify).
//
// SQLite's own locking still guarantees correctness: this lock only orders the threads. So a wait that lasts too long
// (a thread that died holding it) stops waiting and goes on under SQLite's busy timeout, as without the lock.

/** Cells of the shared buffer. */
const HOLDER = 0; // 0: free; otherwise the holding thread's id + 1
const FIRST_WAITING = 1; // how many threads that go first (the main thread) are waiting

/** The longest a thread waits for the lock before it goes on without it (SQLite's busy timeout still applies). */
const MAX_WAIT_MS = 2_000;

export class WriteLock {
  private readonly cells: Int32Array;
  private depth = 0;
  private held = false;

  /**
   * `buffer`: made by `WriteLock.buffer()` and shared with the other threads (workerData). `first`: this thread goes
   * before the others when both wait (the thread that answers chat). `self`: this thread's id
   * (worker_threads.threadId).
   */
  constructor(
    readonly buffer: SharedArrayBuffer,
    private readonly self: number,
    private readonly first: boolean,
    private readonly now: () => number = Date.now,
  ) {
    this.cells = new Int32Array(buffer);
  }

  static buffer(): SharedArrayBuffer {
    return new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
  }

  /** Runs `work` holding the lock (re-entrant: a statement inside a transaction does not take it again). */
  run<T>(work: () => T): T {
    if (this.depth > 0) {
      this.depth++;
      try {
        return work();
      } finally {
        this.depth--;
      }
    }
    this.held = this.acquire();
    this.depth = 1;
    try {
      return work();
    } finally {
      this.depth = 0;
      if (this.held) this.release();
      this.held = false;
    }
  }

  /** A thread that died while holding the lock leaves it free (its SQLite connection rolled back as it closed). */
  releaseIfHeldBy(threadId: number): void {
    if (Atomics.compareExchange(this.cells, HOLDER, threadId + 1, 0) === threadId + 1)
      Atomics.notify(this.cells, HOLDER);
  }

  private acquire(): boolean {
    const c = this.cells;
    const deadline = this.now() + MAX_WAIT_MS;
    if (this.first) Atomics.add(c, FIRST_WAITING, 1);
    try {
      for (;;) {
        // The others let a waiting first thread go ahead of them.
        const ahead = this.first ? 0 : Atomics.load(c, FIRST_WAITING);
        if (ahead === 0) {
          const holder = Atomics.compareExchange(c, HOLDER, 0, this.self + 1);
          if (holder === 0) return true;
          if (this.now() > deadline) return false;
          Atomics.wait(c, HOLDER, holder, 50);
        } else {
          if (this.now() > deadline) return false;
          Atomics.wait(c, FIRST_WAITING, ahead, 5);
        }
      }
    } finally {
      if (this.first) {
        Atomics.sub(c, FIRST_WAITING, 1);
        Atomics.notify(c, FIRST_WAITING);
      }
    }
  }

  private release(): void {
    Atomics.store(this.cells, HOLDER, 0);
    Atomics.notify(this.cells, HOLDER);
  }
}
