// `manzil sandbox`: runs the sandbox on 127.0.0.1 until SIGINT or SIGTERM.
import { createSandbox, startOfUtcDay } from './index.js';

const USAGE = 'usage: manzil sandbox [--port N] [--key K] [--plan basic|full] [--seed S] [--start today|YYYY-MM-DD]';

interface CliFlags {
  port: number;
  key: string;
  plan: 'basic' | 'full';
  seed: number;
  /** The market clock's start; none: the start of today's UTC day (see runSandboxCli). */
  start?: Date;
}

/** Parses `--name value` and `--name=value`; returns a message on the first problem. */
export function parseSandboxFlags(args: string[]): CliFlags | string {
  const flags: CliFlags = { port: 8787, key: 'sandbox-key', plan: 'full', seed: 1 };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const m = /^--(port|key|plan|seed|start)(?:=(.*))?$/.exec(arg);
    if (!m) return `unknown argument "${arg}"`;
    const name = m[1]!;
    const value = m[2] ?? args[++i];
    if (value === undefined || value === '') return `--${name} needs a value`;
    if (name === 'port') {
      if (!/^\d+$/.test(value) || Number(value) > 65535)
        return `--port must be a number from 0 to 65535 (got "${value}")`;
      flags.port = Number(value);
    } else if (name === 'seed') {
      if (!/^\d+$/.test(value) || Number(value) > 0xffffffff) return `--seed must be a whole number (got "${value}")`;
      flags.seed = Number(value);
    } else if (name === 'plan') {
      if (value !== 'basic' && value !== 'full') return `--plan must be basic or full (got "${value}")`;
      flags.plan = value;
    } else if (name === 'start') {
      if (value === 'today') delete flags.start;
      else {
        const at = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : Number.NaN);
        // A day that does not exist (2026-02-31) is refused, not rolled over into the next month.
        if (!Number.isFinite(at.getTime()) || at.toISOString().slice(0, 10) !== value)
          return `--start must be today or a date such as 2026-11-01 (got "${value}")`;
        flags.start = at;
      }
    } else flags.key = value;
  }
  return flags;
}

export async function runSandboxCli(
  args: string[],
  out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
): Promise<number> {
  const flags = parseSandboxFlags(args);
  if (typeof flags === 'string') {
    process.stderr.write(`manzil sandbox: ${flags}\n${USAGE}\n`);
    return 2;
  }
  // The market starts at the calendar's today by default: a bot on this sandbox dates its digests and periods by the
  // wall clock, and the market's dates must agree with them. `--start` pins a date, for the same data on every day.
  const start = flags.start ?? startOfUtcDay(Date.now());
  const sandbox = createSandbox({ key: flags.key, plan: flags.plan, seed: flags.seed, start });
  let url: string;
  try {
    url = await sandbox.listen(flags.port, '127.0.0.1');
  } catch (e) {
    process.stderr.write(
      `manzil sandbox: cannot listen on 127.0.0.1:${flags.port}: ${e instanceof Error ? e.message : String(e)}\n`,
    );
    return 1;
  }
  const s = sandbox.stats();
  out(`UAE Property Data Service sandbox listening on ${url}`);
  out(`key: ${sandbox.key}   (send it as x-gateway-key)   plan: ${flags.plan}   seed: ${flags.seed}`);
  out(`${s.listings} listings in ${s.locations} locations; market clock ${sandbox.now().toISOString()}`);
  out(`try: curl -H 'x-gateway-key: ${sandbox.key}' '${url}/autocomplete-location?query=marina'`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await sandbox.close();
  out('sandbox stopped');
  return 0;
}
