// A crash (an exception nothing caught, a promise rejection nothing handled) is written once through the masked logger,
// then the process exits 1 for its service manager to start it again. Node's default would print the raw stack on
// stderr, with any secret its message carries. The delivery thread is not concerned: its crash reaches the main thread
// as the worker's 'error' event, which logs it and starts the thread again (background/thread.ts).
import type { Logger } from './log.js';

/** The exit code after a crash. */
export const CRASH_EXIT_CODE = 1;

export interface CrashHandlers {
  /** Logs through `logger` from now on (the running service's, once it has one). */
  use(logger: Logger): void;
  /** Takes the handlers off again. */
  remove(): void;
}

/** Handles this process's uncaught exceptions and unhandled rejections: logged once, then exit 1. */
export function installCrashHandlers(initial: Logger): CrashHandlers {
  let logger = initial;
  let crashed = false;
  const crash = (kind: 'uncaught exception' | 'unhandled rejection') => (error: unknown) => {
    // A second failure while the first is being written (or by a handler that runs meanwhile) adds nothing.
    if (crashed) return;
    crashed = true;
    try {
      logger.error(`crashed: ${kind}; exiting`, { error });
    } catch {
      // The log itself failed: say so without the error, whose text may hold a secret.
      process.stderr.write(`Manzil crashed (${kind}) and could not write it to the log; exiting\n`);
    }
    process.exit(CRASH_EXIT_CODE);
  };
  const onException = crash('uncaught exception');
  const onRejection = crash('unhandled rejection');
  process.on('uncaughtException', onException);
  process.on('unhandledRejection', onRejection);
  return {
    use: (next) => void (logger = next),
    remove: () => {
      process.off('uncaughtException', onException);
      process.off('unhandledRejection', onRejection);
    },
  };
}
