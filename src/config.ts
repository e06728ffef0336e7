// Environment -> typed configuration. Every problem is reported at once, and no secret is ever echoed.
import { z } from 'zod';

const seconds = (fallback: number) => z.coerce.number().positive().max(600).default(fallback);
const optionalCount = z.coerce.number().int().positive().optional();
const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const schema = z.object({
  UAE_API_BASE_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  UAE_API_KEY: optionalText,
  UAE_API_HOST: optionalText,
  UAE_API_CONNECT_TIMEOUT_S: seconds(5),
  UAE_API_HEADERS_TIMEOUT_S: seconds(10),
  UAE_API_BODY_TIMEOUT_S: seconds(10),
  UAE_API_RETRY_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(4),
  UAE_API_MAX_RETRY_AFTER_S: seconds(30),
  UAE_API_BUDGET_PER_MINUTE: optionalCount,
  UAE_API_BUDGET_PER_DAY: optionalCount,
  UAE_API_BUDGET_MAX_WAIT_S: z.coerce.number().min(0).max(600).default(20),
  MANZIL_DB_PATH: z.string().min(1).default('./data/manzil.db'),
  LOCATION_CACHE_TTL_HOURS: z.coerce.number().positive().default(24 * 7),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  SLACK_BOT_TOKEN: optionalText,
  SLACK_SIGNING_SECRET: optionalText,
  SLACK_APP_TOKEN: optionalText,
  SLACK_API_URL: optionalText.pipe(z.url().optional()),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
});

export interface Config {
  api: {
    /** Undefined: no key configured, so the embedded sandbox serves the data. */
    baseUrl: string | undefined;
    key: string | undefined;
    host: string | undefined;
    connectTimeoutSeconds: number;
    headersTimeoutSeconds: number;
    bodyTimeoutSeconds: number;
    retryAttempts: number;
    maxRetryAfterSeconds: number;
    budget: { perMinute?: number; perDay?: number; maxWaitSeconds: number };
  };
  /** True when Manzil runs on the embedded sandbox's sample data. */
  sandbox: boolean;
  dbPath: string;
  locationCacheTtlMs: number;
  port: number;
  slack: { botToken: string; signingSecret: string; appToken: string | undefined; apiUrl: string | undefined } | undefined;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** Values to mask wherever text leaves the process. */
  secrets: string[];
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(`Configuration problems:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    // Name the variable and the rule, never the value (it may be a secret).
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  const problems: string[] = [];
  if (e.UAE_API_KEY && !e.UAE_API_BASE_URL) problems.push('UAE_API_BASE_URL: required when UAE_API_KEY is set');
  if (Boolean(e.SLACK_BOT_TOKEN) !== Boolean(e.SLACK_SIGNING_SECRET)) {
    problems.push('SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET: set both to serve Slack, or neither');
  }
  if (e.SLACK_APP_TOKEN && !e.SLACK_BOT_TOKEN) problems.push('SLACK_APP_TOKEN: needs SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET too');
  if (problems.length > 0) throw new ConfigError(problems);

  const sandbox = !e.UAE_API_KEY;
  return {
    api: {
      baseUrl: sandbox ? undefined : e.UAE_API_BASE_URL,
      key: e.UAE_API_KEY,
      host: e.UAE_API_HOST,
      connectTimeoutSeconds: e.UAE_API_CONNECT_TIMEOUT_S,
      headersTimeoutSeconds: e.UAE_API_HEADERS_TIMEOUT_S,
      bodyTimeoutSeconds: e.UAE_API_BODY_TIMEOUT_S,
      retryAttempts: e.UAE_API_RETRY_ATTEMPTS,
      maxRetryAfterSeconds: e.UAE_API_MAX_RETRY_AFTER_S,
      budget: {
        ...(e.UAE_API_BUDGET_PER_MINUTE !== undefined ? { perMinute: e.UAE_API_BUDGET_PER_MINUTE } : {}),
        ...(e.UAE_API_BUDGET_PER_DAY !== undefined ? { perDay: e.UAE_API_BUDGET_PER_DAY } : {}),
        maxWaitSeconds: e.UAE_API_BUDGET_MAX_WAIT_S,
      },
    },
    sandbox,
    dbPath: e.MANZIL_DB_PATH,
    locationCacheTtlMs: e.LOCATION_CACHE_TTL_HOURS * 3_600_000,
    port: e.PORT,
    slack:
      e.SLACK_BOT_TOKEN && e.SLACK_SIGNING_SECRET
        ? { botToken: e.SLACK_BOT_TOKEN, signingSecret: e.SLACK_SIGNING_SECRET, appToken: e.SLACK_APP_TOKEN, apiUrl: e.SLACK_API_URL }
        : undefined,
    logLevel: e.LOG_LEVEL,
    secrets: [e.UAE_API_KEY, e.SLACK_BOT_TOKEN, e.SLACK_SIGNING_SECRET, e.SLACK_APP_TOKEN].filter((s): s is string => Boolean(s)),
  };
}
