// The shared bench's instances (bench/shared-instance.ts), each forked by the measuring process (bench/shared.ts)
// with IPC: asked by id, answered by id, stopped (or killed) at the end.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { INSTANCE_FLAG, type Reply, type Request } from './shared-instance.js';

/** How long an instance may take to stop (its parts under way finishing) before it is killed. */
const STOP_TIMEOUT_MS = 30_000;

/** One instance process (bench/shared-instance.ts), forked with IPC: its requests answered by id, the ready one 0. */
export function forkInstance(n: number, env: Record<string, string>) {
  const file = fileURLToPath(new URL('./shared-instance.ts', import.meta.url));
  // Its stdout goes to our stderr: our stdout carries the figures to the bench (child.ts).
  const child = fork(file, [INSTANCE_FLAG], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 2, 'inherit', 'ipc'],
    env: { ...process.env, ...env, BENCH_SHARED_HOLDER: `bench-instance-${n}` },
  });
  const pending = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let stopping = false;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const died = new Promise<never>((_, reject) =>
    child.once('exit', (code, signal) => {
      const error = new Error(`bench: instance ${n} exited (${signal ?? `code ${code}`})`);
      for (const p of pending.values()) p.reject(error);
      if (!stopping) reject(error);
    }),
  );
  died.catch(() => undefined); // seen by whoever races it
  child.on('message', (reply: Reply) => {
    const p = pending.get(reply.id);
    pending.delete(reply.id);
    if (reply.error) p?.reject(new Error(`bench: instance ${n}: ${reply.error}`));
    else p?.resolve(reply);
  });
  const answer = (id: number) => new Promise<Reply>((resolve, reject) => pending.set(id, { resolve, reject }));
  const ready = answer(0);
  const request = (type: Request['type']) => {
    const id = nextId++;
    const replied = answer(id);
    child.send({ id, type } satisfies Request);
    return replied;
  };
  return {
    ready,
    died,
    request,
    read: async () => (await request('read')).counters!,
    progress: async () => (await request('progress')).progress!,
    /** Asks it to stop (its scheduler, client and store) and exit; kills it if it has not within STOP_TIMEOUT_MS. */
    stop: async () => {
      stopping = true;
      if (alive() && child.connected) await within(request('stop'), STOP_TIMEOUT_MS).catch(() => undefined);
      const gone = await within(exited, STOP_TIMEOUT_MS)
        .then(() => true)
        .catch(() => false);
      if (!gone) child.kill('SIGKILL');
      await exited;
    },
  };
}
export type Instance = ReturnType<typeof forkInstance>;

function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms)),
  );
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}
