// A logger for one delivery, made only if something is logged.
import type { Logger } from '../log.js';

/** A child logger made only when a line is logged (rare): a post's fields are not written out for every post. */
export function lazyChild(logger: Logger, fields: Record<string, unknown>): Logger {
  let made: Logger | undefined;
  const child = () => (made ??= logger.child(fields));
  return {
    debug: (msg, f) => child().debug(msg, f),
    info: (msg, f) => child().info(msg, f),
    warn: (msg, f) => child().warn(msg, f),
    error: (msg, f) => child().error(msg, f),
    child: (f) => child().child(f),
  };
}
