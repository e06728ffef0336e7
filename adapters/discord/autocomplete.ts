// What Discord shows under an option as it is typed: for `location`, places from the service (cached, and never later
// than the deadline: then what is cached, or nothing); for `query`, how the text so far will be understood.
import type { Bot } from '../../src/bot/index.js';
import { ALERT_SUBCOMMANDS, OTHER_COMMANDS, SEARCH_COMMANDS, commandText } from './commands.js';
import { DISCORD_LIMITS as L } from './limits.js';
import { clampPlain } from './render-text.js';

export interface Choice {
  name: string;
  value: string;
}

/** The bot's location options carry `<id>:<name>`; the command's `location` option takes the name. */
const nameOf = (value: string, label: string) => /^\d+:(.+)$/s.exec(value)?.[1] ?? label;

/** Places matching what was typed, answered within `deadlineMs` whatever the service does. */
export async function locationChoices(bot: Pick<Bot, 'suggestLocations'>, typed: string, deadlineMs: number): Promise<Choice[]> {
  let timer: NodeJS.Timeout | undefined;
  // The lookup goes on after the deadline, and what it finds is cached for the next keystroke.
  const late = new Promise<[]>((resolve) => (timer = setTimeout(() => resolve([]), deadlineMs)));
  try {
    const options = await Promise.race([bot.suggestLocations(typed), late]);
    const seen = new Set<string>();
    const choices: Choice[] = [];
    for (const o of options) {
      const name = nameOf(o.value, o.label).trim();
      // A cut name would not be found again: a place whose name is too long for a choice is left out.
      if (!name || name.length > L.choiceValue || seen.has(name)) continue;
      seen.add(name);
      choices.push({ name: clampPlain(name, L.choiceName), value: name });
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
 * Dubai Marina, …"), or an example while nothing is typed. Pure: no call, so it is always in time.
 */
export function queryChoices(bot: Pick<Bot, 'describe'>, ctx: QueryContext): Choice[] {
  const typed = ctx.typed.trim();
  const alerts = ctx.command === 'alerts';
  if (alerts && !(ALERT_SUBCOMMANDS as readonly string[]).includes(ctx.subcommand ?? '')) return [];
  const example = alerts ? ALERT_EXAMPLE : EXAMPLES[ctx.command];
  if (!typed) return example ? [{ name: clampPlain(`e.g. ${example}`, L.choiceName), value: example }] : [];
  // A choice's value is what gets sent; text longer than a value can hold is sent as typed, with no choice shown.
  if (typed.length > L.choiceValue) return [];
  const text = alerts ? typed : commandText({ name: ctx.command, query: typed, location: ctx.location });
  const summary = bot.describe(text);
  const name = summary ?? `${typed}: not understood yet${example ? ` (e.g. ${example})` : ''}`;
  return [{ name: clampPlain(name, L.choiceName), value: typed }];
}
