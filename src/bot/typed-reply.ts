// A reply's commands written as the person types them where it is read (CommandRequest.commandStyle): the terminal
// chat takes `alerts list`, Slack and Discord `/alerts list`. Only the words change (text, and cards' fields); buttons
// stay as they are.
import { asTyped } from '../query/index.js';
import { delegateTo, type ChatCore } from '../ports/index.js';
import type { Block, Reply } from '../views/model.js';

function blockAsTyped(block: Block, style: 'slash' | 'plain'): Block {
  if (block.kind === 'text' || block.kind === 'context' || block.kind === 'header')
    return { ...block, text: asTyped(block.text, style) };
  // A card's fields carry our own commands (`Agent: Sara Cruz · /manzil agent 224835`); its title, body and links are
  // the service's text and stay as they are.
  if (block.kind === 'card') {
    const { card } = block;
    const fields = card.fields.map((f) => (f.inert ? f : { ...f, value: asTyped(f.value, style) }));
    // A tile's body names the agent with their command too.
    const tile = card.tile?.body ? { tile: { ...card.tile, body: asTyped(card.tile.body, style) } } : {};
    return { ...block, card: { ...card, fields, ...tile } };
  }
  return block;
}

/**
 * The reply with its commands written as `req.commandStyle` types them: also for posts to the terminal (ConsolePoster).
 */
export function typedFor(req: { commandStyle?: 'slash' | 'plain' }, reply: Reply): Reply {
  const style = req.commandStyle ?? 'slash';
  if (style === 'slash') return reply;
  return { ...reply, text: asTyped(reply.text, style), blocks: reply.blocks.map((b) => blockAsTyped(b, style)) };
}

/**
 * The core with every reply's commands written as the request says they are typed (the terminal: without the slash).
 */
export function typedReplies(core: ChatCore): ChatCore {
  return {
    ...delegateTo(core),
    handleCommand: async (req) => typedFor(req, await core.handleCommand(req)),
    handleAction: async (req) => typedFor(req, await core.handleAction(req)),
    immediateReply: (req) => {
      const reply = core.immediateReply(req);
      return reply && typedFor(req, reply);
    },
  };
}
