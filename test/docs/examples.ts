// The chat examples a user reads, found where they read them: the bot's help texts (asked of the bot itself) and
// docs/*.md with README.md. The rule for what counts as an example, the same in every language (docs/testing.md):
//
// - in docs, a backticked span, or a line of a fenced block that is not code (a transcript's `manzil>` line, a list of
//   commands), whose first word, after an optional `/` and an optional
//   `manzil`, is one of the bot's command words (every verb, alias and slash command of src/query's tables), followed
//   by at least one more word, with no placeholder (`<…>`, `…`, `...`, `[…]`, ` | `); Discord's form
//   `/rent query:… location:…` is read as Discord sends it;
// - in a help text, every bullet after an "Examples:" line, every text after "e.g." up to the next `;`, `, "` or
//   `, or`, and every double-quoted text that starts with a command word.
//
// What the doc says an example does, where it says it on the example's own line ("asks which one", "did you mean"),
// is kept as the outcome the reply must show.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { chosenLocation, commandText, type CommandInput } from '../../adapters/discord/commands.js';
import { hasArabic, readArabic } from '../../src/query/arabic.js';
import { SLASH_COMMANDS } from '../../src/query/commands.js';
import { VERB_TABLE } from '../../src/query/verbs.js';
import type { Block, Reply } from '../../src/views/model.js';

export interface Example {
  /** The text typed, as the bot receives it. */
  text: string;
  /** The area picked in Discord's `location` option. */
  location?: string;
  /** Where it was read: `docs/usage.md:18` or `help rent`. */
  where: string;
  /** What the doc says the reply does, when it says. */
  outcome?: Outcome;
}

export type Outcome = 'asks which one' | 'did you mean';

/** Every word that starts a command: verbs, their aliases (advertised or not), their deal words and slash commands. */
export const COMMAND_WORDS: ReadonlySet<string> = new Set(
  [
    ...VERB_TABLE.flatMap((v) => [v.name, ...v.aliases, ...(v.quiet ?? []), ...Object.keys(v.deals ?? {})]),
    ...SLASH_COMMANDS.map((c) => c.name),
    'help',
  ].map((w) => w.toLowerCase()),
);

const PLACEHOLDER = /<[^>]*>|…|\.\.\.|\[[^\]]*\]|\s\|\s/u;

const words = (text: string) => text.trim().split(/\s+/u).filter(Boolean);

/** The command word a text starts with (`/manzil agent 12` → agent), or undefined. */
function commandWord(text: string): string | undefined {
  const w = words(text.replace(/^\//u, ''));
  const first = w[0]?.toLowerCase();
  if (first === 'manzil' && w.length > 1) return w[1]!.replace(/^\//u, '').toLowerCase();
  return first;
}

const startsWithWord = (text: string) => {
  const word = commandWord(text);
  return word !== undefined && COMMAND_WORDS.has(word);
};

/** An English command, or an Arabic one: its words read as the English ones the bot reads them as (src/query/arabic.ts). */
const startsWithCommand = (text: string) => {
  if (startsWithWord(text)) return true;
  if (!hasArabic(text)) return false;
  const read = readArabic(text.replace(/^\/?manzil\s+/u, ''));
  return read !== undefined && startsWithWord(read);
};

const OUTCOMES: [RegExp, Outcome][] = [
  [/asks? which one|asks? which place|asks? which of/iu, 'asks which one'],
  [/did you mean/iu, 'did you mean'],
];

/** The outcome a doc's line states for the example at `index` in it: said after the example, on its line. */
function outcomeAfter(line: string, index: number): Outcome | undefined {
  const rest = line.slice(index);
  const end = rest.search(/`[^`]+`(?=[^`]*$)|\.\s/u); // up to the sentence's end
  const said = end > 0 ? rest.slice(0, Math.max(end, rest.indexOf('`', 1) + 1)) : rest;
  return OUTCOMES.find(([re]) => re.test(said))?.[1];
}

/** A command with something after its word and no placeholder. */
const isExample = (text: string) => !PLACEHOLDER.test(text) && words(text).length >= 2 && startsWithCommand(text);

/** Fenced blocks in a programming or shell language hold no chat. */
const CODE_FENCES =
  /^(sh|bash|shell|console|json|jsonc|js|ts|typescript|javascript|yaml|yml|sql|env|dotenv|ini|toml|http|diff)$/iu;

/**
 * Discord's `/rent query:marina 2br location:Dubai Marina`, `/digest add places:jvc schedule:daily`: the text and the
 * location the adapter hands the bot (its own commandText and chosenLocation).
 */
function discordForm(span: string): { text: string; location?: string } | undefined {
  const m = /^\/(\S+)(?:\s+(add|list|pause|resume|remove|test|now))?\s+(\w+:[\s\S]*)$/u.exec(span);
  if (!m) return undefined;
  const options: Record<string, string> = {};
  for (const part of m[3]!.split(/\s+(?=\w+:)/u)) {
    const at = part.indexOf(':');
    options[part.slice(0, at)] = part.slice(at + 1).trim();
  }
  const input: CommandInput = {
    name: m[1]!,
    subcommand: m[2] ?? null,
    query: options.query ?? null,
    location: options.location ?? null,
    number: options.number === undefined ? null : Number(options.number),
    areas: options.places ?? null,
    schedule: options.schedule ?? null,
    day: options.day ?? null,
    time: options.time ?? null,
  };
  const location = chosenLocation(input);
  return { text: commandText(input), ...(location ? { location } : {}) };
}

