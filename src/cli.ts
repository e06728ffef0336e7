// The `manzil` command line: one entry for every way of running the product.
import { realpathSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ConfigError } from './config.js';
import { applyEnvFile, type EnvFile } from './ops/env-file.js';

// The benchmarks are a development tool (they use the test fakes), so they stay out of the build:
// a path tsc does not follow, found when running from source (`npm run bench`).
const BENCHMARKS = '../bench/index.js';

const USAGE = `Usage: manzil <command>

  start                     run the bot: Slack and/or Discord when SLACK_* / DISCORD_* are set, else the terminal chat (default)
  start --ops               also serve GET /healthz and /metrics on PORT with the terminal chat alone
  start --console           also run the terminal chat alongside Slack and/or Discord, in the same process
  sandbox [--port N] [--key K] [--plan basic|full] [--seed S] [--start today|YYYY-MM-DD]
                            run the local stand-in of the UAE Property Data Service
  poll --once               run the alerts poller once, deliver what it found, and exit
  register-discord-commands register the Discord slash commands (in DISCORD_GUILD_ID, else globally)
                            and print the invite URL
  parse [--resolve] [text]  print what a command means as JSON; without text, one command per stdin line
  config                    print the effective configuration (environment, .env, defaults), secrets masked
  config-doc [file]         write the table of every variable into docs/configuration.md (or file), from the code
  backup <file> [--force]   copy the database to <file> while Manzil runs (SQLite's online backup)
  restore <file> [--force] [--json]
                            put a backup in place of the database (stop Manzil first); undelivered alerts are
                            looked for on their platform before any is sent again
  migrate-to-postgres       copy the SQLite file (MANZIL_DB_PATH) into an empty Postgres (DATABASE_URL); stop Manzil first
  outbox [--limit N] [--json]
                            list parked and waiting deliveries, with a summary
  outbox retry <id>|--all   put parked deliveries back in the queue
  teams [--json]            every team (Slack workspace, Discord server): alerts, digests, calls this month, share
  teams set <team> <calls>|default
                            give one team its own monthly share of calls
  bench                     run the benchmarks; their figures go to docs/benchmarks.md
  help                      this text`;

type Out = (line: string) => void;

/** The commands that read the configuration, and so the optional `.env` file first. */
const READS_CONFIG = new Set([
  'start',
  'poll',
  'parse',
  'config',
  'backup',
  'restore',
  'migrate-to-postgres',
  'outbox',
  'teams',
  'register-discord-commands',
]);

export async function runCli(args: string[], out: Out = (l) => process.stdout.write(`${l}\n`)): Promise<number> {
  const [command = 'start', ...rest] = args;
  const errLine = (line: string) => void process.stderr.write(`${line}\n`);
  try {
    const envFile: EnvFile | undefined = READS_CONFIG.has(command) ? applyEnvFile() : undefined;
    switch (command) {
      case 'start':
        return await (await import('./app/run.js')).runStart(rest);
      case 'config': {
        const { describeConfig } = await import('./ops/show-config.js');
        for (const line of describeConfig({ env: process.env, ...(envFile ? { envFile } : {}) })) out(line);
        return 0;
      }
      case 'config-doc':
        return (await import('./ops/config-doc.js')).runConfigDocCli(rest, out, errLine);
      case 'backup': {
        const [{ loadConfig }, { runBackupCli }, { refusedOnPostgres }] = await Promise.all([
          import('./config.js'),
          import('./ops/backup.js'),
          import('./ops/database.js'),
        ]);
        const config = loadConfig(process.env);
        if (refusedOnPostgres('manzil backup', config, errLine)) return 1;
        return await runBackupCli(rest, config.dbPath, out, errLine);
      }
      case 'restore': {
        const [{ loadConfig }, { runRestoreCli }, { refusedOnPostgres }] = await Promise.all([
          import('./config.js'),
          import('./ops/restore.js'),
          import('./ops/database.js'),
        ]);
        const config = loadConfig(process.env);
        if (refusedOnPostgres('manzil restore', config, errLine)) return 1;
        return await runRestoreCli(rest, config.dbPath, out, errLine);
      }
      case 'migrate-to-postgres': {
        const [{ loadConfig }, { runMigrateToPostgresCli }] = await Promise.all([
          import('./config.js'),
          import('./ops/migrate-to-postgres.js'),
        ]);
        return await runMigrateToPostgresCli(rest, loadConfig(process.env), out, errLine);
      }
      case 'outbox': {
        const [{ loadConfig }, { runOutboxCli }] = await Promise.all([
          import('./config.js'),
          import('./ops/outbox-cli.js'),
        ]);
        return await runOutboxCli(rest, loadConfig(process.env), out, errLine);
      }
      case 'teams': {
        const [{ loadConfig }, { runTeamsCli }] = await Promise.all([
          import('./config.js'),
          import('./ops/teams-cli.js'),
        ]);
        return await runTeamsCli(rest, loadConfig(process.env), out, errLine);
      }
      case 'sandbox':
        return await (await import('./sandbox/cli.js')).runSandboxCli(rest, out);
      case 'poll':
        if (!rest.includes('--once')) {
          process.stderr.write(
            'manzil poll: only `manzil poll --once` exists (npm start runs the poller on its schedule)\n',
          );
          return 2;
        }
        return await (await import('./app/run.js')).runPollOnce(out);
      case 'parse':
        return await runParse(rest, out);
      case 'register-discord-commands':
        return await runRegisterDiscord(out);
      case 'bench':
        return await runBench(out);
      case 'help':
      case '--help':
      case '-h':
        out(USAGE);
        return 0;
      default:
        process.stderr.write(`manzil: unknown command "${command}"\n\n${USAGE}\n`);
        return 2;
    }
  } catch (e) {
    if (e instanceof ConfigError) {
      // Exit 1: the configuration is wrong (2 stays for a mistyped command line).
      process.stderr.write(`${e.message}\n`);
      return 1;
    }
    if (e instanceof Error && e.name === 'StartError') {
      // The configuration was fine but a platform or the machine said no: one line, no stack (the log has the detail).
      process.stderr.write(`Manzil could not start: ${e.message}\n`);
      // Everything of Manzil's is closed by now, but a library may still hold a retry timer (Bolt's auth.test when
      // Slack cannot be reached): exit rather than linger with nothing to serve.
      process.exit(1);
    }
    throw e;
  }
}

