// The terminal chat: the embedded default when no Slack or Discord token is configured.
// One command per line; a number presses that button of the last reply; `quit`, Ctrl+D or Ctrl+C leaves.
import { createInterface } from 'node:readline';
import type { Bot } from '../../src/bot/index.js';
import type { ConsolePoster } from './poster.js';
import { renderText } from './render.js';
import type { Button } from '../../src/views/model.js';

export interface TerminalChatOptions {
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
  sandbox?: boolean;
  /** The chat ends when this is aborted (the process is shutting down). */
  signal?: AbortSignal;
  /**
   * Called on Ctrl+C in an interactive terminal, where readline receives it instead of the process.
   * The caller starts its shutdown (aborting `signal`); without one, the chat simply ends.
   */
  onInterrupt?: () => void;
  /** Alerts for this chat are printed through it as they arrive; their buttons become pressable. */
  poster?: ConsolePoster;
}

const USER = 'terminal';
const PLACE = 'console:local';
/** Whoever sits at the terminal runs this Manzil: they may manage every alert in it. */
const isAdmin = async () => true;
export const GOODBYE = 'Goodbye.';

export async function runTerminalChat(bot: Bot, options: TerminalChatOptions = {}): Promise<void> {
  const output = options.output ?? process.stdout;
  const input = options.input ?? process.stdin;
  const interactive = input === process.stdin && process.stdin.isTTY;
  const rl = createInterface({ input, output, terminal: interactive });
  const say = (text: string) => output.write(`${text}\n`);
  let busy = false;
  // Ctrl+D or the end of piped input close readline too, but the lines already read still get their answers.
  let ended = false;
  const end = () => {
    ended = true;
    rl.close();
  };
  if (options.signal?.aborted) end();
  options.signal?.addEventListener('abort', end, { once: true });
  // In raw mode Ctrl+C reaches readline, not the process: it ends the chat here and starts the caller's shutdown.
  rl.on('SIGINT', () => {
    // Closing readline leaves raw mode, so a second Ctrl+C is a real SIGINT (and the caller exits at once).
    say(busy ? '\n(Ctrl+C: finishing the answer on its way; Ctrl+C again quits at once)' : '');
    options.onInterrupt?.();
    end();
  });

  say(`Manzil terminal chat${options.sandbox ? ' (sample data from the local sandbox)' : ''}. Type "help", a command such as "rent marina 2br under 120k", a button number, or "quit".`);
  let buttons: Button[] = [];
  if (options.poster) {
    options.poster.onPosted = (posted) => {
      if (posted.length > 0) buttons = posted;
      if (interactive && !busy && !ended) rl.prompt(true);
    };
  }
  rl.setPrompt('manzil> ');
  if (interactive) rl.prompt();
  try {
    for await (const raw of rl) {
      const line = raw.trim();
      if (line === 'quit' || line === 'exit') break;
      if (line !== '') {
        const number = /^\d+$/.test(line) ? Number(line) : undefined;
        const button = number !== undefined ? buttons[number - 1] : undefined;
        busy = true;
        const reply = await (button
          ? bot.handleAction({ user: USER, place: PLACE, action: button.action, token: button.token, isAdmin })
          : bot.handleCommand({ user: USER, place: PLACE, text: line, isAdmin })).finally(() => (busy = false));
        const rendered = renderText(reply);
        // An ephemeral hint keeps the buttons of the results above it usable.
        if (rendered.buttons.length > 0 || !reply.ephemeral) buttons = rendered.buttons;
        say(rendered.text);
      }
      if (ended) break; // lines typed ahead are dropped once the chat was told to end
      if (interactive) rl.prompt();
    }
  } finally {
    if (options.poster) options.poster.onPosted = undefined;
    options.signal?.removeEventListener('abort', end);
    rl.close();
  }
  say(GOODBYE);
}
