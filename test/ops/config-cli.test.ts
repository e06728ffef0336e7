// The configuration as an operator meets it: `manzil start` with a bad environment says every problem in plain words
// and exits 1; `manzil config` shows what is in effect with secrets masked; `.env` is read under the environment;
// `.env.example` lists every variable.
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ENV_VARIABLES } from '../../src/config.js';
import { canChatOn } from '../../src/app/run.js';
import { tempDir } from './helpers.js';
import { runManzil, type CliRun } from '../support/child.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));

function manzil(
  args: string[],
  env: Record<string, string>,
  cwd = tempDir(),
  stdin: 'ignore' | 'pipe' = 'ignore',
): Promise<CliRun> {
  return runManzil(args, {
    cwd,
    env: { MANZIL_DB_PATH: join(cwd, 'm.db'), ...env },
    ...(stdin === 'pipe' ? { input: 'quit\n' } : {}),
  });
}

describe('a bad configuration at start', () => {
  it('names every problem at once in plain words, never a value, and exits 1', async () => {
    const r = await manzil(['start'], { SLACK_BOT_TOKEN: 'xoxb-very-secret-1', PORT: 'eighty', ALERTS_CRON: 'hourly' });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Manzil cannot start: 4 problems in its configuration.');
    expect(r.stderr).toContain('SLACK_SIGNING_SECRET is missing: Slack needs it to verify requests');
    expect(r.stderr).toContain('PORT is not a number');
    expect(r.stderr).toContain('ALERTS_CRON "hourly" is not a cron expression');
    expect(r.stderr).toMatch(/UAE_API_KEY is missing: without it Slack would be served the sandbox's sample data/);
    expect(r.stderr).not.toContain('xoxb-very-secret-1');
    expect(r.stderr).not.toMatch(/at .*\.ts:\d+/); // a message, not a stack trace
  });

  it('refuses a MANZIL_ENV_FILE that is not there', async () => {
    const r = await manzil(['start'], { MANZIL_ENV_FILE: '/nonexistent/manzil.env' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/MANZIL_ENV_FILE names \/nonexistent\/manzil\.env, which cannot be read/);
  });
});

describe('no chat platform and no terminal (a container, a service manager)', () => {
  it('refuses to start, saying what to configure, and exits 1 rather than ending at once to be restarted in a loop', async () => {
    // stdin is /dev/null, as in `docker run` without -i or under a service manager; NODE_ENV as the image sets it.
    const cwd = tempDir();
    const r = await manzil(['start'], { NODE_ENV: 'production' }, cwd);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Manzil cannot start: a problem in its configuration.');
    expect(r.stderr).toContain(
      'No chat platform is configured: set SLACK_* or DISCORD_* (the terminal chat needs a terminal',
    );
    expect(r.stdout).toBe(''); // no banner, no chat
    expect(existsSync(join(cwd, 'm.db'))).toBe(false); // refused before anything was opened
  });

  it('still runs the terminal chat on input piped to it', async () => {
    const r = await manzil(['start'], {}, tempDir(), 'pipe');
    expect(r.stderr).not.toContain('No chat platform');
    expect(r.stdout).toMatch(/sample data/i);
    expect(r.status).toBe(0);
  });

  it('tells /dev/null and a closed stdin from a terminal, a pipe or a file', () => {
    const devNull = openSync('/dev/null', 'r');
    const file = openSync(join(tempDir(), 'input.txt'), 'w+');
    try {
      expect(canChatOn(devNull)).toBe(false);
      expect(canChatOn(file)).toBe(true);
      expect(canChatOn(1_000_000)).toBe(false);
    } finally {
      closeSync(devNull);
      closeSync(file);
    }
  });
});

describe('manzil config', () => {
  it('prints every variable with its value and source, secrets masked, reading .env under the environment', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, '.env'),
      [
        '# a comment',
        'SLACK_BOT_TOKEN=xoxb-from-the-file-123',
        'SLACK_SIGNING_SECRET="signing secret from the file"',
        'MANZIL_SANDBOX=1',
        'ALERTS_MAX_PAGES=5',
        'LOG_LEVEL=debug',
      ].join('\n'),
    );
    const r = await manzil(['config'], { LOG_LEVEL: 'warn', UAE_API_BUDGET_PER_DAY: '250' }, dir);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = r.stdout;
    for (const name of ENV_VARIABLES) expect(out).toMatch(new RegExp(`^${name} +=`, 'm'));
    expect(out).not.toContain('xoxb-from-the-file-123');
    expect(out).not.toContain('signing secret from the file');
    expect(out).toMatch(/^SLACK_BOT_TOKEN +=\s+\*\*\* \(set\) +# \.env$/m);
    expect(out).toMatch(/^ALERTS_MAX_PAGES +=\s+5 +# \.env$/m);
    expect(out).toMatch(/^LOG_LEVEL +=\s+warn +# environment$/m); // the environment wins over the file
    expect(out).toMatch(/^UAE_API_BUDGET_PER_DAY +=\s+250 +# environment$/m);
    expect(out).toMatch(/^ALERTS_CRON +=\s+\*\/15 \* \* \* \* +# default$/m);
    expect(out).toMatch(/^UAE_API_KEY +=\s+# unset$/m);
    expect(out).toMatch(/^# chat: Slack \(HTTP on port 3000\)/m);
    expect(out).toMatch(/^# property data: the embedded sandbox/m);
  });

  it('reports a bad configuration as start does', async () => {
    const r = await manzil(['config'], { UAE_API_KEY: 'k-secret-999' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      "UAE_API_BASE_URL is missing: UAE_API_KEY is set, and Manzil needs the service's address to use it",
    );
    expect(r.stderr).not.toContain('k-secret-999');
  });
});

describe('.env.example', () => {
  const example = readFileSync(join(repo, '.env.example'), 'utf8');

  it('lists every variable Manzil reads, each with a comment above its group', () => {
    const listed = Object.keys(parseEnv(example));
    expect([...listed].sort()).toEqual([...ENV_VARIABLES].sort());
  });

  it('works as it is: copied to .env unchanged, Manzil starts on its defaults', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, '.env'), example);
    const r = await manzil(['config'], {}, dir);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^# chat: the terminal chat/m);
  });
});
