// "How many …": a question for a count (issue 39). The search runs as the words without "how many" read; the reply
// then opens with the count, as exact as the service lets it be (see bot/pipeline/present.ts). Pure.
import { readArabic } from './arabic.js';

const HOW_MANY = /^\s*(?:\/?manzil\s+)?(?:(?:and|so|ok|okay|hey|hi)[\s,]+)?how\s+many\b/i;

/** True when the text asks how many: "how many villas for sale in palm jumeirah", "كم شقة للإيجار في دبي مارينا". */
export const asksHowMany = (text: string): boolean => HOW_MANY.test(readArabic(text) ?? text);

/**
 * The count line of a "how many" reply: exact when every result was read (one page, or the service's total), else
 * "at least" what was read, with Next for the rest: never a number the service did not give.
 */
export function countLine(p: { total?: number | undefined; read: number; more: boolean; noun: string }): string {
  if (p.total !== undefined)
    return `How many: ${p.total.toLocaleString('en-US')} ${p.noun} in all (the service's count).`;
  if (!p.more) return `How many: ${p.read.toLocaleString('en-US')} ${p.noun} in all.`;
  return `How many: at least ${p.read.toLocaleString('en-US')} ${p.noun}; the service gives no total for listings, so Next shows the rest.`;
}
