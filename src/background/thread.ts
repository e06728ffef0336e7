// The main thread's handle on the delivery thread (worker.ts): it starts the thread, forwards pokes and runs to it,
// mirrors its platforms' state and counters, writes its log lines, and starts it again if it dies.
import { Worker } from 'node:worker_threads';
import type { RunReport } from '../alerts/index.js';
import type { runDigests } from '../digests/index.js';
import type { Logger } from '../log.js';
import type { Delivery, DrainReport, PlatformStatus } from '../outbox/index.js';
import type { UpstreamCall } from '../ops/metrics.js';
import type { CallName, FromWorker, ToWorker, WorkerInit } from './protocol.js';
import type { BackgroundEvents } from '../app/background.js';

export interface DeliveryThreadOptions {
  /** Everything but the thread's instance name, which is new for each thread started. */
  init: Omit<WorkerInit, 'instance'>;
  /** Names the thread started after a crash (`<process instance>-d<n>`). */
  instancePrefix: string;
  logger: Logger;
  /** Where the thread's log lines go, as the main thread's own go. */
  writeLog: (line: string) => void;
  events: BackgroundEvents & { upstream(call: UpstreamCall): void };
  /** A thread that died: its claims are handed over at once (its heartbeat row marked lapsed), its write lock freed. */
  onDied(instance: string, threadId: number): void;
}

/** How long a thread that died waits before it is started again; doubles up to the cap. */
const RESTART_MS = 1_000;
const MAX_RESTART_MS = 60_000;
/** How long a stop waits for the thread to finish its posts in flight before it is terminated. */
const STOP_WAIT_MS = 30_000;

/**
 * The worker's module: its compiled JavaScript, or its TypeScript source when this file runs from source (tsx, vitest).
 */
function workerEntry(): { url: URL; fromSource: boolean } {
  const fromSource = import.meta.url.endsWith('.ts');
  return { url: new URL(fromSource ? './worker.ts' : './worker.js', import.meta.url), fromSource };
}

function spawn(init: WorkerInit): Worker {
  const { url, fromSource } = workerEntry();
  if (!fromSource) return new Worker(url, { workerData: init });
  // A worker does not inherit the TypeScript loader: it registers tsx (a dev dependency) before importing its entry.
  const boot = `import { register } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))}; register(); await import(${JSON.stringify(url.href)});`;
  return new Worker(boot, { eval: true, workerData: init });
}

export class DeliveryThread implements Delivery {
  private worker: Worker | undefined;
  private instance = '';
  private generation = 0;
  private platforms: PlatformStatus[] = [];
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private nextId = 0;
  private started = false;
  private stopping = false;
  private restartMs = RESTART_MS;
  private restartTimer: NodeJS.Timeout | undefined;
  private stopped: (() => void) | undefined;

  readonly gate = {
    status: (): PlatformStatus[] => this.platforms,
    isPaused: (platform: string) => this.platforms.some((p) => p.platform === platform && p.paused),
    open: () => this.platforms.filter((p) => !p.paused).map((p) => p.platform),
  };

  constructor(private readonly o: DeliveryThreadOptions) {}

  /** Starts the thread; resolves once it has opened the database and its clients, rejects when it cannot. */
  open(): Promise<void> {
    return this.spawn();
  }

  /** Whether a thread is up now (false between a crash and its restart): /healthz shows it. */
  get running(): boolean {
    return this.worker !== undefined;
  }

  private spawn(): Promise<void> {
    this.instance = `${this.o.instancePrefix}-d${++this.generation}`;
    const worker = spawn({ ...this.o.init, instance: this.instance });
    const instance = this.instance;
    const threadId = worker.threadId;
    return new Promise<void>((resolve, reject) => {
      let ready = false;
      worker.on('message', (m: FromWorker) => {
        if (m.t === 'ready') {
          ready = true;
          this.worker = worker;
          if (this.started) this.send({ t: 'start' });
          resolve();
        } else this.receive(m);
      });
      worker.on('error', (e) => this.o.logger.error('delivery thread failed', { error: e, instance }));
      worker.on('exit', (code) => {
        if (!ready) return reject(new Error(`the delivery thread could not start (exit ${code})`));
        this.worker = undefined;
        for (const p of this.pending.values()) p.reject(new Error('the delivery thread stopped'));
        this.pending.clear();
        if (this.stopping) return this.stopped?.();
        // Nothing is lost: the outbox is in the database. The claims of the dead thread are handed over at once.
        this.o.onDied(instance, threadId);
        this.o.logger.error('delivery thread exited; starting it again', { code, instance, inMs: this.restartMs });
        this.restartTimer = setTimeout(() => {
          this.restartTimer = undefined;
          this.spawn().then(
            () => (this.restartMs = RESTART_MS),
            (e: unknown) => this.o.logger.error('delivery thread: restart failed', { error: e }),
          );
        }, this.restartMs);
        this.restartMs = Math.min(this.restartMs * 2, MAX_RESTART_MS);
      });
    });
  }

  private receive(m: FromWorker): void {
    const e = this.o.events;
    if (m.t === 'log') this.o.writeLog(m.line);
    else if (m.t === 'platforms') this.platforms = m.status;
    else if (m.t === 'delivered') e.delivered(m.channel, m.kind);
    else if (m.t === 'failed') e.failed(m.channel, m.kind);
    else if (m.t === 'pollerRun') e.pollerRun(m.ok);
    else if (m.t === 'upstream') e.upstream(m.call);
    else if (m.t === 'result') {
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.error !== undefined) p?.reject(new Error(m.error));
      else p?.resolve(m.value);
    }
  }

  private send(m: ToWorker): void {
    this.worker?.postMessage(m);
  }

  private call<T>(name: CallName): Promise<T> {
    if (!this.worker) return Promise.reject(new Error('the delivery thread is not running'));
    const id = ++this.nextId;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.send({ t: 'call', id, name });
    });
  }

  start(): void {
    this.started = true;
    this.send({ t: 'start' });
  }

  poke(): void {
    this.send({ t: 'poke' });
  }

  /** Runs a job (the poller, for a new alert's first look) now or right after its current run. */
  runSoon(job: string): void {
    this.send({ t: 'runSoon', job });
  }

  drain(): Promise<DrainReport> {
    return this.call<DrainReport>('drain');
  }

  poll(): Promise<RunReport> {
    return this.call<RunReport>('poll');
  }

  digests(): ReturnType<typeof runDigests> {
    return this.call('digests');
  }

  /**
   * Ends the thread at once, as a crash would (tests; an operator's last resort): it is started again, nothing lost.
   */
  async terminate(): Promise<void> {
    await this.worker?.terminate();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => (this.stopped = resolve));
    this.send({ t: 'stop' });
    const timer = setTimeout(() => {
      this.o.logger.warn('delivery thread: still stopping; terminating it', { waitedMs: STOP_WAIT_MS });
      void worker.terminate();
    }, STOP_WAIT_MS);
    await exited;
    clearTimeout(timer);
  }
}
