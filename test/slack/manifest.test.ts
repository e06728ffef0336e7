import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SLASH_COMMANDS } from '../../adapters/slack/commands.js';

const manifest = JSON.parse(readFileSync(new URL('../../adapters/slack/manifest.json', import.meta.url), 'utf8'));

describe('Slack app manifest', () => {
  it('declares exactly the commands the app listens to, each pointing at /slack/events', () => {
    const declared = manifest.features.slash_commands as { command: string; url: string; description: string }[];
    expect(declared.map((c) => c.command)).toEqual(SLASH_COMMANDS.map((c) => c.command));
    for (const c of declared) {
      expect(c.url).toMatch(/^https:\/\/YOUR-MANZIL-HOST\/slack\/events$/);
      expect(c.description.length).toBeLessThanOrEqual(100);
    }
    expect(declared.find((c) => c.command === '/alerts')?.description).toMatch(/Saved searches/);
  });

  it('asks for the scopes the bot uses and routes buttons and option menus to the same endpoint', () => {
    // users:read for the admin check of /alerts; the history scopes let the alert outbox see whether a post landed.
    expect(manifest.oauth_config.scopes.bot).toEqual(expect.arrayContaining([
      'commands', 'chat:write', 'users:read', 'channels:history', 'groups:history', 'im:history', 'mpim:history',
    ]));
    expect(manifest.settings.interactivity.request_url).toMatch(/\/slack\/events$/);
    expect(manifest.settings.interactivity.message_menu_options_url).toMatch(/\/slack\/events$/);
  });
});
