// Alerts in the terminal chat: the console's ChatPoster. While the chat runs, it hands each alert to the chat, which
// prints it above a redrawn prompt and makes its buttons the ones a number presses (as for any reply).
import type { Reply } from '../../src/bot/index.js';
import type { ChatPoster } from '../../src/ports/index.js';
import { colorFor, renderText } from './render.js';

export class ConsolePoster implements ChatPoster {
  readonly platform = 'console';
  /** Set by the chat while it runs: shows the alert without breaking the line being typed. */
  display: ((reply: Reply) => void) | undefined;

  constructor(
    private readonly output: NodeJS.WritableStream = process.stdout,
    private readonly color: boolean = colorFor(output),
  ) {}

  async post(_place: string, reply: Reply, deliveryId: string): Promise<{ messageId: string }> {
    if (this.display) this.display(reply);
    else this.output.write(`\n${renderText(reply, { color: this.color }).text}\n`);
    return { messageId: `console-${deliveryId}` };
  }
}
