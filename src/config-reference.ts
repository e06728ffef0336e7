// What each environment variable is for and which part of Manzil reads it: the side table of config.ts's schema, from
// which docs/configuration.md's table is generated (`manzil config-doc`; src/ops/config-doc.ts). The names and
// defaults come from the schema itself, so only the words live here; test/docs/configuration.test.ts checks that the
// doc, this table and the code agree.

export interface VariableNote {
  /** The part of Manzil that reads it. */
  part: string;
  /** What it does, for the doc (Markdown). */
  meaning: string;
  /** What an unset variable means, when the schema gives it no default value. */
  unset?: string;
}

/** The variables of config.ts's schema, in the doc's words. */
export const SCHEMA_NOTES: Record<string, VariableNote> = {
  UAE_API_BASE_URL: {
    part: 'property service',
    meaning: "The service's base URL; required with a key. A path prefix is kept.",
  },
  UAE_API_KEY: {
    part: 'property service',
    meaning:
      'The gateway key of the UAE Property Data Service. **Unset: Manzil uses the embedded sandbox** (sample data) and says so.',
  },
  UAE_API_HOST: { part: 'property service', meaning: 'Sent as `x-gateway-host`.', unset: "the base URL's host" },
  UAE_API_CONNECT_TIMEOUT_S: { part: 'property service', meaning: 'The connect timeout per attempt, in seconds.' },
  UAE_API_HEADERS_TIMEOUT_S: {
    part: 'property service',
    meaning: "The answer's headers' timeout per attempt, in seconds.",
  },
  UAE_API_BODY_TIMEOUT_S: { part: 'property service', meaning: "The answer's body's timeout per attempt, in seconds." },
  UAE_API_RETRY_ATTEMPTS: {
    part: 'property service',
    meaning:
      'Attempts per call, the first included (network errors, timeouts, malformed answers, 429, 5xx; never 400/401/403/404).',
  },
  UAE_API_MAX_RETRY_AFTER_S: {
    part: 'property service',
    meaning: 'The longest `Retry-After` Manzil waits out; a longer one fails at once with a "busy" message.',
  },
  UAE_API_BUDGET_PER_MINUTE: {
    part: 'property service',
    meaning: "Manzil's own call budget per minute; every attempt counts.",
    unset: 'unlimited',
  },
  UAE_API_BUDGET_PER_DAY: {
    part: 'property service',
    meaning: "Manzil's own call budget per day (UTC); every attempt counts, and the count survives restarts.",
    unset: 'unlimited',
  },
  UAE_API_BUDGET_PER_MONTH: {
    part: 'property service',
    meaning: "Manzil's own call budget per month (UTC); every attempt counts, and the count survives restarts.",
    unset: 'unlimited',
  },
  TEAM_SHARE_PCT: {
    part: 'fair share',
    meaning: "Each team's share of `UAE_API_BUDGET_PER_MONTH`, in percent (`manzil teams set` gives one team its own).",
  },
  CHAT_RESERVE_PCT: {
    part: 'fair share',
    meaning: "The end of the month's calls kept for chat lookups: the poller and digests stop there.",
  },
  PERSON_PAGES_PER_HOUR: {
    part: 'fair share',
    meaning:
      'Pages of results one person may ask for in an hour. On the sample data (no `UAE_API_KEY`) the three per-person limits are off unless one is set.',
  },
  PERSON_RUNS_PER_HOUR: {
    part: 'fair share',
    meaning: 'Runs of `/alerts test`, `/digest now` and `/compare` together one person may ask for in an hour.',
  },
  PERSON_SEARCHES_PER_HOUR: {
    part: 'fair share',
    meaning:
      "Searches one person may make in an hour (any command that looks something up, and a listing's Details or What is it worth?).",
  },
  PERSON_DM_SHARE_PCT: {
    part: 'fair share',
    meaning:
      "In Discord's direct messages (one team anyone may join), the part of its monthly share one person may spend.",
  },
  PERSON_SUGGESTIONS_PER_HOUR: {
    part: 'fair share',
    meaning:
      'Area-picker suggestions one person may make in an hour that need a call (cached ones are free); past that the picker shows only what is cached.',
  },
  UAE_API_BUDGET_MAX_WAIT_S: {
    part: 'property service',
    meaning: 'When the budget is full, wait this long at most for the next window, else refuse politely.',
  },
  UAE_API_DEADLINE_S: {
    part: 'property service',
    meaning: "One deadline per chat request's call, across its retries and waits.",
  },
  UAE_API_MAX_BODY_MB: { part: 'property service', meaning: 'Answers larger than this are not read.' },
  UAE_API_BREAKER_FAILURES: {
    part: 'property service',
    meaning:
      'The circuit breaker: this many consecutive outages stop calls for `UAE_API_BREAKER_COOLDOWN_S`, of one operation and area, or of the whole service when they span several (docs/operations.md).',
  },
  UAE_API_BREAKER_COOLDOWN_S: {
    part: 'property service',
    meaning: 'How long the circuit breaker stops calls, in seconds.',
  },
  MANZIL_SANDBOX: {
    part: 'start',
    meaning:
      "`1`: serve Slack or Discord on the sandbox's sample data on purpose (refused otherwise without `UAE_API_KEY`).",
  },
  MANZIL_DEMO_TICK_S: {
    part: 'demo mode',
    meaning:
      'Demo mode (sandbox + terminal chat only): the sample market moves every this many seconds; `0` turns it off.',
  },
  SHUTDOWN_TIMEOUT_S: {
    part: 'start and stop',
    meaning:
      'How long a stop waits for requests in flight (until their answers are posted) and alert posts; a second signal exits at once.',
    unset: '`UAE_API_DEADLINE_S` + 5, at least 30',
  },
  ALERTS_CRON: {
    part: 'alerts',
    meaning: 'How often saved searches are checked: five cron fields, or six with seconds first.',
  },
  MANZIL_TIMEZONE: { part: 'alerts, digests', meaning: 'The time zone of `ALERTS_CRON` and of digest schedules.' },
  ALERTS_DEADLINE_S: { part: 'alerts', meaning: "The poller's deadline per upstream call." },
  ALERTS_MAX_PAGES: {
    part: 'alerts',
    meaning:
      'Pages fetched per saved search per run, at most (newest first; the next only while all are new). Each page is one call of the budget.',
  },
  ALERTS_PRICE_DROP_PCT: {
    part: 'alerts',
    meaning: 'A drop of at least this percentage below the price last posted (or first seen) alerts again.',
  },
  MANZIL_HISTORY_DAYS: {
    part: 'alerts',
    meaning:
      "Days a listing's life story (first seen, its prices, gone, back: see [A listing's life story](alerts.md#a-listings-life-story)) is kept after any alert last saw it; older ones are deleted by the alerts' runs.",
  },
  DELIVERY_THREAD: {
    part: 'start',
    meaning:
      '`manzil start` polls and posts alerts and digests in a thread of its own, so their work never delays a chat answer (see [Delivery](alerts.md#delivery-nothing-lost-nothing-twice)). `off`: everything in one thread. The terminal chat and the embedded sandbox always run in one.',
  },
  DELIVERY_GIVE_UP_H: {
    part: 'delivery',
    meaning:
      'Hours an alert (or digest) that cannot be posted is retried, at most 5 minutes apart, before it is parked (`manzil outbox retry` sends it again). Replaces `ALERTS_MAX_ATTEMPTS`, which is ignored.',
  },
  MARKET_CACHE_H: {
    part: 'market data',
    meaning:
      'Hours market data (transactions, trends, projects) is reused, by every channel and listing card, and by every process and instance on the database; newest listings at most 15 minutes.',
  },
  SEARCH_FRESH_S: {
    part: 'chat',
    meaning:
      'Seconds a search typed again may reuse an earlier answer (`0`: always ask); pages and Details reuse one for 5 minutes, never one older than the last poll of an alert of the same search. See [Fresh results](answers.md#fresh-results).',
  },
  DIGEST_MAX_PAGES: {
    part: 'market data',
    meaning:
      'The most pages of one period\'s transactions a digest or a transactions reply reads; past it a count says "at least".',
  },
  DIGESTS_MAX_PER_CHANNEL: { part: 'digests', meaning: 'Digests per channel.' },
  DIGESTS_CRON: {
    part: 'digests',
    meaning: "How often due digests are looked for (each is posted at its own schedule's time).",
  },
  ALERTS_DELIVERY_LEASE_S: {
    part: 'delivery',
    meaning:
      'How long messages taken by an instance are reserved for it while it runs. After a crash they are taken over sooner: as soon as its heartbeat lapses (15 s), or at once by a restart on the same host (the one in flight looked for on the platform first).',
  },
  ALERTS_MAX_PER_CHANNEL: { part: 'alerts', meaning: 'Saved searches per channel.' },
  ALERTS_MAX_PER_USER: { part: 'alerts', meaning: 'Saved searches per person.' },
  MANZIL_DB_PATH: {
    part: 'database',
    meaning: 'The SQLite file (WAL mode). Migrations in `migrations/sqlite/` are applied at start.',
  },
  DATABASE_URL: {
    part: 'database',
    meaning:
      '`postgres://user:password@host:5432/manzil`: Postgres instead of the SQLite file, so several instances share one database (see [Postgres](operations.md#postgres-several-instances-on-one-database)). Migrations in `migrations/postgres/` are applied at start. The password is masked like any secret.',
    unset: 'the SQLite file',
  },
  DATABASE_POOL_SIZE: {
    part: 'database',
    meaning: 'The most connections one instance (and its delivery thread, each) opens to Postgres.',
  },
  JOBS_EXPIRE_S: {
    part: 'jobs',
    meaning:
      'On Postgres: a job taken by an instance that died or hung (a query of a run, a digest) is given to another instance after this long. The next run retries its searches sooner anyway.',
  },
  LOCATION_CACHE_TTL_HOURS: { part: 'locations', meaning: 'How long a location lookup is reused.' },
  PORT: {
    part: 'Slack, health',
    meaning: "The HTTP port: Slack's `POST /slack/events`, and a liveness-only `GET /healthz`.",
  },
  SLACK_BOT_TOKEN: { part: 'Slack', meaning: 'Set it with `SLACK_SIGNING_SECRET` to serve Slack (one workspace).' },
  SLACK_SIGNING_SECRET: { part: 'Slack', meaning: "Verifies Slack's requests; needed to serve Slack." },
  SLACK_APP_TOKEN: { part: 'Slack', meaning: 'An app-level token (`xapp-…`): Socket Mode instead of HTTP.' },
  SLACK_CLIENT_ID: {
    part: 'Add to Slack',
    meaning:
      "[Add to Slack](slack.md#add-to-slack-many-workspaces): any workspace installs the app; with `SLACK_CLIENT_SECRET` and `SLACK_STATE_SECRET`, instead of `SLACK_BOT_TOKEN` (with `SLACK_SIGNING_SECRET`, over HTTP). The app's client id.",
  },
  SLACK_CLIENT_SECRET: { part: 'Add to Slack', meaning: "The app's client secret, for Add to Slack." },
  SLACK_STATE_SECRET: { part: 'Add to Slack', meaning: "Signs Add to Slack's OAuth state, so it cannot be forged." },
  MANZIL_ENCRYPTION_KEY: {
    part: 'Add to Slack',
    meaning:
      "Needed with Add to Slack: seals each workspace's token in the database (AES-256-GCM); 64 hex digits (`openssl rand -hex 32`) or 44 characters of base64.",
  },
  MANZIL_ENCRYPTION_KEY_PREVIOUS: {
    part: 'Add to Slack',
    meaning: 'Old keys (comma-separated) that still open what they sealed, while a rotation is under way.',
  },
  SLACK_API_URL: { part: 'Slack', meaning: 'The Web API base URL, for proxies and tests.', unset: "Slack's" },
  SLACK_HOME_REFRESH_S: {
    part: 'Slack',
    meaning:
      'How often, in seconds, a Home tab opened in the last day is drawn again when what it shows changed in the background (a post, a pause, an error); 1 to 3600.',
  },
  DISCORD_TOKEN: { part: 'Discord', meaning: 'The bot token: set it to serve Discord.' },
  DISCORD_APPLICATION_ID: { part: 'Discord', meaning: 'The application id, for `manzil register-discord-commands`.' },
  DISCORD_GUILD_ID: {
    part: 'Discord',
    meaning: 'Register the commands in this server only (instant) instead of globally.',
  },
  DISCORD_API_URL: { part: 'Discord', meaning: "Discord's REST base URL, for proxies and tests.", unset: "Discord's" },
  LOG_LEVEL: { part: 'logs', meaning: '`debug`, `info`, `warn` or `error`.' },
  LOG_FORMAT: {
    part: 'logs',
    meaning: '`auto`: readable lines when stderr is a terminal, JSON lines otherwise; `json`; `pretty`.',
  },
  MANZIL_LOG_FILE: {
    part: 'terminal chat',
    meaning: "The terminal chat's log file; `-` keeps the log on stderr.",
    unset: '`manzil.log` beside the database',
  },
  OPS_PORT: {
    part: 'health, metrics',
    meaning:
      'The port of the detailed `/healthz` and `/metrics` (also with the terminal chat alone). Unset: `PORT` when no chat platform serves HTTP there, else not served. See [What is exposed where](security.md#what-is-exposed-where).',
  },
  OPS_HOST: {
    part: 'health, metrics',
    meaning: 'The address they listen on; `0.0.0.0` lets Prometheus on another host in (set `OPS_TOKEN` with it).',
  },
  OPS_TOKEN: {
    part: 'health, metrics',
    meaning: 'When set (16+ characters), `/metrics` and the detailed `/healthz` need `Authorization: Bearer <token>`.',
  },
  OPS_ON_SLACK_PORT: {
    part: 'health, metrics',
    meaning: "`on`: serve the detailed `/healthz` and `/metrics` on Slack's public port too.",
  },
  METRICS_MAX_TEAMS: {
    part: 'metrics',
    meaning: 'Teams with a `team` label of their own in `/metrics`; the rest count as `team="other"`.',
  },
};

/** Variables read outside the schema: before it (the `.env` file), or by one part only. `unset` is their default. */
export const OTHER_NOTES: Record<string, VariableNote & { unset: string; secret?: false }> = {
  MANZIL_ENV_FILE: {
    part: 'configuration',
    meaning: 'The `.env` file to read (it must exist when named).',
    unset: '`./.env`',
  },
  NO_COLOR: {
    part: 'terminal chat, logs',
    meaning: 'Set (to anything): no colours in the terminal chat and the readable log lines.',
    unset: 'colours on a terminal',
  },
  TERM: { part: 'terminal chat', meaning: '`dumb`: no colours in the terminal chat.', unset: "the terminal's" },
  MANZIL_FROM_SOURCE: {
    part: '`bin/manzil.js`',
    meaning:
      '`1`: run the TypeScript source through tsx even when `dist/` exists (`npm run dev`, `npm run bench` and the tests set it).',
    unset: '`dist/` when it exists',
  },
};
