// Starts `manzil start` in a child process, as a person would: in a real terminal (a pty made by `script`
// from util-linux) or with piped stdin. No keys, so it runs on the embedded sandbox; its own temp database.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { manzilArgs } from '../support/child.js';

export interface ChatProcess {
  child: ChildProcessWithoutNullStreams;
  /** Everything printed so far (stdout and stderr). */
  output(): string;
  /** Resolves when the output matches, or rejects after `ms`. */
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpExecArray>;
  /** Resolves with the exit code, or rejects when the process is still running after `ms`. */
  exit(ms: number): Promise<number | null>;
  /** Injects a fault into the embedded sandbox, through its control API (its URL is in the log). */
  addFault(rule: Record<string, unknown>): Promise<void>;
  /** Resolves once the embedded sandbox has received a request to `path` (the command is then surely in flight). */
  reached(path: string, ms?: number): Promise<void>;
  kill(): void;
  /** The folder of its database and its log file (manzil.log). */
  dir: string;
}

/** Colour codes (SGR): `waitFor` matches the output with and without them. */
// eslint-disable-next-line no-control-regex -- the escape character is what is looked for
export const SGR = /\x1b\[[0-9;]*m/g;

export function spawnChat({ tty, env: extra = {} }: { tty: boolean; env?: Record<string, string> }): ChatProcess {
  const dir = mkdtempSync(join(tmpdir(), 'manzil-chat-'));
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir,
    SHELL: '/bin/sh',
    TERM: 'xterm',
    MANZIL_DB_PATH: join(dir, 'm.db'),
    MANZIL_FROM_SOURCE: '1', // the tests run the TypeScript source, never a build
    LOG_LEVEL: 'info',
    ...extra,
  };
  const child = tty
    ? spawn(
        'script',
        ['-qfec', `exec ${[process.execPath, ...manzilArgs('start')].map((a) => `'${a}'`).join(' ')}`, '/dev/null'],
        { env },
      )
    : spawn(process.execPath, manzilArgs('start'), { env });
  let text = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    text += chunk.toString();
    for (const l of listeners) l();
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const waitFor = (pattern: RegExp, ms = 20_000) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const m = pattern.exec(text) ?? pattern.exec(text.replace(SGR, ''));
        if (!m) return;
        listeners.delete(check);
        clearTimeout(timer);
        resolve(m);
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`timed out waiting for ${pattern} in:\n${text}`));
      }, ms);
      listeners.add(check);
      check();
    });

  /**
   * The embedded sandbox's URL, from the log line that names it: on the screen when it is a warning (Slack or Discord
   * on
   * the sandbox), else in the terminal chat's log file beside the database.
   */
  const sandboxUrl = async (ms = 20_000): Promise<string> => {
    const pattern = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/;
    for (const end = Date.now() + ms; ;) {
      let file = '';
      try {
        file = readFileSync(join(dir, 'manzil.log'), 'utf8');
      } catch {
        // not written yet
      }
      const m = pattern.exec(text) ?? pattern.exec(file);
      if (m) return m[1]!;
      if (Date.now() > end) throw new Error(`no sandbox URL in the output or the log within ${ms} ms:\n${text}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };

  return {
    child,
    dir,
    output: () => text,
    waitFor,
    exit: (ms) =>
      Promise.race([
        exited,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`still running after ${ms} ms:\n${text}`)), ms).unref(),
        ),
      ]),
    async addFault(rule) {
      const url = await sandboxUrl();
      const res = await fetch(`${url}/__sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(rule),
      });
      if (!res.ok) throw new Error(`fault refused: ${res.status}`);
    },
    async reached(path, ms = 20_000) {
      const url = await sandboxUrl();
      const deadline = Date.now() + ms;
      for (;;) {
        const log = (await (await fetch(`${url}/__sandbox/requests`)).json()) as { path: string }[];
        if (log.some((r) => r.path === path)) return;
        if (Date.now() > deadline) throw new Error(`the sandbox saw no request to ${path} within ${ms} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    kill: () => {
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
