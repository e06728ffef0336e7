// Environment -> typed configuration. Every problem is reported at once, and no secret is ever echoed.
import path from 'node:path';
import cron from 'node-cron';
import { z } from 'zod';
import { oauthProblems, splitList } from './config-oauth.js';
import { OPS_MEANING, OPS_VARIABLES, opsConfig, type OpsConfig } from './config-ops.js';
import { TEAM_VARIABLES, teamsConfig, type TeamsConfig } from './config-teams.js';
import { keySpellings, urlPasswords } from './secret-forms.js';

const seconds = (fallback: number) => z.coerce.number().positive().max(600).default(fallback);
const optionalCount = z.coerce.number().int().positive().optional();
const flag = z
  .string()
  .optional()
  .transform((v) => ['1', 'true', 'yes', 'on'].includes((v ?? '').trim().toLowerCase()));
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
  UAE_API_BUDGET_PER_MONTH: optionalCount,
  ...TEAM_VARIABLES,
  UAE_API_BUDGET_MAX_WAIT_S: z.coerce.number().min(0).max(600).default(20),
  UAE_API_DEADLINE_S: seconds(25),
  UAE_API_MAX_BODY_MB: z.coerce.number().positive().max(100).default(8),
  UAE_API_BREAKER_FAILURES: z.coerce.number().int().min(1).max(100).default(5),
  UAE_API_BREAKER_COOLDOWN_S: seconds(30),
  MANZIL_SANDBOX: flag,
  MANZIL_DEMO_TICK_S: z.coerce.number().min(0).max(3600).default(5),
  // Unset: the chat deadline plus time to post the answer (at least 30 s), so a stop never cuts a request short.
  SHUTDOWN_TIMEOUT_S: z.coerce.number().positive().max(600).optional(),
  ALERTS_CRON: z.string().trim().min(1).default('*/15 * * * *'),
  MANZIL_TIMEZONE: z.string().trim().min(1).default('Asia/Dubai'),
  ALERTS_DEADLINE_S: seconds(120),
  ALERTS_MAX_PAGES: z.coerce.number().int().min(1).max(10).default(3),
  ALERTS_PRICE_DROP_PCT: z.coerce.number().min(0).max(90).default(1),
  MANZIL_HISTORY_DAYS: z.coerce.number().int().min(1).max(36_500).default(400),
  DELIVERY_THREAD: z.enum(['on', 'off'], { error: 'DELIVERY_THREAD must be on or off' }).optional().default('on'),
  DELIVERY_GIVE_UP_H: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .default(48),
  MARKET_CACHE_H: z.coerce.number().positive().max(168).default(6),
  SEARCH_FRESH_S: z.coerce.number().min(0).max(300).default(60),
  DIGEST_MAX_PAGES: z.coerce.number().int().min(1).max(50).default(8),
  DIGESTS_MAX_PER_CHANNEL: z.coerce.number().int().min(1).max(100).default(5),
  DIGESTS_CRON: z.string().trim().min(1).default('* * * * *'),
  ALERTS_DELIVERY_LEASE_S: z.coerce.number().positive().max(3600).default(60),
  ALERTS_MAX_PER_CHANNEL: z.coerce.number().int().min(1).max(1000).default(25),
  ALERTS_MAX_PER_USER: z.coerce.number().int().min(1).max(1000).default(10),
  MANZIL_DB_PATH: z.string().min(1).default('./data/manzil.db'),
  DATABASE_URL: z
    .string()
    .trim()
    .regex(/^postgres(ql)?:\/\/\S+$/, 'must be a Postgres URL: postgres://user:password@host:5432/manzil')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  JOBS_EXPIRE_S: z.coerce.number().int().min(2).max(86_400).default(300),
  LOCATION_CACHE_TTL_HOURS: z.coerce
    .number()
    .positive()
    .default(24 * 7),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  SLACK_BOT_TOKEN: optionalText,
  SLACK_SIGNING_SECRET: optionalText,
  SLACK_APP_TOKEN: optionalText,
  SLACK_CLIENT_ID: optionalText,
  SLACK_CLIENT_SECRET: optionalText,
  SLACK_STATE_SECRET: optionalText,
  MANZIL_ENCRYPTION_KEY: optionalText,
  MANZIL_ENCRYPTION_KEY_PREVIOUS: optionalText,
  SLACK_API_URL: optionalText.pipe(z.url().optional()),
  SLACK_HOME_REFRESH_S: z.coerce.number().int().min(1).max(3600).default(300),
  DISCORD_TOKEN: optionalText,
  DISCORD_APPLICATION_ID: optionalText.pipe(
    z
      .string()
      .regex(/^\d{1,25}$/, 'a numeric id')
      .optional(),
  ),
  DISCORD_GUILD_ID: optionalText.pipe(
    z
      .string()
      .regex(/^\d{1,25}$/, 'a numeric id')
      .optional(),
  ),
  DISCORD_API_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  MANZIL_LOG_FILE: optionalText,
  ...OPS_VARIABLES,
});

