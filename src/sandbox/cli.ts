// `manzil sandbox`: runs the sandbox on 127.0.0.1 until SIGINT or SIGTERM.
import { createSandbox } from './index.js';

const USAGE = 'usage: manzil sandbox [--port N] [--key K] [--plan basic|full] [--seed S]';

interface CliFlags {
  port: number;
  key: string;
  plan: 'basic' | 'full';
  seed: number;
}

/** Parses `--name value` and `--name=value`; returns a message on the first problem. */
export function parseSandboxFlags(args: string[]): CliFlags | string {
  const flags: CliFlags = { port: 8787, key: 'sandbox-key', plan: 'full', seed: 1 };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const m = /^--(port|key|plan|seed)(?:=(.*))?$/.exec(arg);
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
  const sandbox = createSandbox({ key: flags.key, plan: flags.plan, seed: flags.seed });
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
