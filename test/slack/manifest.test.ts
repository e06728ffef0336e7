import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SLASH_COMMANDS } from '../../adapters/slack/commands.js';
import { SLACK_SCOPES } from '../../adapters/slack/scopes.js';
import { SLASH_COMMANDS as COMMANDS } from '../../src/query/commands.js';

const manifest = JSON.parse(readFileSync(new URL('../../adapters/slack/manifest.json', import.meta.url), 'utf8'));
type Declared = { command: string; url: string; description: string; usage_hint?: string; should_escape?: boolean };
const declared = manifest.features.slash_commands as Declared[];

describe('Slack app manifest', () => {
  it('declares exactly the commands of the one command list (src/query/commands.ts), with its descriptions and usage hints', () => {
    // On a mismatch: the list is the source; copy its descriptions and usage hints into manifest.json (the app's
    // settings in Slack take the manifest as it is).
    expect(declared).toEqual(
      COMMANDS.map((c) => ({
        command: `/${c.name}`,
        url: 'https://YOUR-MANZIL-HOST/slack/events',
        description: c.description,
        usage_hint: c.usage,
        should_escape: false,
      })),
    );
    expect(declared.map((c) => c.command)).toContain('/digest');
    expect(declared.find((c) => c.command === '/alerts')?.description).toMatch(/Saved searches/);
  });

  it('asks for the scopes Add to Slack asks for, and sends the events that say a workspace removed the app', () => {
    expect(manifest.oauth_config.scopes.bot).toEqual([...SLACK_SCOPES]);
    expect(manifest.oauth_config.redirect_urls).toEqual(['https://YOUR-MANZIL-HOST/slack/oauth_redirect']);
    // The events adapters/slack/listeners/events.ts handles: a person opening the Home tab, a workspace removing the
    // app, or revoking its token.
    expect(manifest.settings.event_subscriptions.bot_events).toEqual([
      'app_home_opened',
      'app_uninstalled',
      'tokens_revoked',
    ]);
  });

  it('has a Home tab, and keeps the Messages tab where personal alerts arrive', () => {
    expect(manifest.features.app_home).toEqual({
      home_tab_enabled: true,
      messages_tab_enabled: true,
      messages_tab_read_only_enabled: false,
    });
  });

  it('and the app listens to each of them', () => {
    expect(SLASH_COMMANDS.map((c) => c.command)).toEqual(declared.map((c) => c.command));
  });

  it("within Slack's limits: each pointing at /slack/events, a name of at most 32 characters, descriptions of 100, hints of 1,000", () => {
    expect(declared.length).toBeLessThanOrEqual(50);
    for (const c of declared) {
      expect(c.url).toMatch(/^https:\/\/YOUR-MANZIL-HOST\/slack\/events$/);
      expect(c.command).toMatch(/^\/[a-z]{1,31}$/);
      // The schema allows 2,000; Slack's app settings page shows about 100.
      expect(c.description.length).toBeGreaterThan(0);
      expect(c.description.length).toBeLessThanOrEqual(100);
      expect(c.usage_hint!.length).toBeGreaterThan(0);
      expect(c.usage_hint!.length).toBeLessThanOrEqual(1_000);
    }
    expect(manifest.display_information.description.length).toBeLessThanOrEqual(140);
  });

  it('asks for the scopes the bot uses and routes buttons and option menus to the same endpoint', () => {
    // users:read for the admin check of /alerts and /digest; the history scopes let the outbox see whether a post
    // landed; files:write for a digest's chart (files upload v2).
    expect(manifest.oauth_config.scopes.bot).toEqual(
      expect.arrayContaining([
        'commands',
        'chat:write',
        'users:read',
        'channels:history',
        'groups:history',
        'im:history',
        'mpim:history',
        'files:write',
      ]),
    );
    expect(manifest.settings.interactivity.request_url).toMatch(/\/slack\/events$/);
    expect(manifest.settings.interactivity.message_menu_options_url).toMatch(/\/slack\/events$/);
  });
});