/** Every variable Manzil reads (`.env.example` and `manzil config` list them all). */
export const ENV_VARIABLES: readonly string[] = Object.keys(schema.shape);

/** Each variable's value when it is not set (undefined: none), as `manzil config` shows it. */
export function envDefaults(): Record<string, unknown> {
  return schema.parse({}) as Record<string, unknown>;
}

/** Variables whose values are secrets: masked by `manzil config`, never echoed in a message. */
export const isSecretVariable = (name: string) => /(TOKEN|SECRET|KEY|PASSWORD)(_PREVIOUS)?$/.test(name);

/**
 * What each variable is for, in a few words: said after a problem with it ("PORT is not a number: the HTTP port ...").
 */
const MEANING: Record<string, string> = {
  UAE_API_BASE_URL: "the property service's address",
  UAE_API_KEY: "the property service's gateway key",
  PORT: 'the HTTP port for Slack, /healthz and /metrics',
  ...OPS_MEANING,
  MANZIL_DB_PATH: 'the SQLite file',
  DATABASE_URL: 'the Postgres database (instead of the SQLite file)',
  DATABASE_POOL_SIZE: 'the most connections to Postgres at once',
  JOBS_EXPIRE_S: 'on Postgres: how long a job part taken by an instance may run before another instance takes it',
  ALERTS_CRON: 'how often saved searches are checked',
  MANZIL_HISTORY_DAYS: "how many days a listing's life story is kept after any alert last saw it",
  MARKET_CACHE_H: 'how many hours market data (transactions, trends, projects) is reused',
  SEARCH_FRESH_S: 'how many seconds a search typed again may reuse an earlier answer',
  DIGEST_MAX_PAGES: 'the most pages of one period of transactions a digest or a transactions reply reads',
  DIGESTS_CRON: 'how often due digests are looked for',
  DELIVERY_THREAD: 'whether alerts and digests are polled and posted in a thread of their own',
  DELIVERY_GIVE_UP_H: 'how many hours an alert or digest that cannot be posted is retried before it is parked',
  MANZIL_DEMO_TICK_S: "how often the demo's sample market moves, in seconds (0: never)",
  SHUTDOWN_TIMEOUT_S: 'how long a stop waits for requests in flight',
  LOG_LEVEL: 'which log lines are written',
  LOG_FORMAT: 'how log lines are written',
  DISCORD_APPLICATION_ID: "the Discord application's id (General Information → Application ID)",
  DISCORD_GUILD_ID: 'the Discord server to register the commands in (right-click the server → Copy Server ID)',
  DISCORD_API_URL: "Discord's REST base, such as http://127.0.0.1:8080/api",
};

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
    budget: { perMinute?: number; perDay?: number; perMonth?: number; maxWaitSeconds: number };
    /** One deadline for a chat request's call, across attempts and waits. */
    deadlineSeconds: number;
    maxBodyBytes: number;
    breaker: { failures: number; cooldownSeconds: number };
  };
  /** MANZIL_SANDBOX=1: serve chat platforms on the sandbox's sample data on purpose. */
  sandboxRequested: boolean;
  /**
   * Demo mode (the sandbox with the terminal chat only): the sample market moves every `tickSeconds` (0: demo off),
   * and alerts are checked on `alertsCron` (ALERTS_CRON when set, else every 10 seconds).
   */
  demo: { tickSeconds: number; alertsCron: string };
  shutdownTimeoutMs: number;
  alerts: {
    cron: string;
    timezone: string;
    /** The poller's deadline per upstream call: longer than chat's, nobody is waiting. */
    deadlineSeconds: number;
    maxPages: number;
    priceDropPct: number;
    /** A listing's story is kept this many days after any alert last saw it (MANZIL_HISTORY_DAYS). */
    historyDays: number;
    /** An alert or digest that cannot be posted is retried this long after its first attempt, then parked. */
    giveUpMs: number;
    /** How long a post in flight is reserved for its instance; after a crash it is checked and resent after this. */
    deliveryLeaseMs: number;
    /**
     * `manzil start` runs the drainer, the poller and the digests in a thread of their own (DELIVERY_THREAD, default
     * on).
     */
    thread: boolean;
    maxPerChannel: number;
    maxPerUser: number;
  };
  /** Market data shared by digests and listing cards; digests themselves. */
  market: { cacheTtlMs: number; maxPages: number };
  /** SEARCH_FRESH_S: a search typed anew reuses an answer at most this old (paging reuses it for 5 minutes). */
  searchFreshMs: number;
  /** Each team's share of UAE_API_BUDGET_PER_MONTH, and the end of the month kept for chat lookups (percent). */
  teams: TeamsConfig;
  digests: { cron: string; maxPerChannel: number; areasPerDigest: number };
  /** True when Manzil runs on the embedded sandbox's sample data. */
  sandbox: boolean;
  dbPath: string;
  /** Postgres instead of the SQLite file at `dbPath`, when DATABASE_URL is set. */
  /** `jobExpireSeconds`: a pg-boss job part taken by an instance that died or hung is taken again after this long. */
  postgres: { url: string; poolSize: number; jobExpireSeconds: number } | undefined;
  locationCacheTtlMs: number;
  port: number;
  /**
   * One workspace (`botToken`), or any workspace that adds the app (`oauth`: "Add to Slack", the installations kept in
   * the database, sealed with `encryption`).
   */
  slack:
    | {
        botToken: string | undefined;
        signingSecret: string;
        appToken: string | undefined;
        apiUrl: string | undefined;
        oauth: { clientId: string; clientSecret: string; stateSecret: string } | undefined;
        /** SLACK_HOME_REFRESH_S: how often open Home tabs are drawn again when what they show changed. */
        homeRefreshMs: number;
      }
    | undefined;
  /**
   * MANZIL_ENCRYPTION_KEY (seals), and the previous keys that still open what they sealed (64 hex digits or base64).
   */
  encryption: { key: string; previous: string[] } | undefined;
  /**
   * Set when DISCORD_TOKEN is: serve Discord. `apiUrl` is the REST base (`…/api`); the gateway comes from its
   * /gateway/bot.
   */
  discord:
    | { token: string; applicationId: string | undefined; guildId: string | undefined; apiUrl: string | undefined }
    | undefined;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** 'auto': readable when stderr is a terminal, JSON lines otherwise. */
  logFormat: 'auto' | 'json' | 'pretty';
  /**
   * Where the terminal chat writes its log (the database's folder by default: ./data/manzil.log); '-': stderr, no file.
   */
  logFile: string;
  /** Where /healthz and /metrics are served, and who may read them (config-ops.ts). */
  ops: OpsConfig;
  /** Values to mask wherever text leaves the process. */
  secrets: string[];
}

