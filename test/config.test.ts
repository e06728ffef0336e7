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

  it('uses the real service when a key and a base URL are given', () => {
    const config = loadConfig({ UAE_API_KEY: 'k-123456', UAE_API_BASE_URL: 'https://api.example.test/v1', UAE_API_BUDGET_PER_DAY: '25' });
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
    expect(() => loadConfig({ PORT: 'eighty', UAE_API_BASE_URL: 'not a url' })).toThrow(/PORT[\s\S]*UAE_API_BASE_URL|UAE_API_BASE_URL[\s\S]*PORT/);
  });
});

describe('alerts configuration', () => {
  it('defaults to every 15 minutes in Dubai time, and takes six-field expressions with seconds', () => {
    expect(loadConfig({}).alerts).toMatchObject({ cron: '*/15 * * * *', timezone: 'Asia/Dubai', maxPages: 3, priceDropPct: 1, maxPerPlace: 25, maxPerUser: 10 });
    expect(loadConfig({ ALERTS_CRON: '*/5 * * * * *' }).alerts.cron).toBe('*/5 * * * * *');
  });

  it('refuses a bad cron expression or time zone, naming the variable', () => {
    expect(() => loadConfig({ ALERTS_CRON: 'every quarter hour', MANZIL_TIMEZONE: 'Mars/Olympus' })).toThrow(/ALERTS_CRON[\s\S]*MANZIL_TIMEZONE/);
  });
});
