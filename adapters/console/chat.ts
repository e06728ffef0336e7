// The terminal chat: the embedded default when no Slack or Discord token is configured.
// One command per line; a number presses that button of the last reply; `quit`, Ctrl+D or Ctrl+C leaves.
import { clearScreenDown, createInterface, cursorTo } from 'node:readline';
import pc from 'picocolors';
import type { ChatCore, Surface } from '../../src/ports/index.js';
import type { Reply } from '../../src/views/model.js';
import type { ConsolePoster } from './poster.js';
import { colorFor, renderText } from './render.js';
import type { Button } from '../../src/views/model.js';

export interface TerminalChatOptions {
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
  sandbox?: boolean;
  /** Demo mode: the sandbox's market moves every few seconds, so saved alerts fire soon; the banner says so. */
  demo?: boolean;
  /** Colour and weight; default: on for a terminal, off for a pipe or when NO_COLOR is set. */
  color?: boolean;
  /** The chat ends when this is aborted (the process is shutting down). */
  signal?: AbortSignal;
  /**
   * Called on Ctrl+C in an interactive terminal, where readline receives it instead of the process.
   * The caller starts its shutdown (aborting `signal`); without one, the chat simply ends.
   */
  onInterrupt?: () => void;
  /** Alerts for this chat are printed through it as they arrive; their buttons become pressable. */
  poster?: ConsolePoster;
  /**
   * Runs once the chat has ended and before it says goodbye (the caller's shutdown): alerts still being delivered
   * meanwhile are shown as usual, so nothing is printed after "Goodbye.".
   */
  beforeGoodbye?: () => Promise<void>;
}

const USER = 'terminal';
/** Commands are typed here without the slash: replies write them so (`rent marina`, `alerts list`). */
const TYPED = 'plain';
const CHANNEL = 'console:local';
/** The cards lead to agents and brokerages by the command to type, not by more numbers to type (issue 27). */
const SURFACE: Surface = { cardsPerPage: 10, buttonsPerCard: 5, personButtons: false };
/** Whoever sits at the terminal runs this Manzil: they may manage every alert in it. */
const isAdmin = async () => true;
export const GOODBYE = 'Goodbye.';
export const DEMO_BANNER =
  'sample data; new listings appear every few seconds; connect Slack, Discord or a real API key: see README';

function banner(options: TerminalChatOptions, color: boolean): string {
  const c = pc.createColors(color);
  const keys = 'Type "help", a command such as "rent marina 2br under 120k", a button number, or "quit".';
  if (!options.demo)
    return `Manzil terminal chat${options.sandbox ? ' (sample data from the local sandbox)' : ''}. ${keys}`;
  return [
    `${c.bold('Manzil terminal chat')} ${c.yellow('(demo mode)')}: ${DEMO_BANNER}.`,
    c.dim('Try "rent marina", then type the number of "Save as alert": a new listing arrives within a minute.'),
    keys,
  ].join('\n');
}

/** What a number with no button behind it gets: the numbers there are to press, or that there are none. */
export function noSuchButton(pressed: number, count: number): string {
  if (count === 0)
    return `There is no button ${pressed}: no buttons are on screen. Type a command, like "rent marina 2br under 120k", or "help".`;
  if (count === 1) return `There is no button ${pressed} on screen; the only one is 1. Type 1, or a command.`;
  return `There is no button ${pressed} on screen; the buttons are numbered 1 to ${count}. Type one of those, or a command.`;
}

export async function runTerminalChat(bot: ChatCore, options: TerminalChatOptions = {}): Promise<void> {
  const output = options.output ?? process.stdout;
  const color = options.color ?? colorFor(output);
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
    // Closing readline leaves raw mode, so a second Ctrl+C is a real SIGINT (and the caller exits at once). It is
    // closed before the message is printed: a second Ctrl+C typed on reading it must not be swallowed in raw mode.
    const wasBusy = busy;
    end();
    say(wasBusy ? '\n(Ctrl+C: finishing the answer on its way; Ctrl+C again quits at once)' : '');
    options.onInterrupt?.();
  });

  say(banner(options, color));
  let buttons: Button[] = [];
  if (options.poster) {
    // An alert arrives whenever it likes: it is printed above the prompt, which is then drawn again with whatever
    // was typed so far, so the two never share a line. Its buttons are numbered after those already on screen, so
    // the search's "Next" or "Save as alert" keep their numbers.
    options.poster.display = (reply: Reply) => {
      const rendered = renderText(reply, { color, firstNumber: buttons.length + 1 });
      buttons = [...buttons, ...rendered.buttons];
      if (interactive && !ended) {
        cursorTo(output, 0);
        clearScreenDown(output);
        say(`${rendered.text}\n`);
        if (!busy) rl.prompt(true);
      } else {
        say(`\n${rendered.text}`);
      }
    };
  }
  rl.setPrompt('manzil> ');
  if (interactive) rl.prompt();
  try {
    for await (const raw of rl) {
      const line = raw.trim();
      if (line === 'quit' || line === 'exit') break;
      if (line !== '' && /^\d+$/.test(line) && buttons[Number(line) - 1] === undefined) {
        // A number is a button press: one that is not on screen is answered with the ones that are, not sent as a
        // command.
        say(noSuchButton(Number(line), buttons.length));
      } else if (line !== '') {
        const number = /^\d+$/.test(line) ? Number(line) : undefined;
        const button = number !== undefined ? buttons[number - 1] : undefined;
        busy = true;
        const reply = await (
          button
            ? bot.handleAction({
                user: USER,
                channel: CHANNEL,
                surface: SURFACE,
                action: button.action,
                token: button.token,
                isAdmin,
                commandStyle: TYPED,
              })
            : bot.handleCommand({
                user: USER,
                channel: CHANNEL,
                surface: SURFACE,
                text: line,
                isAdmin,
                commandStyle: TYPED,
              })
        ).finally(() => (busy = false));
        const rendered = renderText(reply, { color });
        // A reply without buttons (a hint, "Saved as alert", help) keeps those above it usable: they are still the
        // last numbers on screen.
        if (rendered.buttons.length > 0) buttons = rendered.buttons;
        say(rendered.text);
      }
      if (ended) break; // lines typed ahead are dropped once the chat was told to end
      if (interactive) rl.prompt();
    }
  } finally {
    ended = true;
    options.signal?.removeEventListener('abort', end);
    rl.close();
  }
  try {
    await options.beforeGoodbye?.();
  } finally {
    if (options.poster) options.poster.display = undefined;
    say(GOODBYE);
  }
}
