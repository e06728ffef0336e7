// The slash command definitions, the text the bot gets from an interaction, and `manzil register-discord-commands`
// against the fake Discord's REST (no gateway login).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALERT_SUBCOMMANDS,
  chosenLocation,
  commandDefinitions,
  commandText,
  orderOf,
  type CommandInput,
} from '../../adapters/discord/commands.js';
import { alertCommandText } from '../../src/alerts/language.js';
import { BOT_PERMISSIONS, inviteUrl, registerDiscordCommands } from '../../adapters/discord/register.js';
import { runCli } from '../../src/cli.js';
import { checkCommands } from '../fakes/discord-limits.js';
import { startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';
import { manzilArgs } from '../support/child.js';

/** A loopback port nothing listens on: bound, read, closed. */
async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('command definitions', () => {
  const defs = commandDefinitions();
  const byName = new Map(defs.map((d) => [d.name, d]));

  it('mirror Slack: every verb with a required `query`, search commands with an autocompleted `location`', () => {
    expect([...byName.keys()].sort()).toEqual([
      'agents',
      'alerts',
      'brokers',
      'buy',
      'compare',
      'developers',
      'digest',
      'location',
      'manzil',
      'projects',
      'property',
      'rent',
      'transactions',
      'trend',
      'value',
    ]);
    for (const name of ['rent', 'buy', 'projects', 'transactions', 'trend']) {
      expect(byName.get(name)!.options).toEqual([
        expect.objectContaining({ name: 'query', type: 3, required: true, autocomplete: true }),
        expect.objectContaining({ name: 'location', type: 3, required: false, autocomplete: true }),
      ]);
    }
    for (const name of ['agents', 'brokers', 'developers', 'property', 'location', 'manzil', 'value']) {
      expect(byName.get(name)!.options).toEqual([expect.objectContaining({ name: 'query', type: 3, required: true })]);
    }
  });

  it('give /alerts its subcommands: add takes a query (and for_me), the others an alert number (and mine)', () => {
    const subs = byName.get('alerts')!.options as {
      name: string;
      type: number;
      options?: { name: string; type: number }[];
    }[];
    // Beside the shared ones, Discord's own `new`, which opens the form.
    expect(subs.map((s) => s.name)).toEqual([...ALERT_SUBCOMMANDS, 'new']);
    expect(subs.every((s) => s.type === 1)).toBe(true);
    expect(subs.find((s) => s.name === 'new')!.options ?? []).toEqual([]);
    // `edit` with a number alone opens the alert's edit form: how often is not required.
    expect(subs.find((s) => s.name === 'edit')!.options).toEqual([
      expect.objectContaining({ name: 'number', type: 4, required: true }),
      expect.not.objectContaining({ required: true }),
      expect.objectContaining({ name: 'mine', type: 5 }),
    ]);
    expect(subs.find((s) => s.name === 'add')!.options).toEqual([
      expect.objectContaining({ name: 'query', type: 3, required: true }),
      expect.objectContaining({ name: 'for_me', type: 5 }),
    ]);
    expect(subs.find((s) => s.name === 'list')!.options ?? []).toEqual([]);
    for (const name of ['pause', 'resume', 'remove', 'test']) {
      expect(subs.find((s) => s.name === name)!.options).toEqual([
        expect.objectContaining({ name: 'number', type: 4, required: true }),
        expect.objectContaining({ name: 'mine', type: 5 }),
      ]);
    }
  });

  it('give /digest its forms: new, and edit with a digest number', () => {
    const subs = byName.get('digest')!.options as { name: string; options?: { name: string; required?: boolean }[] }[];
    expect(subs.map((s) => s.name)).toEqual(expect.arrayContaining(['add', 'now', 'new', 'edit']));
    expect(subs.find((s) => s.name === 'new')!.options ?? []).toEqual([]);
    expect(subs.find((s) => s.name === 'edit')!.options).toEqual([
      expect.objectContaining({ name: 'number', required: true }),
    ]);
  });

  it('pass the checks Discord applies to commands', () => {
    const found = checkCommands(defs, 'definitions');
    expect([...found.errors, ...found.warnings]).toEqual([]);
  });
});

describe('commandText and chosenLocation: what the bot gets', () => {
  it('is the command and its query as typed; the location option goes apart, never into the text', () => {
    expect(commandText({ name: 'rent', query: 'marina 2br' })).toBe('/rent marina 2br');
    expect(commandText({ name: 'rent', query: '2br under 120k', location: '5:Dubai Marina' })).toBe(
      '/rent 2br under 120k',
    );
    expect(chosenLocation({ name: 'rent', query: '2br under 120k', location: ' 5:Dubai Marina ' })).toBe(
      '5:Dubai Marina',
    );
    expect(chosenLocation({ name: 'trend', query: 'villa', location: 'Al "Barsha"' })).toBe('Al "Barsha"');
    expect(chosenLocation({ name: 'rent', query: '2br', location: '  ' })).toBeUndefined();
    expect(commandText({ name: 'manzil', query: 'adrec al reem' })).toBe('/manzil adrec al reem');
  });

  it('ignores a location on commands that have none', () => {
    expect(commandText({ name: 'agents', query: 'marina', location: 'Downtown Dubai' })).toBe('/agents marina');
    expect(chosenLocation({ name: 'agents', query: 'marina', location: 'Downtown Dubai' })).toBeUndefined();
  });

  it('builds the /alerts command from the options, which reads back as typed in Slack', () => {
    const typed = (input: CommandInput) => {
      const order = orderOf(input);
      if (order?.kind !== 'alert') throw new Error(`not an alert command: ${JSON.stringify(order)}`);
      return alertCommandText(order);
    };
    expect(orderOf({ name: 'alerts', subcommand: 'add', query: ' rent marina 2br ' })).toEqual({
      kind: 'alert',
      sub: 'add',
      search: 'rent marina 2br',
    });
    expect(typed({ name: 'alerts', subcommand: 'add', query: 'rent marina 2br' })).toBe('/alerts add rent marina 2br');
    expect(typed({ name: 'alerts', subcommand: 'list' })).toBe('/alerts list');
    expect(orderOf({ name: 'alerts', subcommand: 'pause', number: 2 })).toEqual({
      kind: 'alert',
      sub: 'pause',
      number: 2,
    });
    expect(typed({ name: 'alerts', subcommand: 'pause', number: 2 })).toBe('/alerts pause 2');
    expect(typed({ name: 'alerts', subcommand: 'test', number: 3 })).toBe('/alerts test 3');
    expect(typed({ name: 'alerts', subcommand: 'resume' })).toBe('/alerts resume');
    // Not a command of this release (an older registration): its words go, and are answered as typed.
    expect(orderOf({ name: 'alerts', subcommand: 'snooze', number: 2 })).toBeUndefined();
    expect(commandText({ name: 'alerts', subcommand: 'snooze', number: 2 })).toBe('/alerts snooze');
    expect(orderOf({ name: 'rent', query: 'marina' })).toBeUndefined();
  });
});

/** Runs `work` with these variables set (undefined: unset) in process.env, then puts the old values back. */
async function withEnv<T>(vars: Record<string, string | undefined>, work: () => Promise<T>): Promise<T> {
  const old = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  apply(vars);
  try {
    return await work();
  } finally {
    apply(old);
  }
}

describe('manzil register-discord-commands', () => {
  let fake: FakeDiscord;
  beforeAll(async () => {
    fake = await startFakeDiscord();
  });
  afterAll(() => fake.close());

  it('puts every definition in the guild over REST alone, without logging in to the gateway', async () => {
    const result = await registerDiscordCommands({
      token: fake.botToken,
      applicationId: fake.applicationId,
      guildId: fake.guildId,
      apiUrl: fake.apiUrl,
    });
    expect(result).toEqual({ count: 15, scope: 'guild' });
    expect(
      fake
        .commands(fake.guildId)
        .map((c) => c.name)
        .sort(),
    ).toEqual(expect.arrayContaining(['alerts', 'digest']));
    expect(fake.commands()).toEqual([]);
    expect(fake.sessions().identified).toBe(0);
    expect(fake.requests().some((r) => r.path === '/gateway/bot')).toBe(false);
    expect(fake.violations()).toEqual([]);
  });

  it('registers globally without DISCORD_GUILD_ID, and again without duplicates', async () => {
    await registerDiscordCommands({ token: fake.botToken, applicationId: fake.applicationId, apiUrl: fake.apiUrl });
    await registerDiscordCommands({ token: fake.botToken, applicationId: fake.applicationId, apiUrl: fake.apiUrl });
    expect(fake.commands()).toHaveLength(15);
  });

  it('says why when Discord refuses, without the token', async () => {
    const refused = registerDiscordCommands({
      token: 'wrong-token',
      applicationId: fake.applicationId,
      apiUrl: fake.apiUrl,
    });
    await expect(refused).rejects.toThrow(/^Discord refused: 401 Unauthorized$/);
    await expect(refused).rejects.not.toThrow(/wrong-token/);
  });

  /**
   * `manzil register-discord-commands` as a person runs it: a real process, its exit code and everything it printed.
   */
  async function runRegisterProcess(
    env: Record<string, string>,
  ): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = spawn(process.execPath, manzilArgs('register-discord-commands'), {
      // A temporary directory: no .env of the checkout's is read.
      cwd: mkdtempSync(join(tmpdir(), 'manzil-register-')),
      env: { ...process.env, MANZIL_FROM_SOURCE: '1', UAE_API_KEY: '', DISCORD_GUILD_ID: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const [code] = (await once(child, 'exit')) as [number | null];
    return { code, stdout, stderr };
  }

  it('prints one plain line and exits 1 when Discord cannot be reached: no stack, no token', async () => {
    const port = await unusedPort();
    const apiUrl = `http://127.0.0.1:${port}/api`;
    const token = 'unreachable-test-token.abc';
    const run = await runRegisterProcess({
      DISCORD_TOKEN: token,
      DISCORD_APPLICATION_ID: fake.applicationId,
      DISCORD_API_URL: apiUrl,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`manzil register-discord-commands: could not reach Discord at ${apiUrl} (ECONNREFUSED)\n`);
    expect(run.stderr + run.stdout).not.toContain(token);
  }, 120_000);

  it('prints one plain line and exits 1 when Discord refuses the token (401): no stack, no token', async () => {
    const run = await runRegisterProcess({
      DISCORD_TOKEN: 'wrong-token.xyz',
      DISCORD_APPLICATION_ID: fake.applicationId,
      DISCORD_API_URL: fake.apiUrl,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('manzil register-discord-commands: Discord refused: 401 Unauthorized\n');
    expect(run.stderr).not.toContain('wrong-token');
  }, 120_000);

  it('runs from the CLI with DISCORD_* and prints the invite URL with both scopes and the permissions', async () => {
    const lines: string[] = [];
    const vars = {
      DISCORD_TOKEN: fake.botToken,
      DISCORD_APPLICATION_ID: fake.applicationId,
      DISCORD_GUILD_ID: fake.guildId,
      DISCORD_API_URL: fake.apiUrl,
      UAE_API_KEY: undefined,
    };
    expect(await withEnv(vars, () => runCli(['register-discord-commands'], (l) => lines.push(l)))).toBe(0);
    expect(lines[0]).toMatch(/Registered 15 commands in server \d+; they are available there now/);
    const url = new URL(lines.at(-1)!);
    expect(url.origin + url.pathname).toBe('https://discord.com/oauth2/authorize');
    expect(url.searchParams.get('client_id')).toBe(fake.applicationId);
    expect(url.searchParams.get('scope')).toBe('bot applications.commands');
    expect(url.searchParams.get('permissions')).toBe(String(BOT_PERMISSIONS));
    // View Channel, Send Messages, Embed Links, and Attach Files since digests attach their chart (a PNG shown in the
    // embed): 1024 + 2048 + 16384 + 32768.
    expect(BOT_PERMISSIONS).toBe((1n << 10n) | (1n << 11n) | (1n << 14n) | (1n << 15n));
    expect(url.searchParams.get('permissions')).toBe('52224');
    expect(lines.join('\n')).toContain('Attach Files');
    expect(inviteUrl('42')).toContain('client_id=42');
  });

  it('tells what is missing when DISCORD_APPLICATION_ID is not set', async () => {
    const vars = {
      DISCORD_TOKEN: fake.botToken,
      DISCORD_APPLICATION_ID: undefined,
      DISCORD_GUILD_ID: undefined,
      DISCORD_API_URL: undefined,
    };
    expect(await withEnv(vars, () => runCli(['register-discord-commands'], () => {}))).toBe(1); // a configuration problem
  });
});
