// Sending a Reply through respond(): Block Kit first; if Slack refuses the blocks (an image it cannot fetch, say),
// the same reply without images, and at last plain text, so the person always gets an answer.
import type { RespondArguments, RespondFn } from '@slack/bolt';
import type { Reply } from '../../src/bot/index.js';
import { renderSlack } from './render.js';

export interface SendOptions {
  /** For a button press: false to post a new (ephemeral) message instead of editing. */
  replaceOriginal?: boolean;
  log: (message: string, fields: Record<string, unknown>) => void;
}

const withoutImages = (reply: Reply): Reply => ({
  ...reply,
  blocks: reply.blocks.map((b) => (b.kind === 'card' ? { ...b, card: { ...b.card, imageUrl: undefined } } : b)),
});

export async function sendReply(respond: RespondFn, reply: Reply, options: SendOptions): Promise<void> {
  const envelope: Partial<RespondArguments> = reply.replaceOriginal && options.replaceOriginal !== false
    ? { replace_original: true }
    : { response_type: reply.ephemeral ? 'ephemeral' : 'in_channel', replace_original: false };
  const attempts: (() => RespondArguments)[] = [
    () => ({ ...envelope, ...renderSlack(reply) }) as RespondArguments,
    () => ({ ...envelope, ...renderSlack(withoutImages(reply)) }) as RespondArguments,
    () => ({ ...envelope, text: renderSlack(reply).text }) as RespondArguments,
  ];
  for (const [i, build] of attempts.entries()) {
    try {
      await respond(build());
      return;
    } catch (e) {
      options.log('slack refused a reply', { attempt: i + 1, error: e });
    }
  }
}
