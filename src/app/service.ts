// The property service as configured: the real one with a key, else the embedded sandbox on loopback; and a location
// resolver on it for `manzil parse --resolve`.
import { ApiClient } from '../api/client.js';
import { loadConfig, type Config } from '../config.js';
import { LocationResolver } from '../locations/index.js';
import { createLogger, type Logger } from '../log.js';
import type { UpstreamCall } from '../ops/metrics.js';
import { createSandbox, type Sandbox } from '../sandbox/index.js';
import { openStore, sqliteDatabase, type Database } from '../store/index.js';
import { TeamShares } from '../teams/index.js';

/** The property service as configured: the real one with a key, else the embedded sandbox on loopback. */
export async function openService(
  config: Config,
  logger: Logger,
  db: Database,
  onCall?: (call: UpstreamCall) => void,
  /** The embedded sandbox's market start (demo mode's, src/demo.ts); DEFAULT_START when none. */
  sandboxStart?: Date,
): Promise<{ api: ApiClient; sandbox: Sandbox | undefined; shares: TeamShares }> {
  const sandbox = config.sandbox ? createSandbox(sandboxStart ? { start: sandboxStart } : {}) : undefined;
  const baseUrl = sandbox ? await sandbox.listen(0, '127.0.0.1') : config.api.baseUrl!;
  // Worth a warning when Slack or Discord are served sample data; on a first run in the terminal the banner says it
  // already.
  const servesPlatform = Boolean(config.slack) || Boolean(config.discord);
  if (sandbox)
    logger[servesPlatform ? 'warn' : 'info']('no UAE_API_KEY: using the embedded sandbox, sample data only', {
      url: baseUrl,
    });
  // Calls per UTC day and month survive restarts, counted per service (the sandbox's port changes each run).
  const ledger = db.usage(sandbox ? 'sandbox' : baseUrl);
  // Each team's calls are counted, and refused once its share of the month is spent (src/teams).
  const teams = db.teams;
  const shares = new TeamShares(teams, {
    perMonth: config.api.budget.perMonth,
    sharePct: config.teams.sharePct,
    chatReservePct: config.teams.chatReservePct,
    personPct: config.teams.dmPersonPct,
    // What the call budget counts already: no read of the ledger per call.
    monthSpent: async (): Promise<number> => api.callsThisMonth(),
  });
  const api = new ApiClient({
    baseUrl,
    key: sandbox ? sandbox.key : config.api.key!,
    ...(config.api.host ? { host: config.api.host } : {}),
    connectTimeoutSeconds: config.api.connectTimeoutSeconds,
    headersTimeoutSeconds: config.api.headersTimeoutSeconds,
    bodyTimeoutSeconds: config.api.bodyTimeoutSeconds,
    retry: { attempts: config.api.retryAttempts, maxRetryAfterMs: config.api.maxRetryAfterSeconds * 1000 },
    budget: { ...config.api.budget, maxWaitMs: config.api.budget.maxWaitSeconds * 1000 },
    deadlineMs: config.api.deadlineSeconds * 1000,
    maxBodyBytes: config.api.maxBodyBytes,
    breaker: { failures: config.api.breaker.failures, cooldownMs: config.api.breaker.cooldownSeconds * 1000 },
    ledger,
    logger,
    share: shares.check,
    onCall: (call) => {
      // Not awaited: the call is made; a charge that cannot be written is logged, and the team spends it unseen. A
      // person in a shared pool (Discord DMs) is charged beside their team: their part of its share (src/teams).
      if (call.teams && call.outcome !== 'refused') {
        const charged = call.person ? [...call.teams, call.person] : call.teams;
        teams
          .charge(charged)
          .catch((error: unknown) => logger.error('a team’s call could not be counted', { teams: charged, error }));
      }
      onCall?.(call);
    },
  });
  // What earlier runs and other instances spent counts from the first call on.
  await api.refreshBudget();
  return { api, sandbox, shares };
}

/**
 * For `manzil parse --resolve`: a resolver on the configured service (or the embedded sandbox),
 * giving `location_id` and the resolved name, or an error with the alternatives.
 */
export async function openResolver(env: Record<string, string | undefined> = process.env) {
  const config = loadConfig(env);
  // The cache lives only as long as this command, as before; the store's repository serves it in memory.
  const db = sqliteDatabase(openStore(':memory:'));
  // Only problems are worth a line on stderr here: stdout carries the JSON answers.
  const { api, sandbox } = await openService(config, createLogger({ level: 'error', secrets: config.secrets }), db);
  const resolver = new LocationResolver(api, db.locationCache(''), config.locationCacheTtlMs);
  return {
    async resolveToFields(words: string): Promise<Record<string, unknown>> {
      const r = await resolver.resolve(words);
      if (r.kind === 'found') return { location_id: String(r.location.id), location_name: r.location.name };
      if (r.kind === 'ambiguous')
        return { error: `"${words}" matches several places: ${r.choices.map((c) => c.name).join(', ')}` };
      const close = r.suggestions.map((c) => c.name).join(', ');
      return { error: `I couldn't find a place called "${words}".${close ? ` Did you mean: ${close}?` : ''}` };
    },
    async close() {
      await api.close();
      await sandbox?.close();
      await db.close();
    },
  };
}
