import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

describe('configuration', () => {
  it('runs on the embedded sandbox with no keys at all', () => {
    const config = loadConfig({});
    expect(config.sandbox).toBe(true);
    expect(config.dbPath).toBe('./data/manzil.db');
    expect(config.port).toBe(3000);
    expect(config.slack).toBeUndefined();
  });

  it('waits on a stop at least as long as a chat request may take, plus time to post its answer', () => {
    const { shutdownTimeoutMs, api } = loadConfig({});
    expect(shutdownTimeoutMs).toBeGreaterThan(api.deadlineSeconds * 1000);
    expect(loadConfig({ UAE_API_DEADLINE_S: '60' }).shutdownTimeoutMs).toBeGreaterThan(60_000);
    expect(loadConfig({ SHUTDOWN_TIMEOUT_S: '7' }).shutdownTimeoutMs).toBe(7_000); // as the operator says
  });

  it('uses the real service when a key and a base URL are given', () => {
    const config = loadConfig({
      UAE_API_KEY: 'k-123456',
      UAE_API_BASE_URL: 'https://api.example.test/v1',
      UAE_API_BUDGET_PER_DAY: '25',
    });
    expect(config.sandbox).toBe(false);
    expect(config.api.baseUrl).toBe('https://api.example.test/v1');
    expect(config.api.budget.perDay).toBe(25);
    expect(config.secrets).toContain('k-123456');
  });

  it('reports every problem at once, naming variables but never their values', () => {
    let error: unknown;
    try {
      loadConfig({ UAE_API_KEY: 'secret-value-1', SLACK_BOT_TOKEN: 'xoxb-secret-2' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect((error as ConfigError).problems).toHaveLength(2);
    expect(message).toMatch(/UAE_API_BASE_URL/);
    expect(message).toMatch(/SLACK_SIGNING_SECRET/);
    expect(message).not.toContain('secret-value-1');
    expect(message).not.toContain('xoxb-secret-2');
  });

  it('refuses malformed numbers and URLs with the variable named', () => {
    expect(() => loadConfig({ PORT: 'eighty', UAE_API_BASE_URL: 'not a url' })).toThrow(
      /PORT[\s\S]*UAE_API_BASE_URL|UAE_API_BASE_URL[\s\S]*PORT/,
    );
  });
});

describe('alerts configuration', () => {
  it('defaults to every 15 minutes in Dubai time, and takes six-field expressions with seconds', () => {
    expect(loadConfig({}).alerts).toMatchObject({
      cron: '*/15 * * * *',
      timezone: 'Asia/Dubai',
      maxPages: 3,
      priceDropPct: 1,
      maxPerChannel: 25,
      maxPerUser: 10,
    });
    expect(loadConfig({ ALERTS_CRON: '*/5 * * * * *' }).alerts.cron).toBe('*/5 * * * * *');
  });

  it('refuses a bad cron expression or time zone, naming the variable', () => {
    expect(() => loadConfig({ ALERTS_CRON: 'every quarter hour', MANZIL_TIMEZONE: 'Mars/Olympus' })).toThrow(
      /ALERTS_CRON[\s\S]*MANZIL_TIMEZONE/,
    );
  });
});

describe('configuration problems in plain words', () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (e) {
      if (e instanceof ConfigError) return e.problems;
      throw e;
    }
    return [];
  };

  it('says what is missing and why it is needed', () => {
    expect(problems({ SLACK_BOT_TOKEN: 'xoxb-1234', MANZIL_SANDBOX: '1' })).toEqual([
      'SLACK_SIGNING_SECRET is missing: Slack needs it to verify requests (SLACK_BOT_TOKEN is set)',
    ]);
    expect(problems({ SLACK_SIGNING_SECRET: 'sign-1234', MANZIL_SANDBOX: '1' })).toEqual([
      'SLACK_BOT_TOKEN is missing: Slack needs it to answer and post (SLACK_SIGNING_SECRET is set); or set SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET for Add to Slack',
    ]);
  });

  it('reports values the schema refuses and the rules between variables together, once each', () => {
    const found = problems({
      PORT: '70000',
      UAE_API_RETRY_ATTEMPTS: '2.5',
      LOG_LEVEL: 'loud',
      UAE_API_BASE_URL: 'ftp://x',
      UAE_API_KEY: 'k-1234',
      SLACK_BOT_TOKEN: 'xoxb-1234',
    });
    expect(found).toEqual([
      "UAE_API_BASE_URL is not a web address (https://…): the property service's address",
      'UAE_API_RETRY_ATTEMPTS must be a whole number',
      'PORT must be at most 65535: the HTTP port for Slack, /healthz and /metrics',
      'LOG_LEVEL must be one of debug, info, warn, error: which log lines are written',
      'SLACK_SIGNING_SECRET is missing: Slack needs it to verify requests (SLACK_BOT_TOKEN is set)',
    ]);
  });

  it('takes an empty value as unset, as in a copied .env.example', () => {
    const config = loadConfig({
      PORT: '',
      OPS_PORT: ' ',
      UAE_API_BUDGET_PER_DAY: '',
      UAE_API_KEY: '',
      SLACK_BOT_TOKEN: '',
    });
    expect(config.port).toBe(3000);
    expect(config.ops.port).toBeUndefined();
    expect(config.api.budget.perDay).toBeUndefined();
    expect(config.sandbox).toBe(true);
  });

  it('puts the terminal chat log beside the database unless MANZIL_LOG_FILE says otherwise', () => {
    expect(loadConfig({}).logFile).toBe('data/manzil.log');
    expect(loadConfig({ MANZIL_DB_PATH: '/var/lib/manzil/m.db' }).logFile).toBe('/var/lib/manzil/manzil.log');
    expect(loadConfig({ MANZIL_LOG_FILE: '/tmp/x.log' }).logFile).toBe('/tmp/x.log');
    expect(loadConfig({ LOG_FORMAT: 'json', OPS_PORT: '9100' })).toMatchObject({
      logFormat: 'json',
      ops: { port: 9100, host: '127.0.0.1' },
    });
  });
});

describe('Add to Slack configuration', () => {
  const live = { UAE_API_KEY: 'k', UAE_API_BASE_URL: 'http://127.0.0.1:9' };
  const oauth = {
    SLACK_CLIENT_ID: '1.2',
    SLACK_CLIENT_SECRET: 'client-secret-x',
    SLACK_STATE_SECRET: 'state-secret-x',
    SLACK_SIGNING_SECRET: 'sign-x',
  };
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(env);
      return [];
    } catch (e) {
      return (e as ConfigError).problems;
    }
  };

  it('serves any workspace with the three OAuth values, the signing secret and an encryption key, and masks them all', () => {
    const key = 'ab'.repeat(32);
    const config = loadConfig({ ...live, ...oauth, MANZIL_ENCRYPTION_KEY: key });
    expect(config.slack).toMatchObject({
      botToken: undefined,
      oauth: { clientId: '1.2', clientSecret: 'client-secret-x', stateSecret: 'state-secret-x' },
    });
    expect(config.encryption).toEqual({ key, previous: [] });
    expect(config.secrets).toEqual(expect.arrayContaining(['client-secret-x', 'state-secret-x', key]));
  });

  it('says what is missing or wrong, never a value', () => {
    expect(problems({ ...live, ...oauth })).toEqual([expect.stringMatching(/^MANZIL_ENCRYPTION_KEY is missing/)]);
    expect(
      problems({ ...live, SLACK_CLIENT_ID: '1.2', SLACK_SIGNING_SECRET: 's', MANZIL_ENCRYPTION_KEY: 'ab'.repeat(32) }),
    ).toEqual([expect.stringMatching(/^SLACK_CLIENT_SECRET, SLACK_STATE_SECRET are missing/)]);
    const both = problems({
      ...live,
      ...oauth,
      SLACK_BOT_TOKEN: 'xoxb-1',
      SLACK_APP_TOKEN: 'xapp-1',
      MANZIL_ENCRYPTION_KEY: 'not-a-key-value',
    });
    expect(both).toEqual([
      expect.stringMatching(/SLACK_BOT_TOKEN is set along with SLACK_CLIENT_ID/),
      expect.stringMatching(/SLACK_APP_TOKEN is set along with SLACK_CLIENT_ID/),
      expect.stringMatching(/MANZIL_ENCRYPTION_KEY is not a 32-byte key/),
    ]);
    expect(both.join(' ')).not.toContain('not-a-key-value');
  });
});

