// A crash of a running Manzil (an exception nothing caught, a rejection nothing handled), its message holding a secret:
// one line in the log, masked; the process exits non-zero for its service manager to restart it; the secret reaches
// neither stdout nor stderr, and no stack reaches the chat. Manzil's real entry runs in a child (crash-child.ts).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../ops/helpers.js';
import { nodeArgs } from '../support/child.js';

const CHILD = new URL('./crash-child.ts', import.meta.url);
const KEY = '3f'.repeat(16) + 'c0ffee11'.repeat(4); // MANZIL_ENCRYPTION_KEY: 32 bytes in hex
const KEY_BASE64 = Buffer.from(KEY, 'hex').toString('base64');

async function crash(mode: 'throw' | 'reject') {
  const dir = tempDir('manzil-crash-');
  const child = spawn(process.execPath, nodeArgs(CHILD), {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: dir,
      MANZIL_DB_PATH: join(dir, 'data', 'manzil.db'),
      MANZIL_DEMO_TICK_S: '0',
      MANZIL_ENCRYPTION_KEY: KEY,
      CRASH: mode,
      CRASH_MESSAGE: `cannot open the vault with ${KEY} (or ${KEY_BASE64})`,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  // The chat is up once its banner is out: then the running service fails.
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (stdout.includes('Manzil terminal chat')) resolve();
    });
    void closed.then(() => reject(new Error(`the child ended before its chat started:\n${stdout}\n${stderr}`)));
  });
  child.kill('SIGUSR2');
  const { code, signal } = await closed;
  const log = readFileSync(join(dir, 'data', 'manzil.log'), 'utf8');
  return {
    code,
    signal,
    stdout,
    stderr,
    log,
    entries: log
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { level: string; msg: string; error?: { message: string } }),
  };
}

describe('a crash of the running service', () => {
  for (const [mode, kind] of [
    ['throw', 'uncaught exception'],
    ['reject', 'unhandled rejection'],
  ] as const) {
    it(`an ${kind} is logged once, masked, and the process exits non-zero with no secret on stdout or stderr`, async () => {
      const r = await crash(mode);
      expect(r.signal).toBeNull();
      expect(r.code).toBe(1);
      // One line in the log, through the masked logger: the message kept, the secret in each of its forms blanked.
      const crashes = r.entries.filter((e) => e.msg.startsWith('crashed'));
      expect(crashes).toHaveLength(1);
      expect(crashes[0]).toMatchObject({
        level: 'error',
        msg: `crashed: ${kind}; exiting`,
        error: { message: 'cannot open the vault with *** (or ***)' },
      });
      // The terminal chat's screen gets that one error line, no stack, and never the secret.
      expect(r.stderr.split('\n').filter((l) => l.includes('crashed'))).toEqual([
        expect.stringMatching(/ERROR crashed: .*cannot open the vault with \*\*\* \(or \*\*\*\)/),
      ]);
      expect(r.stderr).not.toMatch(/^\s+at /m);
      for (const text of [r.stdout, r.stderr, r.log]) {
        expect(text).not.toContain(KEY);
        expect(text).not.toContain(KEY_BASE64);
      }
      expect(r.stdout).not.toMatch(/crashed|cannot open the vault|^\s+at /m);
    }, 120_000);
  }
});