/** The chat examples of one markdown document. */
export function docExamples(markdown: string, file: string): Example[] {
  const out: Example[] = [];
  let fenced = false;
  let chat = false;
  markdown.split('\n').forEach((line, i) => {
    const fence = /^\s*```\s*(\S*)/u.exec(line);
    if (fence) {
      fenced = !fenced;
      chat = fenced && !CODE_FENCES.test(fence[1]!);
      return;
    }
    if (fenced) {
      // A chat transcript or a list of commands: each line typed (after the terminal's prompt) is an example.
      const typed = line.replace(/^\s*manzil>\s*/u, '').trim();
      if (chat && isExample(typed)) out.push({ text: typed, where: `${file}:${i + 1}` });
      return;
    }
    for (const m of line.matchAll(/(?<!`)`([^`\n]+)`(?!`)/gu)) {
      const span = m[1]!.trim();
      if (!isExample(span)) continue;
      const where = `${file}:${i + 1}`;
      const outcome = outcomeAfter(line, m.index + m[0].length);
      const discord = discordForm(span);
      out.push({ ...(discord ?? { text: span }), where, ...(outcome ? { outcome } : {}) });
    }
  });
  return out;
}

/** The examples of one help text (as the bot answers `help …`). */
export function helpExamples(help: string, topic: string): Example[] {
  const out: Example[] = [];
  const add = (text: string) => {
    const t = text.trim().replace(/[.,;:]$/u, '');
    if (t !== '' && !PLACEHOLDER.test(t)) out.push({ text: t, where: topic });
  };
  let listing = false;
  for (const line of help.split('\n')) {
    if (/^\s*examples:\s*$/iu.test(line)) {
      listing = true;
      continue;
    }
    const bullet = /^\s*•\s+(.*)$/u.exec(line);
    if (listing && bullet) add(bullet[1]!);
    else listing = false;
    // "e.g. /rent marina 2br", up to the next `;`, `, "` or `, or`; "e.g. "help rent"" is the quoted text.
    for (const m of line.matchAll(/\be\.g\.\s+(?:"([^"]+)"|([^;"]+?)(?=;|, "|, or\b|$))/gu)) {
      const text = m[1] ?? m[2]!;
      if (startsWithCommand(text)) add(text);
    }
    for (const m of line.matchAll(/"([^"]+)"/gu)) if (startsWithCommand(m[1]!) && words(m[1]!).length > 1) add(m[1]!);
  }
  return out;
}

/** docs/*.md and README.md, as [file, text]. */
export function docsFiles(root: string): [string, string][] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md') && f !== 'CHANGELOG.md' && f !== 'benchmarks.md')
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs].map((f) => [f, readFileSync(join(root, f), 'utf8')]);
}

/** The help topics the bot answers: `help`, each verb, each slash command without a verb. */
export const HELP_TOPICS: readonly string[] = [
  'help',
  ...VERB_TABLE.map((v) => `help ${v.name}`),
  ...SLASH_COMMANDS.filter((c) => !c.verb && c.name !== 'manzil').map((c) => `help ${c.name}`),
];

/** Replies that lead nowhere: the bot did not understand, found nothing to show, or failed. */
const DEAD_ENDS: [RegExp, string][] = [
  [/\bI don't know\b/iu, 'not understood'],
  [/\bcouldn't find a place\b|\bcould not find\b|\bnothing matched\b/iu, 'no place found'],
  [/^No results\b|: no results\b/imu, 'no results'],
  [/went wrong|internal error|\bTypeError\b|\bundefined\b|\bNaN\b|\[object /u, 'an internal failure'],
  [/failed to answer|is busy|try again/iu, 'the service failed'],
  [/\bnot found\b|\bhas nothing under\b|\bThere is no (alert|digest) #/iu, 'not found'],
];

/** Everything a person sees of a reply: its text, its blocks' text, its buttons' labels. */
export function seen(reply: Reply): { text: string; buttons: string[] } {
  const parts: string[] = [reply.text];
  const buttons: string[] = [];
  const visit = (b: Block) => {
    if (b.kind === 'text' || b.kind === 'context') parts.push(b.text);
    if (b.kind === 'card') {
      parts.push(b.card.title, ...(b.card.fields ?? []).map((f) => `${f.label}: ${f.value}`));
      buttons.push(...(b.card.buttons ?? []).map((x) => x.label));
    }
    if (b.kind === 'actions') buttons.push(...b.buttons.map((x) => x.label));
  };
  reply.blocks.forEach(visit);
  return { text: parts.join('\n'), buttons };
}

/** Why a reply fails its example; undefined when it stands. */
export function problem(example: Example, reply: Reply): string | undefined {
  const { text, buttons } = seen(reply);
  for (const [re, why] of DEAD_ENDS) if (re.test(text)) return `${why}: ${text.split('\n')[0]}`;
  if (example.outcome === 'asks which one' && !(/\bwhich\b/iu.test(text) && buttons.length >= 2))
    return `the doc says it asks which one; the reply: ${text.split('\n')[0]}`;
  if (example.outcome === 'did you mean' && !/did you mean/iu.test(text))
    return `the doc says it asks "did you mean"; the reply: ${text.split('\n')[0]}`;
  return undefined;
}
