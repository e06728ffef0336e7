// DISCORD_* configuration: what serves Discord, what is refused at start, and that the token is masked.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

const problems = (env: Record<string, string>) => {
  try {
    loadConfig(env);
    return [];
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
};

describe('Discord configuration', () => {
  it('serves Discord with DISCORD_TOKEN; the token is a secret', () => {
    const config = loadConfig({
      DISCORD_TOKEN: 'discord-token-1',
      DISCORD_APPLICATION_ID: '1180000000000000001',
      DISCORD_GUILD_ID: '1180000000000000002',
      DISCORD_API_URL: 'http://127.0.0.1:8080/api',
      MANZIL_SANDBOX: '1',
    });
    expect(config.discord).toEqual({
      token: 'discord-token-1',
      applicationId: '1180000000000000001',
      guildId: '1180000000000000002',
      apiUrl: 'http://127.0.0.1:8080/api',
    });
    expect(config.secrets).toContain('discord-token-1');
    expect(loadConfig({}).discord).toBeUndefined();
  });

  it('refuses to serve Discord the sandbox’s sample data unless asked to, as for Slack', () => {
    const found = problems({ DISCORD_TOKEN: 'discord-token-1' });
    expect(found.join('\n')).toMatch(
      /UAE_API_KEY is missing: without it Discord would be served the sandbox's sample data/,
    );
    expect(
      problems({ DISCORD_TOKEN: 'discord-token-1', UAE_API_KEY: 'k', UAE_API_BASE_URL: 'https://api.example.ae' }),
    ).toEqual([]);
  });

  it('names the variable, never the value, when an id is not numeric or the token is missing', () => {
    const found = problems({
      DISCORD_TOKEN: 'discord-token-1',
      MANZIL_SANDBOX: '1',
      DISCORD_APPLICATION_ID: 'not-an-id',
    }).join('\n');
    expect(found).toMatch(/DISCORD_APPLICATION_ID/);
    expect(found).not.toContain('not-an-id');
    expect(found).not.toContain('discord-token-1');
    expect(problems({ DISCORD_GUILD_ID: '1180000000000000002' }).join('\n')).toMatch(/DISCORD_TOKEN is missing/);
  });
});
