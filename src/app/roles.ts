// The roles an instance can run in, and which one `npm start` asks for.
import type { Config } from '../config.js';
import type { StartOptions } from './types.js';

/**
 * What an instance runs: `both` the chat side and the background (the drainer, the poller, the digests) in this thread;
 * `chat` the chat side here and the background in a delivery thread of its own (which composes `background`);
 * `background` the background alone, with its own store and clients (the delivery thread, `manzil poll --once`).
 */
export type Role = 'chat' | 'background' | 'both';

export const chatPlatformIn = (config: Config) =>
  Boolean(config.slack) || ('discord' in config && Boolean(config.discord));

/** The terminal's poster delivers alerts when the terminal chat runs: alone, or alongside a platform with --console. */
export const withTerminalIn = (config: Config, o: StartOptions) =>
  Boolean(o.terminal) && (!chatPlatformIn(config) || o.consoleChat === true);

/**
 * A delivery thread only when serving a chat platform from a database file on the real service: the embedded sandbox,
 * the terminal chat, an in-memory database and a test clock keep the background in this thread.
 */
export function roleOf(config: Config, o: StartOptions): 'chat' | 'both' {
  const threaded =
    o.deliveryThread === true &&
    o.serve !== false &&
    chatPlatformIn(config) &&
    !config.sandbox &&
    !withTerminalIn(config, o) &&
    !o.clock &&
    config.dbPath !== ':memory:';
  return threaded ? 'chat' : 'both';
}
