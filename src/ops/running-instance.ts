// Whether Manzil runs on an SQLite file: an instance's heartbeat (jobs/heartbeat.ts) younger than LAPSE_MS. One check
// for every command that must not work under a running instance (`manzil restore`, `manzil migrate-to-postgres`).
import Database from 'better-sqlite3';
import { LAPSE_MS } from '../jobs/heartbeat.js';

export interface RunningInstance {
  id: string;
  host: string;
  pid: number;
  heartbeatAt: number;
}

/** The instances whose heartbeat in `db` is fresh at `at`, the freshest first. Throws when the file cannot be read. */
export function runningInstances(db: Database.Database, at: number): RunningInstance[] {
  // A database no Manzil has run on yet (or one from before heartbeats) has no instance table.
  if (db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'instance'").get() === undefined)
    return [];
  return db
    .prepare(
      'SELECT id, host, pid, heartbeat_at AS heartbeatAt FROM instance WHERE heartbeat_at > ? ORDER BY heartbeat_at DESC',
    )
    .all(at - LAPSE_MS) as RunningInstance[];
}

/** "Manzil is running on <file> (instance …, heartbeat 3 s ago)": what the operator reads before "stop it first". */
export function runningOn(dbPath: string, i: RunningInstance, at: number): string {
  return `Manzil is running on ${dbPath} (instance ${i.id} on ${i.host}, pid ${i.pid}, heartbeat ${Math.max(0, Math.round((at - i.heartbeatAt) / 1000))} s ago)`;
}

/** The same, opening the file only to look. */
export function runningInstancesOnFile(dbPath: string, at: number): RunningInstance[] {
  const db = new Database(dbPath, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    return runningInstances(db, at);
  } finally {
    db.close();
  }
}
