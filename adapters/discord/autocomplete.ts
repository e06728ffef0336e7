// What Discord shows under an option as it is typed: for `location`, places from the service (cached, and never later
// than the deadline: then what is cached, or nothing); for `query`, how the text so far will be understood.
import { decodeLocationOption } from '../../src/bot/index.js';
import type { ChatCore } from '../../src/ports/index.js';
import { ALERT_SUBCOMMANDS, OTHER_COMMANDS, SEARCH_COMMANDS, chosenLocation, commandText } from './commands.js';
import { DISCORD_LIMITS as L } from './limits.js';
import { clampPlain } from './render-text.js';

export interface Choice {
  name: string;
  value: string;
}

/**
 * The bot's location options carry `<id>:<name>`, and so does a choice's value (within Discord's 100 characters: a long
 * name is cut, the id is what counts), so that the place picked is the one searched even when two share a name.
 */
function choiceOf(value: string): Choice | undefined {
  const option = decodeLocationOption(value);
  if (!option) return undefined;
  const id = String(option.id);
  const name = option.name.replace(/\s+/g, ' ').trim();
  if (!name || id.length + 2 > L.choiceValue) return undefined;
  return { name: clampPlain(name, L.choiceName), value: `${id}:${clampPlain(name, L.choiceValue - id.length - 1)}` };
}

/** Places matching what was typed, answered within `deadlineMs` whatever the service does. */
export async function locationChoices(bot: Pick<ChatCore, 'suggestLocations'>, typed: string, deadlineMs: number): Promise<Choice[]> {
  let timer: NodeJS.Timeout | undefined;
  // The lookup goes on after the deadline, and what it finds is cached for the next keystroke.
  const late = new Promise<[]>((resolve) => (timer = setTimeout(() => resolve([]), deadlineMs)));
  try {
    const options = await Promise.race([bot.suggestLocations(typed), late]);
    const seen = new Set<string>();
    const choices: Choice[] = [];
    for (const o of options) {
      const choice = choiceOf(o.value);
      if (!choice || seen.has(choice.value)) continue;
      seen.add(choice.value);
      choices.push(choice);
      if (choices.length === L.autocompleteChoices) break;
    }
    return choices;
  } finally {
    clearTimeout(timer);
  }
}

const EXAMPLES: Readonly<Record<string, string>> = Object.fromEntries(
  [...SEARCH_COMMANDS, ...OTHER_COMMANDS].map((c) => [c.name, c.example]),
);
const ALERT_EXAMPLE = 'rent marina 2br under 120k';

export interface QueryContext {
  command: string;
  subcommand?: string | null | undefined;
  typed: string;
  location?: string | null | undefined;
}

/**
 * The first (and only) choice under `query`: the text so far, named by what it will mean ("2-bedroom homes for rent in
 * Dubai Marina, …"), or an example while nothing is typed. The place is named as the location cache knows it
 * ("in Dubai Marina", or "in jumeirah (4 places match)"): the bot reads the cache, never the service. No call, so it is
 * always in time.
 */
export function queryChoices(bot: Pick<ChatCore, 'describe'>, ctx: QueryContext): Choice[] {
  const typed = ctx.typed.trim();
  const alerts = ctx.command === 'alerts';
  if (alerts && !(ALERT_SUBCOMMANDS as readonly string[]).includes(ctx.subcommand ?? '')) return [];
  const example = alerts ? ALERT_EXAMPLE : EXAMPLES[ctx.command];
  if (!typed) return example ? [{ name: clampPlain(`e.g. ${example}`, L.choiceName), value: example }] : [];
  // A choice's value is what gets sent; text longer than a value can hold is sent as typed, with no choice shown.
  if (typed.length > L.choiceValue) return [];
  const input = { name: ctx.command, query: typed, location: ctx.location };
  // Read as the command will be: the same text, and the `location` picked beside it (which wins over a place typed).
  const summary = alerts ? bot.describe(typed) : bot.describe(commandText(input), chosenLocation(input));
  const name = summary ?? `${typed}: not understood yet${example ? ` (e.g. ${example})` : ''}`;
  return [{ name: clampPlain(name, L.choiceName), value: typed }];
}
