// Every command's name, in one list, for the replies that name them all ("I don't know "fly". Try one of: …"): the
// verbs of verbs.ts, then the slash commands that run no verb (compare, value, alerts, digest) from commands.ts, so a
// command added to either table is named without another list to keep.
import { SLASH_COMMANDS } from './commands.js';
import { VERB_TABLE } from './verbs.js';

export const COMMAND_NAMES: readonly string[] = [
  ...VERB_TABLE.map((v) => v.name),
  ...SLASH_COMMANDS.filter((c) => !c.verb && c.name !== 'manzil').map((c) => c.name),
];
