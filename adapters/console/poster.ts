// Alerts in the terminal chat: the console's ChatPoster prints an alert as it arrives, and its buttons become the
// ones a number presses (as for any reply).
import type { ChatPoster, Reply } from '../../src/bot/index.js';
import type { Button } from '../../src/views/model.js';
import { renderText } from './render.js';

export class ConsolePoster implements ChatPoster {
  readonly platform = 'console';
  /** Set by the chat: shows the alert's buttons as the pressable ones and redraws the prompt. */
  onPosted: ((buttons: Button[]) => void) | undefined;

  constructor(private readonly output: NodeJS.WritableStream = process.stdout) {}

  async post(_place: string, reply: Reply, deliveryId: string): Promise<{ messageId: string }> {
    const rendered = renderText(reply);
    this.output.write(`\n${rendered.text}\n`);
    this.onPosted?.(rendered.buttons);
    return { messageId: `console-${deliveryId}` };
  }
}
