// The slash command definitions, the text the bot gets from an interaction, and `manzil register-discord-commands`
// against the fake Discord's REST (no gateway login).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERT_SUBCOMMANDS, commandDefinitions, commandText } from '../../adapters/discord/commands.js';
import { BOT_PERMISSIONS, inviteUrl, registerDiscordCommands } from '../../adapters/discord/register.js';
import { runCli } from '../../src/cli.js';
import { checkCommands } from '../fakes/discord-limits.js';
import { startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';

describe('command definitions', () => {
  const defs = commandDefinitions();
  const byName = new Map(defs.map((d) => [d.name, d]));

  it('mirror Slack: every verb with a required `query`, search commands with an autocompleted `location`', () => {
    expect([...byName.keys()].sort()).toEqual(
      ['agents', 'alerts', 'brokers', 'buy', 'developers', 'location', 'manzil', 'projects', 'property', 'rent', 'transactions', 'trend'],
    );
    for (const name of ['rent', 'buy', 'projects', 'transactions', 'trend']) {
      expect(byName.get(name)!.options).toEqual([
        expect.objectContaining({ name: 'query', type: 3, required: true, autocomplete: true }),
        expect.objectContaining({ name: 'location', type: 3, required: false, autocomplete: true }),
      ]);
    }
    for (const name of ['agents', 'brokers', 'developers', 'property', 'location', 'manzil']) {
      expect(byName.get(name)!.options).toEqual([expect.objectContaining({ name: 'query', type: 3, required: true })]);
    }
  });

  it('give /alerts its subcommands: add takes a query, the others an alert number', () => {
    const subs = byName.get('alerts')!.options as { name: string; type: number; options?: { name: string; type: number }[] }[];
    expect(subs.map((s) => s.name)).toEqual([...ALERT_SUBCOMMANDS]);
    expect(subs.every((s) => s.type === 1)).toBe(true);
    expect(subs.find((s) => s.name === 'add')!.options).toEqual([expect.objectContaining({ name: 'query', type: 3, required: true })]);
    expect(subs.find((s) => s.name === 'list')!.options ?? []).toEqual([]);
    for (const name of ['pause', 'resume', 'remove', 'test']) {
      expect(subs.find((s) => s.name === name)!.options).toEqual([expect.objectContaining({ name: 'number', type: 4, required: true })]);
    }
  });

  it('pass the checks Discord applies to commands', () => {
    const found = checkCommands(defs, 'definitions');
    expect([...found.errors, ...found.warnings]).toEqual([]);
  });
});

describe('commandText: what the bot parses', () => {
  it('is the command and its query, with the location in quotes so the parser takes it whole as the place', () => {
    expect(commandText({ name: 'rent', query: 'marina 2br' })).toBe('/rent marina 2br');
    expect(commandText({ name: 'rent', query: '2br under 120k', location: 'Dubai Marina' })).toBe('/rent 2br under 120k "Dubai Marina"');
    expect(commandText({ name: 'trend', query: 'villa', location: 'Al "Barsha"' })).toBe('/trend villa "Al Barsha"');
    expect(commandText({ name: 'manzil', query: 'adrec al reem' })).toBe('/manzil adrec al reem');
  });

  it('ignores a location on commands that have none', () => {
    expect(commandText({ name: 'agents', query: 'marina', location: 'Downtown Dubai' })).toBe('/agents marina');
  });

  it('reads /alerts subcommands as typed in Slack', () => {
    expect(commandText({ name: 'alerts', subcommand: 'add', query: 'rent marina 2br' })).toBe('/alerts add rent marina 2br');
    expect(commandText({ name: 'alerts', subcommand: 'list' })).toBe('/alerts list');
    expect(commandText({ name: 'alerts', subcommand: 'pause', number: 2 })).toBe('/alerts pause 2');
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
    const result = await registerDiscordCommands({ token: fake.botToken, applicationId: fake.applicationId, guildId: fake.guildId, apiUrl: fake.apiUrl });
    expect(result).toEqual({ count: 12, scope: 'guild' });
    expect(fake.commands(fake.guildId).map((c) => c.name).sort()).toContain('alerts');
    expect(fake.commands()).toEqual([]);
    expect(fake.sessions().identified).toBe(0);
    expect(fake.requests().some((r) => r.path === '/gateway/bot')).toBe(false);
    expect(fake.violations()).toEqual([]);
  });

  it('registers globally without DISCORD_GUILD_ID, and again without duplicates', async () => {
    await registerDiscordCommands({ token: fake.botToken, applicationId: fake.applicationId, apiUrl: fake.apiUrl });
    await registerDiscordCommands({ token: fake.botToken, applicationId: fake.applicationId, apiUrl: fake.apiUrl });
    expect(fake.commands()).toHaveLength(12);
  });

  it('says why when Discord refuses, without the token', async () => {
    const refused = registerDiscordCommands({ token: 'wrong-token', applicationId: fake.applicationId, apiUrl: fake.apiUrl });
    await expect(refused).rejects.toThrow(/Discord refused the commands: HTTP 401/);
    await expect(refused).rejects.not.toThrow(/wrong-token/);
  });

  it('runs from the CLI with DISCORD_* and prints the invite URL with both scopes and the permissions', async () => {
    const lines: string[] = [];
    const vars = { DISCORD_TOKEN: fake.botToken, DISCORD_APPLICATION_ID: fake.applicationId, DISCORD_GUILD_ID: fake.guildId, DISCORD_API_URL: fake.apiUrl, UAE_API_KEY: undefined };
    expect(await withEnv(vars, () => runCli(['register-discord-commands'], (l) => lines.push(l)))).toBe(0);
    expect(lines[0]).toMatch(/Registered 12 commands in server \d+; they are available there now/);
    const url = new URL(lines.at(-1)!);
    expect(url.origin + url.pathname).toBe('https://discord.com/oauth2/authorize');
    expect(url.searchParams.get('client_id')).toBe(fake.applicationId);
    expect(url.searchParams.get('scope')).toBe('bot applications.commands');
    expect(url.searchParams.get('permissions')).toBe(String(BOT_PERMISSIONS));
    // View Channel, Send Messages, Embed Links.
    expect(BOT_PERMISSIONS).toBe((1n << 10n) | (1n << 11n) | (1n << 14n));
    expect(inviteUrl('42')).toContain('client_id=42');
  });

  it('tells what is missing when DISCORD_APPLICATION_ID is not set', async () => {
    const vars = { DISCORD_TOKEN: fake.botToken, DISCORD_APPLICATION_ID: undefined, DISCORD_GUILD_ID: undefined, DISCORD_API_URL: undefined };
    expect(await withEnv(vars, () => runCli(['register-discord-commands'], () => {}))).toBe(1); // a configuration problem
  });
});
