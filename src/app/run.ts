// The ways a process runs Manzil: `npm start` (the chat platforms, or the terminal chat) with its signals, and
// `manzil poll --once`. The wiring itself is the composition root's (compose.ts).
import { fstatSync } from 'node:fs';
import path from 'node:path';
import { isatty } from 'node:tty';
import { runTerminalChat } from '../../adapters/console/chat.js';
import { ConsolePoster } from '../../adapters/console/poster.js';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { installCrashHandlers } from '../crash.js';
import { createLogger } from '../log.js';
import { compose, startManzil } from './compose.js';

/** Until the service has its logger: a crash while starting is logged on stderr, masked as every line is. */
const bootLogger = (config: Config) =>
  createLogger({ level: config.logLevel, secrets: config.secrets, format: config.logFormat });

/** How long `manzil poll --once` waits for deliveries that become due soon (a look deferred a few seconds). */
const POLL_ONCE_WAIT_MS = 10_000;

/** `manzil poll --once`: one poller run, then the outbox drained, then exit (for cron-style deployments). */
export async function runPollOnce(out: (line: string) => void): Promise<number> {
  const configured = loadConfig(process.env);
  const crash = installCrashHandlers(bootLogger(configured));
  // The background role alone: no chat is served, nothing is scheduled; one run, then what it queued is posted.
  const side = await compose(configured, 'background');
  crash.use(side.logger);
  // Its claims are this run's: a run killed mid-post hands them over at once to the next (a lapsed heartbeat).
  await side.heartbeat.start();
  try {
    const report = await side.poll();
    const delivered = await side.drainer.drain();
    // A post cut off by an earlier run's crash is trusted "not there" a few seconds after its attempt: wait for what
    // becomes due that soon rather than leave it to the next run (longer waits, such as a slow platform's, are left).
    for (let round = 0; round < 3; round++) {
      const next = await side.outbox.nextDue(side.drainer.gate.open());
      if (next === undefined || next - Date.now() > POLL_ONCE_WAIT_MS) break;
      await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now())));
      const more = await side.drainer.drain();
      for (const key of Object.keys(delivered) as (keyof typeof delivered)[]) delivered[key] += more[key];
    }
    out(JSON.stringify({ poll: report, delivery: delivered, outbox: await side.outbox.stats() }));
    return report.failedQueries > 0 || delivered.failed > 0 ? 1 : 0;
  } finally {
    await side.stop();
  }
}

const NO_PLATFORM =
  'No chat platform is configured: set SLACK_* or DISCORD_* (the terminal chat needs a terminal, or input piped to it)';

/**
 * Whether the terminal chat can read a conversation from `fd`: a terminal, a pipe or a file; not /dev/null, not closed.
 */
export function canChatOn(fd: number): boolean {
  if (isatty(fd)) return true;
  try {
    const stat = fstatSync(fd);
    return stat.isFIFO() || stat.isSocket() || stat.isFile();
  } catch {
    return false; // no stdin at all
  }
}

/** After a clean stop, whatever still holds the process open (a reply being posted) gets this long. */
const EXIT_GRACE_MS = 3_000;

/**
 * `npm start`: Slack and/or Discord when configured, otherwise the terminal chat on stdin/stdout.
 * SIGTERM, SIGINT (and Ctrl+C in the terminal chat) stop gracefully; a second one exits at once.
 */
export async function runStart(args: readonly string[] = []): Promise<number> {
  // With no chat platform the terminal chat is all there is; on /dev/null (a container, a service manager) it would end
  // at once, exit 0 and be restarted in a loop with no port open: say what is missing instead.
  const configured = loadConfig(process.env);
  if (!configured.slack && !configured.discord && !canChatOn(0)) throw new ConfigError([NO_PLATFORM]);
  // Charts in the terminal are saved beside the database (./data/charts) and their path printed.
  const chartsDir = path.join(configured.dbPath === ':memory:' ? './data' : path.dirname(configured.dbPath), 'charts');
  const terminal = new ConsolePoster(process.stdout, undefined, { chartsDir });
  const consoleChat = args.includes('--console');
  const crash = installCrashHandlers(bootLogger(configured));
  const manzil = await startManzil({
    config: configured,
    terminal,
    ops: args.includes('--ops'),
    consoleChat,
    deliveryThread: configured.alerts.thread,
  });
  const { lifecycle, logger } = manzil;
  crash.use(logger);
  let chatOn = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (lifecycle.isStopping) {
      logger.warn('second signal: exiting now', { signal, inFlight: lifecycle.inFlight.size });
      // The log line stays in the log: the person at the terminal chat is told in words.
      if (chatOn) process.stdout.write('\nQuitting now, without the answer on its way.\n');
      process.exit(signal === 'SIGINT' ? 130 : 143);
    }
    logger.info('signal received: finishing the requests in flight, then stopping', { signal });
    void manzil.shutdown(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    // With Slack or Discord configured, serve them (a service manager gives no stdin); else the terminal chat.
    // `--console` runs the terminal chat alongside them; quitting it stops the whole process.
    if (consoleChat || (!manzil.slack && !manzil.discord)) {
      // The chat ends on quit, Ctrl+D, Ctrl+C (which counts as the first signal) or when shutdown begins.
      chatOn = true;
      await runTerminalChat(manzil.bot, {
        sandbox: Boolean(manzil.sandbox),
        demo: Boolean(manzil.demo),
        signal: lifecycle.signal,
        onInterrupt: () => onSignal('SIGINT'),
        poster: terminal,
        beforeGoodbye: () => manzil.shutdown('chat ended'),
      });
      await manzil.shutdown('chat ended');
    }
    await lifecycle.stopped(); // Slack and Discord serve until a signal
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  setTimeout(() => {
    logger.warn('still running after a clean stop: exiting');
    process.exit(0);
  }, EXIT_GRACE_MS).unref();
  return 0;
}