/** Alerts in demo mode, unless ALERTS_CRON says otherwise: every 10 seconds, so a saved alert fires within a minute. */
export const DEMO_ALERTS_CRON = '*/10 * * * * *';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: string[]) {
    const count = problems.length === 1 ? 'a problem' : `${problems.length} problems`;
    super(
      `Manzil cannot start: ${count} in its configuration.\n${problems.map((p) => `  - ${p}`).join('\n')}\nEvery variable is listed in .env.example and in docs/configuration.md.`,
    );
  }
}

/** One zod issue in plain words, naming the variable and never its value (it may be a secret). */
function plainProblem(issue: z.core.$ZodIssue): string {
  const name = issue.path.map(String).join('.');
  const meaning = MEANING[name] ? `: ${MEANING[name]}` : '';
  const bound = (n: unknown) => (typeof n === 'bigint' || typeof n === 'number' ? String(n) : '?');
  let what: string;
  switch (issue.code) {
    case 'invalid_type':
      what =
        issue.expected === 'int'
          ? 'must be a whole number'
          : issue.expected === 'number'
            ? 'is not a number'
            : `is not valid (${issue.message})`;
      break;
    case 'too_small':
      what = issue.inclusive ? `must be at least ${bound(issue.minimum)}` : `must be more than ${bound(issue.minimum)}`;
      break;
    case 'too_big':
      what = issue.inclusive ? `must be at most ${bound(issue.maximum)}` : `must be less than ${bound(issue.maximum)}`;
      break;
    case 'invalid_format':
      what =
        issue.format === 'url'
          ? 'is not a web address (https://…)'
          : /^invalid/i.test(issue.message)
            ? 'is not in the expected form'
            : `is not ${issue.message}`;
      break;
    case 'invalid_value':
      what = `must be one of ${issue.values.map(String).join(', ')}`;
      break;
    default:
      what = `is not valid (${issue.message})`;
  }
  return `${name} ${what}${meaning}`;
}

