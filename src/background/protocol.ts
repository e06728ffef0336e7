// The messages between the main thread (chat, commands, /healthz) and the delivery thread (the drainer, the poller and
// the digests, on a SQLite connection of their own).
import type { Config } from '../config.js';
import type { UpstreamCall } from '../ops/metrics.js';
import type { PlatformStatus } from '../outbox/index.js';

export interface WorkerInit {
  config: Config;
  service: string;
  /** The thread's name on claims, leases and its heartbeat. */
  instance: string;
  alertsCron: string;
  logFormat: 'json' | 'pretty';
  /** The write lock's shared buffer (see store/write-lock.ts): the main thread writes first. */
  /** SQLite only: the write lock shared with the main thread. */
  writeLock: SharedArrayBuffer | undefined;
}

/** What the main thread can ask for and wait on. */
export type CallName = 'drain' | 'poll' | 'digests';

export type ToWorker =
  | { t: 'start' }
  | { t: 'poke' }
  | { t: 'runSoon'; job: string }
  | { t: 'call'; id: number; name: CallName }
  | { t: 'stop' };

export type FromWorker =
  | { t: 'ready' }
  | { t: 'log'; line: string }
  | { t: 'platforms'; status: PlatformStatus[] }
  | { t: 'delivered' | 'failed'; channel: string; kind: string }
  | { t: 'pollerRun'; ok: boolean }
  | { t: 'upstream'; call: UpstreamCall }
  | { t: 'result'; id: number; value?: unknown; error?: string }
  | { t: 'stopped' };
