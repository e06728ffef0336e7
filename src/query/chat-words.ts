// Chat words around a terse command, dropped as sentences drop theirs (issue 39): a mention of the bot at the start
// ("@manzil", Slack's "<@U123ABC>", "hey manzil"), politeness at the end ("thanks", "please", "asap"), and who the
// search is for, anywhere ("for my family", "for a client"). Left in, they became area words ("marina thanks"). What
// was dropped is named in the summary, as a typo corrected is. Quoted text is never touched.
import { knownAreaAt } from './scan.js';
import { trimEnd } from './sentence.js';
import type { Token } from './text.js';

/** Slack's mention as pasted into a command: `<@U123ABC>` or `<@U123ABC|manzil>`, at the very start. */
const SLACK_MENTION = /^\s*<@[A-Z0-9]+(?:\|[^>]*)?>[\s,:]*/i;

/** The text without a leading Slack mention, and the mention when there was one. */
export function withoutMention(text: string): { text: string; mention?: string } {
  if (!text.includes('<@')) return { text };
  const found = SLACK_MENTION.exec(text);
  return found ? { text: text.slice(found[0].length), mention: found[0].trim().replace(/[,:]$/, '') } : { text };
}

const GREETINGS = new Set(['hey', 'hi', 'hello', 'hiya', 'yo']);
const BOT_NAMES = new Set(['@manzil', 'manzil']);

/** The people a search is for: "for my family", "for a client", "for our clients". */
const FOR_WHOM = new Set(['family', 'client', 'clients', 'customer', 'customers', 'wife', 'kids', 'children']);
const WHOSE = new Set(['my', 'a', 'our', 'the', 'his', 'her']);

/** Words a chat pass ever drops: a command with none of them costs one set lookup a word. */
const CUES = new Set([...BOT_NAMES, ...GREETINGS, ...FOR_WHOM]);

/** How many words from i say who the search is for ("for my family"), or 0. */
function forWhomAt(tokens: readonly Token[], i: number): number {
  if (tokens[i]?.word !== 'for' || tokens[i]!.quoted) return 0;
  const skip = WHOSE.has(tokens[i + 1]?.word ?? '') && !tokens[i + 1]!.quoted ? 1 : 0;
  const who = tokens[i + 1 + skip];
  return who && !who.quoted && FOR_WHOM.has(who.word) ? 2 + skip : 0;
}

const text = (tokens: readonly Token[]) => tokens.map((t) => t.raw).join(' ');

/** The tokens without their chat words; what was dropped (as typed): said of the bot or the search, and politeness. */
export interface ChatWords {
  tokens: readonly Token[];
  /** A mention of the bot, who the search is for. */
  said: string[];
  /** "thanks", "please" at the end. */
  polite: string[];
}

/** The tokens without their chat words; the same tokens when there are none. A known area keeps its words. */
export function dropChatWords(tokens: readonly Token[], mention?: string): ChatWords {
  const said: string[] = mention ? [mention] : [];
  const last = tokens[tokens.length - 1];
  const closing = last !== undefined && !last.quoted && trimEnd(tokens).length < tokens.length;
  if (!closing && !tokens.some((t) => !t.quoted && CUES.has(t.word))) return { tokens, said, polite: [] };
  let start = 0;
  // "@manzil rent …", "hey manzil, rent …"
  const first = tokens[0];
  if (first && !first.quoted && first.word === '@manzil') start = 1;
  else if (first && !first.quoted && GREETINGS.has(first.word) && BOT_NAMES.has(tokens[1]?.word ?? '')) start = 2;
  if (start > 0) said.push(text(tokens.slice(0, start)));
  if (start > 0 && tokens[start]?.word === ',') start++;
  const words = tokens.map((t) => (t.quoted ? '\u0000' : t.word));
  const kept: Token[] = [];
  for (let i = start; i < tokens.length; i++) {
    const area = knownAreaAt(words, i);
    if (area > 0) {
      kept.push(...tokens.slice(i, i + area));
      i += area - 1;
      continue;
    }
    const whom = forWhomAt(tokens, i);
    if (whom > 0) {
      said.push(text(tokens.slice(i, i + whom)));
      i += whom - 1;
      continue;
    }
    kept.push(tokens[i]!);
  }
  // "… thanks", "… please asap": politeness at the end, after anything said of whom it is for.
  const rest = trimEnd(kept);
  const polite = rest.length < kept.length ? [text(kept.slice(rest.length))] : [];
  return { tokens: rest, said, polite };
}

/** The summary's note on the chat words dropped: `left out "thanks", "@manzil": chat words`; none when none were. */
export const chatNotes = (dropped: readonly string[]): string[] =>
  dropped.length === 0 ? [] : [`left out ${dropped.map((d) => `"${d}"`).join(', ')}: chat words`];

/** Area text without its chat words ("marina thanks" -> "marina"), for ranking "did you mean"; as typed when none. */
export function withoutChatWords(area: string): string {
  const tokens = area
    .split(' ')
    .filter(Boolean)
    .map((raw): Token => ({ raw, word: raw.toLowerCase(), quoted: false, dashBefore: false }));
  const left = dropChatWords(tokens).tokens;
  return left.length === 0 || left.length === tokens.length ? area : left.map((t) => t.raw).join(' ');
}
