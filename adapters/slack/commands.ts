// The slash commands Manzil registers in Slack: `/manzil <verb> ...`, one shortcut per common verb, /alerts and
// /digest;
// from the one list in src/query/commands.ts, which manifest.json must match (test/slack/manifest.test.ts).
import { SLASH_COMMANDS as COMMANDS } from '../../src/bot/index.js';

export const SLASH_COMMANDS: readonly { command: string; description: string; usage: string }[] = COMMANDS.map((c) => ({
  command: `/${c.name}`,
  description: c.description,
  usage: c.usage,
}));

/** Slack sends `&`, `<` and `>` in command text as HTML entities, whatever `should_escape` says. */
const ENTITIES: Readonly<Record<string, string>> = { '&amp;': '&', '&lt;': '<', '&gt;': '>' };

/** Undoes Slack's escaping in one pass, so `&amp;lt;` (a typed "&lt;") stays "&lt;". */
export function unescapeSlack(text: string): string {
  return text.replace(/&(?:amp|lt|gt);/g, (entity) => ENTITIES[entity]!);
}

/** The text the bot parses: the command and what followed it, as the person typed them. */
export function commandText(command: string, text: string): string {
  return `${command} ${unescapeSlack(text)}`.trim();
}
