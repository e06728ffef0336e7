// One call's lifetime: a deadline over all its attempts and waits, the caller's signal, and the client's close.
// Whatever stops the call first aborts one signal, which the transport, every sleep and every wait obey.

export type StopKind = 'timeout' | 'cancelled' | 'closed';

/** Why a call was stopped; the client turns it into an ApiError. */
export class CallStopped extends Error {
  override readonly name = 'CallStopped';
  constructor(readonly kind: StopKind) {
    super(
      kind === 'timeout'
        ? 'the deadline passed'
        : kind === 'cancelled'
          ? 'the caller cancelled'
          : 'the client is closed',
    );
  }
}

export class CallScope {
  readonly deadlineMs: number;
  private readonly controller = new AbortController();
  private readonly startedAt = performance.now();
  private readonly timer: NodeJS.Timeout;
  private readonly external: AbortSignal | undefined;
  private readonly onExternalAbort = () => this.stop('cancelled');

  constructor(deadlineMs: number, external?: AbortSignal) {
    this.deadlineMs = deadlineMs;
    this.timer = setTimeout(() => this.stop('timeout'), deadlineMs);
    this.external = external;
    if (external?.aborted) this.stop('cancelled');
    else external?.addEventListener('abort', this.onExternalAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Why the call was stopped, once it was. */
  get stopped(): CallStopped | undefined {
    return this.signal.aborted ? (this.signal.reason as CallStopped) : undefined;
  }

  remainingMs(): number {
    return this.deadlineMs - (performance.now() - this.startedAt);
  }

  stop(kind: StopKind): void {
    if (!this.signal.aborted) this.controller.abort(new CallStopped(kind));
  }

  /** Throws the reason the call was stopped, if it was. */
  throwIfStopped(): void {
    if (this.signal.aborted) throw this.signal.reason;
  }

  /** Waits `ms`, or rejects with the reason as soon as the call is stopped. */
  sleep(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
    return this.race(waited).finally(() => clearTimeout(timer));
  }

  /** Settles as `work` does, or rejects with the reason as soon as the call is stopped. */
  race<T>(work: Promise<T>): Promise<T> {
    if (this.signal.aborted) {
      work.catch(() => {}); // settled later, by nobody
      return Promise.reject(this.signal.reason as Error);
    }
    return new Promise<T>((resolve, reject) => {
      const onStop = () => reject(this.signal.reason as Error);
      this.signal.addEventListener('abort', onStop, { once: true });
      work.then(
        (value) => {
          this.signal.removeEventListener('abort', onStop);
          resolve(value);
        },
        (error: unknown) => {
          this.signal.removeEventListener('abort', onStop);
          reject(error as Error);
        },
      );
    });
  }

  /** Ends the deadline timer and lets go of the caller's signal. */
  dispose(): void {
    clearTimeout(this.timer);
    this.external?.removeEventListener('abort', this.onExternalAbort);
  }
}
