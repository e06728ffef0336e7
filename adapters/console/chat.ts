// The terminal chat: the embedded default when no Slack or Discord token is configured.
// One command per line; a number presses that button of the last reply; `quit` leaves.
import { createInterface } from 'node:readline';
import type { Bot } from '../../src/bot/index.js';
import { renderText } from './render.js';
import type { Button } from '../../src/views/model.js';

export interface TerminalChatOptions {
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
  sandbox?: boolean;
}

const USER = 'terminal';
const PLACE = 'console:local';

export async function runTerminalChat(bot: Bot, options: TerminalChatOptions = {}): Promise<void> {
  const output = options.output ?? process.stdout;
  const input = options.input ?? process.stdin;
  const interactive = input === process.stdin && process.stdin.isTTY;
  const rl = createInterface({ input, output, terminal: interactive });
  const say = (text: string) => output.write(`${text}\n`);
  say(`Manzil terminal chat${options.sandbox ? ' (sample data from the local sandbox)' : ''}. Type "help", a command such as "rent marina 2br under 120k", a button number, or "quit".`);
  let buttons: Button[] = [];
  rl.setPrompt('manzil> ');
  if (interactive) rl.prompt();
  for await (const raw of rl) {
    const line = raw.trim();
    if (line === 'quit' || line === 'exit') break;
    if (line !== '') {
      const number = /^\d+$/.test(line) ? Number(line) : undefined;
      const button = number !== undefined ? buttons[number - 1] : undefined;
      const reply = button
        ? await bot.handleAction({ user: USER, place: PLACE, action: button.action, token: button.token })
        : await bot.handleCommand({ user: USER, place: PLACE, text: line });
      const rendered = renderText(reply);
      // An ephemeral hint keeps the buttons of the results above it usable.
      if (rendered.buttons.length > 0 || !reply.ephemeral) buttons = rendered.buttons;
      say(rendered.text);
    }
    if (interactive) rl.prompt();
  }
  rl.close();
}
