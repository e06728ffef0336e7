// The bot addressed at the start of a command ("@manzil", Slack's "<@U123ABC>", "hey manzil,"), taken off before the
// text is routed, so "@manzil compare marina, jlt" is a compare and "hey manzil value jvc 2br" a value, as the same
// words without the address are (issue 39). The parser drops the same words again for a search, and says so.
import { withoutMention } from './chat-words.js';

const ADDRESS = /^(?:(?:hey|hi|hello|hiya|yo)[\s,]+)?@?manzil\b[\s,:!]*/i;

/** The text without a leading address to the bot; the text itself when there is none or no word follows it. */
export function withoutAddress(text: string): string {
  const rest = withoutMention(text.trimStart()).text.replace(ADDRESS, '');
  // "hi manzil??" alone is a greeting, for small talk to answer: kept whole.
  return /[\p{L}\p{N}]/u.test(rest) ? rest : text;
}
