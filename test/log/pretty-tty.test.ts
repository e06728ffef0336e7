// LOG_FORMAT=auto as an operator meets it: readable lines (pino-pretty) when stderr is a real terminal, JSON lines when
// it is piped. The terminal is a real pty made by `script` from util-linux; the logger is the real one, in a child.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SGR } from '../console/spawn-chat.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const log = fileURLToPath(new URL('../../src/log.ts', import.meta.url));
// Node runs the TypeScript source through tsx (resolved from the checkout, the child's working directory).
// Double quotes only: `script` hands the command to a shell, which gets each argument in single quotes.
const code = `const { createLogger } = await import(${JSON.stringify(log)}); createLogger({ format: "auto" }).info("hello from the log", { answer: 42 });`;
const node = [process.execPath, '--import', 'tsx', '--input-type=module', '-e', code];

function run(
  tty: boolean,
  env: Record<string, string> = {},
): Promise<{ stdout: string; stderr: string; code: number | null }> {
  const childEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: repo, TERM: 'xterm', ...env };
  const child = tty
    ? spawn('script', ['-qfec', `exec ${node.map((a) => `'${a}'`).join(' ')}`, '/dev/null'], {
        cwd: repo,
        env: childEnv,
      })
    : spawn(node[0]!, node.slice(1), { cwd: repo, env: childEnv });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ stdout, stderr, code: status })));
}

describe('LOG_FORMAT=auto', () => {
  it('writes readable, coloured lines on a terminal', async () => {
    const r = await run(true); // `script` gives the child a pty for stdin, stdout and stderr alike
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(SGR); // colour, as pino-pretty paints a terminal
    const text = r.stdout.replace(SGR, '');
    expect(text).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: hello from the log\r?\n\s+answer: 42/m);
    expect(text).not.toContain('{"level"');
  });

  it('keeps a terminal readable without colour under NO_COLOR', async () => {
    const r = await run(true, { NO_COLOR: '1' });
    expect(r.stdout).not.toMatch(SGR);
    expect(r.stdout).toMatch(/INFO: hello from the log/);
  });

  it('writes one JSON line per entry when stderr is piped', async () => {
    const r = await run(false);
    expect(r.code).toBe(0);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'info', msg: 'hello from the log', answer: 42 });
  });
});
