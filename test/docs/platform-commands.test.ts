// The platform docs name every command the platform is given (issue 38): docs/slack.md every command of the Slack
// manifest, docs/discord.md every command and subcommand of the Discord registration.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commandDefinitions } from '../../adapters/discord/commands.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
/** The backticked spans of a doc that start with a slash command: `/rent`, `/alerts pause number:2`. */
const named = (doc: string) => [...doc.matchAll(/`(\/[^`]+)`/gu)].map((m) => m[1]!);

describe('the platform docs list every command', () => {
  it('docs/slack.md names each command of adapters/slack/manifest.json', () => {
    const manifest = JSON.parse(read('adapters/slack/manifest.json')) as {
      features: { slash_commands: { command: string }[] };
    };
    const commands = manifest.features.slash_commands.map((c) => c.command);
    expect(commands.length).toBeGreaterThan(10);
    const spans = named(read('docs/slack.md'));
    const missing = commands.filter((c) => !spans.some((s) => s === c || s.startsWith(`${c} `)));
    expect(missing).toEqual([]);
  });

  it('docs/discord.md names each command and subcommand Discord is given', () => {
    const spans = named(read('docs/discord.md'));
    const wanted = commandDefinitions().flatMap((c) => {
      const subs = (c.options ?? []).filter((o) => o.type === 1).map((o) => `/${c.name} ${o.name}`);
      return subs.length > 0 ? subs : [`/${c.name}`];
    });
    expect(wanted.length).toBeGreaterThan(15);
    // A table row names a subcommand as `/alerts pause`, `resume`: the command's own row covers its later names.
    const doc = read('docs/discord.md');
    const missing = wanted.filter((w) => {
      if (spans.some((s) => s === w || s.startsWith(`${w} `))) return false;
      const [command, sub] = w.split(' ');
      return !(sub && new RegExp(`\`${command} [a-z]+\`(, \`[a-z]+\`)*, \`${sub}\``).test(doc));
    });
    expect(missing).toEqual([]);
  });
});