/** REST only, no gateway login; needs DISCORD_TOKEN and DISCORD_APPLICATION_ID. */
async function runRegisterDiscord(out: Out): Promise<number> {
  const { loadConfig } = await import('./config.js');
  // Registering never touches the property service, so the sandbox rule for serving Discord does not apply here.
  const discord = loadConfig({ ...process.env, MANZIL_SANDBOX: '1' }).discord;
  if (!discord?.applicationId) {
    process.stderr.write(
      'manzil register-discord-commands: set DISCORD_TOKEN and DISCORD_APPLICATION_ID (and DISCORD_GUILD_ID for one server)\n',
    );
    return 1;
  }
  const { runRegisterCommands } = await import('../adapters/discord/register.js');
  const options = {
    token: discord.token,
    applicationId: discord.applicationId,
    guildId: discord.guildId,
    apiUrl: discord.apiUrl,
  };
  return runRegisterCommands(options, out, (line) => process.stderr.write(`${line}\n`));
}

async function runBench(out: Out): Promise<number> {
  let bench: { runBenchmarks(out: Out): Promise<number> };
  try {
    bench = (await import(BENCHMARKS)) as typeof bench;
  } catch (e) {
    if ((e as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw e;
    process.stderr.write(
      'manzil bench: the benchmarks run from the source, with the dev dependencies: npm run bench\n',
    );
    return 2;
  }
  return bench.runBenchmarks(out);
}

async function runParse(args: string[], out: Out): Promise<number> {
  const resolve = args.includes('--resolve');
  const text = args.filter((a) => a !== '--resolve').join(' ');
  // The bot's own routing (value, compare, alerts… as well as searches), so parse shows what the bot would do.
  const { readingOf } = await import('./bot/pipeline/reading.js');
  let resolver: ((words: string) => Promise<Record<string, unknown>>) | undefined;
  let stop = async () => {};
  if (resolve) {
    const { openResolver } = await import('./app/service.js');
    const opened = await openResolver();
    resolver = opened.resolveToFields;
    stop = opened.close;
  }
  const one = async (line: string) => {
    const json = readingOf(line);
    if (resolver && 'operation' in json && typeof json.location === 'string' && json.location)
      Object.assign(json, await resolver(json.location));
    out(JSON.stringify(json));
  };
  try {
    if (text.trim() !== '') {
      await one(text);
    } else {
      for await (const line of createInterface({ input: process.stdin, terminal: false })) {
        if (line.trim() !== '') await one(line);
      }
    }
  } finally {
    await stop();
  }
  return 0;
}

// Run directly (`node dist/src/cli.js start`, as `npm start` does), not only imported by bin/manzil.js.
function isEntryPoint(): boolean {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}
if (isEntryPoint()) process.exitCode = await runCli(process.argv.slice(2));
