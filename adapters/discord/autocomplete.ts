// What Discord shows under an option as it is typed: for `location`, areas from the service (cached, and never later
// than the deadline: then what is cached, or nothing); for `query`, how the text so far will be understood.
import { decodeLocationOption } from '../../src/bot/index.js';
import type { ChatCore, SuggestOption } from '../../src/ports/index.js';
import { ALERT_SUBCOMMANDS, OTHER_COMMANDS, SEARCH_COMMANDS, chosenLocation, commandText } from './commands.js';
import { DISCORD_LIMITS as L } from './limits.js';
import { clampPlain } from './render-text.js';

export interface Choice {
  name: string;
  value: string;
}

/**
 * The bot's location options carry `<id>:<name>`, and so does a choice's value (within Discord's 100 characters: a long
 * name is cut, the id is what counts), so that the area picked is the one searched even when two share a name.
 */
function choiceOf(value: string): Choice | undefined {
  const option = decodeLocationOption(value);
  if (!option) return undefined;
  const id = String(option.id);
  const name = option.name.replace(/\s+/g, ' ').trim();
  if (!name || id.length + 2 > L.choiceValue) return undefined;
  return { name: clampPlain(name, L.choiceName), value: `${id}:${clampPlain(name, L.choiceValue - id.length - 1)}` };
}

/**
 * The core's places for what was typed, asked for the person typing (its calls are their server's): see listeners.ts.
 */
export type Suggest = (typed: string) => Promise<SuggestOption[]>;

/** The service's places for what was typed, or none once `deadlineMs` has passed. */
async function suggestWithin(suggest: Suggest, typed: string, deadlineMs: number): Promise<SuggestOption[]> {
  let timer: NodeJS.Timeout | undefined;
  // The lookup goes on after the deadline, and what it finds is cached for the next keystroke.
  const late = new Promise<[]>((resolve) => (timer = setTimeout(() => resolve([]), deadlineMs)));
  try {
    return await Promise.race([suggest(typed), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Distinct choices, at most as many as Discord shows. */
function distinct(candidates: Iterable<Choice | undefined>): Choice[] {
  const seen = new Set<string>();
  const choices: Choice[] = [];
  for (const choice of candidates) {
    if (!choice || seen.has(choice.value)) continue;
    seen.add(choice.value);
    choices.push(choice);
    if (choices.length === L.autocompleteChoices) break;
  }
  return choices;
}

/** Areas matching what was typed, answered within `deadlineMs` whatever the service does. */
export async function locationChoices(suggest: Suggest, typed: string, deadlineMs: number): Promise<Choice[]> {
  const options = await suggestWithin(suggest, typed, deadlineMs);
  return distinct(options.map((o) => choiceOf(o.value)));
}

/**
 * `/digest add` and `/digest now` take places as text, comma-separated (`dubai marina, business bay`), read by name by
 * the core: each choice is the whole text with its last part completed to an area's name, within the deadline. A name
 * that the core would split (a comma, a semicolon, " and ") or a text over a choice's 100 characters is not offered.
 */
export async function areaListChoices(suggest: Suggest, typed: string, deadlineMs: number): Promise<Choice[]> {
  const cut = typed.lastIndexOf(',');
  const before =
    cut < 0
      ? []
      : typed
          .slice(0, cut)
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean);
  const options = await suggestWithin(suggest, typed.slice(cut + 1).trim(), deadlineMs);
  return distinct(
    options.map((o) => {
      const name = decodeLocationOption(o.value)?.name.replace(/\s+/g, ' ').trim();
      if (!name || /[,;]|\sand\s/i.test(name)) return undefined;
      const value = [...before, name].join(', ');
      return value.length > L.choiceValue ? undefined : { name: value, value };
    }),
  );
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
 * Dubai Marina, …"), or an example while nothing is typed. The area is named as the location cache knows it
 * ("in Dubai Marina", or "in jumeirah (4 areas match)"): the bot reads the cache, never the service. No call, so it is
 * always in time.
 */
export async function queryChoices(bot: Pick<ChatCore, 'describe'>, ctx: QueryContext): Promise<Choice[]> {
  const typed = ctx.typed.trim();
  const alerts = ctx.command === 'alerts';
  if (alerts && !(ALERT_SUBCOMMANDS as readonly string[]).includes(ctx.subcommand ?? '')) return [];
  const example = alerts ? ALERT_EXAMPLE : EXAMPLES[ctx.command];
  if (!typed) return example ? [{ name: clampPlain(`e.g. ${example}`, L.choiceName), value: example }] : [];
  // A choice's value is what gets sent; text longer than a value can hold is sent as typed, with no choice shown.
  if (typed.length > L.choiceValue) return [];
  const input = { name: ctx.command, query: typed, location: ctx.location };
  // Read as the command will be: the same text, and the `location` picked beside it (which wins over an area typed).
  const summary = await (alerts ? bot.describe(typed) : bot.describe(commandText(input), chosenLocation(input)));
  const name = summary ?? `${typed}: not understood yet${example ? ` (e.g. ${example})` : ''}`;
  return [{ name: clampPlain(name, L.choiceName), value: typed }];
}