export function loadConfig(given: Record<string, string | undefined> = process.env): Config {
  // An empty value means unset (a copied .env.example is full of them), never 0 or "".
  const env = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined && v.trim() !== ''));
  const parsed = schema.safeParse(env);
  // A value the schema refuses is reported (by name and rule, never its value: it may be a secret), and the rest is
  // still checked as if it were unset, so that every problem is reported at once.
  const refused = parsed.success ? [] : parsed.error.issues;
  const refusedNames = new Set(refused.map((i) => String(i.path[0])));
  const rest = parsed.success
    ? parsed
    : schema.safeParse(Object.fromEntries(Object.entries(env).filter(([k]) => !refusedNames.has(k))));
  if (!rest.success) throw new ConfigError(refused.map(plainProblem));
  const e = rest.data;
  const slackBoth = { apiUrl: e.SLACK_API_URL, homeRefreshMs: e.SLACK_HOME_REFRESH_S * 1_000 };
  const problems: string[] = [];
  if (e.UAE_API_KEY && !e.UAE_API_BASE_URL)
    problems.push("UAE_API_BASE_URL is missing: UAE_API_KEY is set, and Manzil needs the service's address to use it");
  if (e.SLACK_BOT_TOKEN && !e.SLACK_SIGNING_SECRET)
    problems.push('SLACK_SIGNING_SECRET is missing: Slack needs it to verify requests (SLACK_BOT_TOKEN is set)');
  const oauth = Boolean(e.SLACK_CLIENT_ID || e.SLACK_CLIENT_SECRET || e.SLACK_STATE_SECRET);
  if (e.SLACK_SIGNING_SECRET && !e.SLACK_BOT_TOKEN && !oauth) {
    problems.push(
      'SLACK_BOT_TOKEN is missing: Slack needs it to answer and post (SLACK_SIGNING_SECRET is set); or set SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET for Add to Slack',
    );
  }
  if (oauth) problems.push(...oauthProblems(e));
  if (e.SLACK_APP_TOKEN && !e.SLACK_BOT_TOKEN && !e.SLACK_SIGNING_SECRET) {
    problems.push('SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET are missing: Socket Mode (SLACK_APP_TOKEN) needs them too');
  }
  if (!cron.validate(e.DIGESTS_CRON))
    problems.push(
      `DIGESTS_CRON "${e.DIGESTS_CRON}" is not a cron expression: five fields such as * * * * *, or six with seconds first`,
    );
  if (!cron.validate(e.ALERTS_CRON))
    problems.push(
      `ALERTS_CRON "${e.ALERTS_CRON}" is not a cron expression: five fields such as */15 * * * *, or six with seconds first`,
    );
  if (!isTimeZone(e.MANZIL_TIMEZONE))
    problems.push(`MANZIL_TIMEZONE "${e.MANZIL_TIMEZONE}" is not a time zone: use a name such as Asia/Dubai`);
  if (!e.DISCORD_TOKEN && (e.DISCORD_APPLICATION_ID || e.DISCORD_GUILD_ID || e.DISCORD_API_URL)) {
    problems.push(
      'DISCORD_TOKEN is missing: DISCORD_APPLICATION_ID, DISCORD_GUILD_ID and DISCORD_API_URL are used only with it',
    );
  }
  const sandbox = !e.UAE_API_KEY;
  if (sandbox && e.DISCORD_TOKEN && !e.MANZIL_SANDBOX) {
    problems.push(
      "UAE_API_KEY is missing: without it Discord would be served the sandbox's sample data. Set UAE_API_KEY and UAE_API_BASE_URL for live data, or MANZIL_SANDBOX=1 to serve the sandbox on purpose",
    );
  }
  if (sandbox && e.SLACK_BOT_TOKEN && !e.MANZIL_SANDBOX) {
    problems.push(
      "UAE_API_KEY is missing: without it Slack would be served the sandbox's sample data. Set UAE_API_KEY and UAE_API_BASE_URL for live data, or MANZIL_SANDBOX=1 to serve the sandbox on purpose",
    );
  }
  const all = [...refused.map(plainProblem), ...problems.filter((p) => !refusedNames.has(p.split(' ')[0]!))];
  if (all.length > 0) throw new ConfigError(all);

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
        ...(e.UAE_API_BUDGET_PER_MONTH !== undefined ? { perMonth: e.UAE_API_BUDGET_PER_MONTH } : {}),
        maxWaitSeconds: e.UAE_API_BUDGET_MAX_WAIT_S,
      },
      deadlineSeconds: e.UAE_API_DEADLINE_S,
      maxBodyBytes: Math.round(e.UAE_API_MAX_BODY_MB * 1024 * 1024),
      breaker: { failures: e.UAE_API_BREAKER_FAILURES, cooldownSeconds: e.UAE_API_BREAKER_COOLDOWN_S },
    },
    sandbox,
    sandboxRequested: e.MANZIL_SANDBOX,
    demo: { tickSeconds: e.MANZIL_DEMO_TICK_S, alertsCron: env.ALERTS_CRON?.trim() ? e.ALERTS_CRON : DEMO_ALERTS_CRON },
    shutdownTimeoutMs: (e.SHUTDOWN_TIMEOUT_S ?? Math.max(30, e.UAE_API_DEADLINE_S + 5)) * 1000,
    alerts: {
      cron: e.ALERTS_CRON,
      timezone: e.MANZIL_TIMEZONE,
      deadlineSeconds: e.ALERTS_DEADLINE_S,
      maxPages: e.ALERTS_MAX_PAGES,
      priceDropPct: e.ALERTS_PRICE_DROP_PCT,
      historyDays: e.MANZIL_HISTORY_DAYS,
      giveUpMs: e.DELIVERY_GIVE_UP_H * 3_600_000,
      deliveryLeaseMs: e.ALERTS_DELIVERY_LEASE_S * 1000,
      thread: e.DELIVERY_THREAD === 'on',
      maxPerChannel: e.ALERTS_MAX_PER_CHANNEL,
      maxPerUser: e.ALERTS_MAX_PER_USER,
    },
    market: { cacheTtlMs: e.MARKET_CACHE_H * 3_600_000, maxPages: e.DIGEST_MAX_PAGES },
    searchFreshMs: e.SEARCH_FRESH_S * 1000,
    teams: teamsConfig(e, env, sandbox),
    digests: { cron: e.DIGESTS_CRON, maxPerChannel: e.DIGESTS_MAX_PER_CHANNEL, areasPerDigest: 5 },
    dbPath: e.MANZIL_DB_PATH,
    postgres: e.DATABASE_URL
      ? { url: e.DATABASE_URL, poolSize: e.DATABASE_POOL_SIZE, jobExpireSeconds: e.JOBS_EXPIRE_S }
      : undefined,
    locationCacheTtlMs: e.LOCATION_CACHE_TTL_HOURS * 3_600_000,
    port: e.PORT,
    slack:
      e.SLACK_BOT_TOKEN && e.SLACK_SIGNING_SECRET
        ? {
            botToken: e.SLACK_BOT_TOKEN,
            signingSecret: e.SLACK_SIGNING_SECRET,
            appToken: e.SLACK_APP_TOKEN,
            ...slackBoth,
            oauth: undefined,
          }
        : e.SLACK_SIGNING_SECRET && e.SLACK_CLIENT_ID && e.SLACK_CLIENT_SECRET && e.SLACK_STATE_SECRET
          ? {
              botToken: undefined,
              signingSecret: e.SLACK_SIGNING_SECRET,
              appToken: undefined,
              ...slackBoth,
              oauth: {
                clientId: e.SLACK_CLIENT_ID,
                clientSecret: e.SLACK_CLIENT_SECRET,
                stateSecret: e.SLACK_STATE_SECRET,
              },
            }
          : undefined,
    discord: e.DISCORD_TOKEN
      ? {
          token: e.DISCORD_TOKEN,
          applicationId: e.DISCORD_APPLICATION_ID,
          guildId: e.DISCORD_GUILD_ID,
          apiUrl: e.DISCORD_API_URL,
        }
      : undefined,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    logFile:
      e.MANZIL_LOG_FILE ??
      path.join(e.MANZIL_DB_PATH === ':memory:' ? './data' : path.dirname(e.MANZIL_DB_PATH), 'manzil.log'),
    ops: opsConfig(e),
    encryption: e.MANZIL_ENCRYPTION_KEY
      ? { key: e.MANZIL_ENCRYPTION_KEY, previous: splitList(e.MANZIL_ENCRYPTION_KEY_PREVIOUS) }
      : undefined,
    secrets: [
      e.UAE_API_KEY,
      e.SLACK_BOT_TOKEN,
      e.SLACK_SIGNING_SECRET,
      e.SLACK_APP_TOKEN,
      e.SLACK_CLIENT_SECRET,
      e.SLACK_STATE_SECRET,
      e.MANZIL_ENCRYPTION_KEY,
      ...splitList(e.MANZIL_ENCRYPTION_KEY_PREVIOUS),
      e.DISCORD_TOKEN,
      e.OPS_TOKEN,
      // Every form each value can take (percent-encoded, JSON-escaped...) is masked by log.ts; these are other values.
      ...urlPasswords(e.DATABASE_URL),
      ...[e.MANZIL_ENCRYPTION_KEY, ...splitList(e.MANZIL_ENCRYPTION_KEY_PREVIOUS)].flatMap(keySpellings),
    ].filter((s): s is string => Boolean(s)),
  };
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
