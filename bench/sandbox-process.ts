// The sandbox in its own process, as the real service would be, so its work does not queue behind the measured
// code on one event loop and its memory is not counted as ours. Controlled over its /__sandbox/ HTTP routes.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export async function startSandboxProcess(key: string) {
  const bin = fileURLToPath(new URL('../bin/manzil.js', import.meta.url));
  const child = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--key', key], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, MANZIL_FROM_SOURCE: '1' },
  });
  for await (const line of createInterface({ input: child.stdout! })) {
    const url = /listening on (http:\/\/\S+)/.exec(line)?.[1];
    if (!url) continue;
    const control = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${url}/__sandbox/${path}`, {
        method,
        ...(body ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
      });
      if (!res.ok) throw new Error(`sandbox control ${path}: ${res.status}`);
      return res.json() as Promise<unknown>;
    };
    return {
      url,
      /** Its process id: the shared bench reads its CPU from /proc. */
      pid: child.pid!,
      control,
      stop: async () => {
        child.kill('SIGTERM');
        await once(child, 'exit');
      },
    };
  }
  throw new Error('the sandbox process did not start');
}

/** Five areas of the sandbox's geography: a digest of them and a compare of them are measured on the same ones. */
export const FIVE_AREAS = [
  { id: 50, name: 'Dubai Marina' },
  { id: 86, name: 'Business Bay' },
  { id: 43, name: 'Jumeirah Village Circle' },
  { id: 51, name: 'Downtown Dubai' },
  { id: 41, name: 'Palm Jumeirah' },
];
