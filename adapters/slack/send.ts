// Sending a Reply to Slack, by respond() or chat.postMessage alike: Block Kit first; if Slack refuses the blocks (an
// image
// it cannot fetch, say), the same reply without images, and at last plain text, so the person always gets an answer.
// The chain itself is shared (adapters/shared/fallback); Slack gives it its forms and its log line.
import type { Reply } from '../../src/bot/index.js';
import { sendWithFallback as sendForms, type Forms } from '../shared/fallback.js';
import { renderSlack } from './render.js';

export type SendLog = (message: string, fields: Record<string, unknown>) => void;

/** One rendering of a reply: with blocks, or plain text only (no `blocks` key at all). */
export interface SlackPayload {
  text: string;
  blocks?: ReturnType<typeof renderSlack>['blocks'];
}

export interface FallbackOptions {
  log: SendLog;
  /** Whether a failure means Slack refused the content (try a plainer form) rather than the call; default: always. */
  isContentRefusal?: (error: unknown) => boolean;
}

const SLACK_FORMS: Forms<SlackPayload> = {
  render: renderSlack,
  textOnly: (reply) => ({ text: renderSlack(reply).text }),
};

/**
 * Delivers the reply through `deliver`, each form after the last was refused: as is, without images, text only.
 * Resolves with what the accepted delivery returned; throws the last error when every form failed, or at once
 * when an error is not a refusal of the content (a rate limit, an unknown channel: a plainer message cannot help).
 */
export function sendWithFallback<T>(
  reply: Reply,
  deliver: (payload: SlackPayload) => Promise<T>,
  options: FallbackOptions,
): Promise<T> {
  return sendForms(reply, SLACK_FORMS, deliver, {
    isContentRefusal: options.isContentRefusal,
    onFailure: (error, attempt) => options.log('slack refused a reply', { attempt, error }),
  });
}
