// Commands as the person types them on their platform: Slack and Discord take `/rent marina`, the terminal chat takes
// `rent marina`. The core's words carry the slash form; a reply to the terminal is read through `asTyped`.
import { SLASH_COMMANDS } from './commands.js';
import { VERB_TABLE } from './verbs.js';

/** 'slash': `/rent …` (Slack, Discord; the default); 'plain': `rent …` (the terminal chat). */
export type CommandStyle = 'slash' | 'plain';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const NAMES = [
  ...new Set(['help', ...VERB_TABLE.flatMap((v) => [v.name, ...v.aliases]), ...SLASH_COMMANDS.map((c) => c.name)]),
]
  .filter((n) => /^[a-z-]+$/.test(n))
  .sort((a, b) => b.length - a.length)
  .map(escape);
// A command starts a text, a line, a quotation or a bracket: a slash inside a word or a link is left alone.
const BEFORE = `(^|[\\s"'\`(“‘])`;
const MANZIL = new RegExp(`${BEFORE}/manzil\\s+`, 'gm');
const COMMAND = new RegExp(`${BEFORE}/(?=(?:${NAMES.join('|')})\\b|<verb>)`, 'gm');

/**
 * The text with each command written as typed in that style: `/manzil adrec x` and `/rent x` become `adrec x`, `rent
 * x`.
 */
export function asTyped(text: string, style: CommandStyle = 'slash'): string {
  if (style === 'slash') return text;
  return text.replace(MANZIL, '$1').replace(COMMAND, '$1');
}
