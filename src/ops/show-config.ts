// `manzil config`: the effective configuration, each variable with its value and where it came from, secrets masked.
// It loads the configuration exactly as `manzil start` does, so a problem is reported the same way (and exits 1).
import { ENV_VARIABLES, envDefaults, isSecretVariable, loadConfig } from '../config.js';
import { maskSecrets, MASK } from '../log.js';
import { planOps } from './exposure.js';

export interface ShowConfigOptions {
  env: Record<string, string | undefined>;
  /** Variables that came from the `.env` file, and its path. */
  envFile?: { file: string | undefined; applied: readonly string[] };
}

export function describeConfig({ env, envFile }: ShowConfigOptions): string[] {
  const config = loadConfig(env);
  const defaults = envDefaults();
  const fromFile = new Set(envFile?.applied ?? []);
  const lines: string[] = [];
  const platforms = [
    config.slack ? `Slack (${config.slack.appToken ? 'Socket Mode' : `HTTP on port ${config.port}`})` : undefined,
  ];
  const extra = config as { discord?: unknown };
  if (extra.discord) platforms.push('Discord');
  const serving = platforms.filter(Boolean);
  lines.push(
    `# Manzil's effective configuration${envFile?.file ? ` (environment, then ${envFile.file})` : ' (environment; no .env file)'}`,
  );
  lines.push(
    `# property data: ${config.sandbox ? 'the embedded sandbox (sample data)' : `${config.api.baseUrl} with a key`}`,
  );
  lines.push(`# chat: ${serving.length > 0 ? serving.join(' and ') : 'the terminal chat'}; database: ${config.dbPath}`);
  lines.push(`# health and metrics: ${opsWhere(config, serving.length > 0)}`);
  const width = Math.max(...ENV_VARIABLES.map((n) => n.length));
  for (const name of ENV_VARIABLES) {
    const raw = env[name];
    const set = raw !== undefined && raw.trim() !== '';
    const value = set
      ? isSecretVariable(name)
        ? `${MASK} (set)`
        : raw!.trim()
      : defaults[name] === undefined
        ? ''
        : String(defaults[name]);
    const source = set
      ? fromFile.has(name)
        ? '.env'
        : 'environment'
      : defaults[name] === undefined
        ? 'unset'
        : 'default';
    lines.push(`${name.padEnd(width)} = ${value.padEnd(24)} # ${source}`);
  }
  // Belt and braces: a secret pasted into a variable that is not named like one (a URL with a token in it) stays
  // hidden.
  return lines.map((l) => maskSecrets(l, config.secrets));
}

/** Where /healthz and /metrics are served, as `manzil start` would serve them (src/ops/exposure.ts). */
function opsWhere(config: ReturnType<typeof loadConfig>, chatPlatform: boolean): string {
  const plan = planOps(config, { chatPlatform, ops: false });
  const guard = config.ops.token ? ', OPS_TOKEN required' : '';
  const server = plan.server ? `${plan.server.host}:${plan.server.port}${guard}` : undefined;
  const slack =
    config.slack && !config.slack.appToken
      ? plan.slackPort === 'all'
        ? `port ${config.port}${guard}`
        : `liveness /healthz only on port ${config.port}`
      : undefined;
  if (!server && !slack) return 'not served (set OPS_PORT or start with --ops)';
  if (!server) return plan.slackPort === 'all' ? slack! : `${slack}; /metrics not served (set OPS_PORT)`;
  return slack ? `${server}; ${slack}` : server;
}