describe('the database', () => {
  it('is the SQLite file unless DATABASE_URL names a Postgres database, whose password is kept out of logs and messages', () => {
    expect(loadConfig({}).postgres).toBeUndefined();
    const config = loadConfig({
      DATABASE_URL: 'postgres://manzil:s3cret-pw@db.internal:5432/manzil',
      DATABASE_POOL_SIZE: '20',
    });
    expect(config.postgres).toEqual({
      url: 'postgres://manzil:s3cret-pw@db.internal:5432/manzil',
      poolSize: 20,
      jobExpireSeconds: 300,
    });
    expect(config.secrets).toContain('s3cret-pw');
    expect(loadConfig({ DATABASE_URL: 'postgresql://localhost/manzil', JOBS_EXPIRE_S: '30' }).postgres).toEqual({
      url: 'postgresql://localhost/manzil',
      poolSize: 10,
      jobExpireSeconds: 30,
    });
  });

  it('refuses a DATABASE_URL that is not a Postgres URL, and a pool of no connections, naming each', () => {
    let problems: string[] = [];
    try {
      loadConfig({ DATABASE_URL: 'mysql://root@localhost/manzil', DATABASE_POOL_SIZE: '0' });
    } catch (e) {
      problems = (e as ConfigError).problems;
    }
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^DATABASE_URL .*must be a Postgres URL/),
        expect.stringMatching(/^DATABASE_POOL_SIZE/),
      ]),
    );
  });
});
