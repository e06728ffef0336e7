// `manzil sandbox`: flags, the printed URL and key, and a clean stop on SIGTERM.
import { describe, expect, it, vi } from 'vitest';
import { parseSandboxFlags, runSandboxCli } from '../../src/sandbox/cli.js';

describe('manzil sandbox', () => {
  it('defaults to port 8787 and key sandbox-key, and reads both flag forms', () => {
    expect(parseSandboxFlags([])).toEqual({ port: 8787, key: 'sandbox-key', plan: 'full', seed: 1 });
    expect(parseSandboxFlags(['--port', '0', '--key=k1', '--plan', 'basic', '--seed', '9'])).toEqual({
      port: 0,
      key: 'k1',
      plan: 'basic',
      seed: 9,
    });
  });

  it("starts its market at today's UTC day, or at the day --start names", async () => {
    // A bot on this sandbox dates its digests and periods by the wall clock: the market's today must be the calendar's.
    const clockOf = async (args: string[]) => {
      const lines: string[] = [];
      const done = runSandboxCli(['--port', '0', ...args], (l) => lines.push(l));
      await vi.waitFor(() => expect(lines.join('\n')).toMatch(/market clock/));
      process.emit('SIGTERM');
      expect(await done).toBe(0);
      return /market clock (\S+)/.exec(lines.join('\n'))![1];
    };
    const before = Date.now();
    const today = await clockOf([]);
    const day = 86_400_000;
    expect([before, Date.now()].map((t) => new Date(Math.floor(t / day) * day).toISOString())).toContain(today);
    expect(await clockOf(['--start', '2026-11-01'])).toBe('2026-11-01T00:00:00.000Z');
    expect(parseSandboxFlags(['--start=2027-02-28', '--start', 'today'])).toEqual(parseSandboxFlags([]));
  });

  it('refuses bad flags with a clear message and exit code 2', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await runSandboxCli(['--port', 'eighty'])).toBe(2);
      expect(String(stderr.mock.calls[0]?.[0])).toMatch(/--port must be a number/);
      expect(await runSandboxCli(['--plan', 'gold'])).toBe(2);
      expect(await runSandboxCli(['--verbose'])).toBe(2);
      expect(await runSandboxCli(['--key'])).toBe(2);
      for (const start of ['2026-02-31', 'yesterday', '1 Nov 2026', '2026-11-01T10:00']) {
        stderr.mockClear();
        expect(await runSandboxCli(['--start', start])).toBe(2);
        expect(String(stderr.mock.calls[0]?.[0])).toContain(
          `--start must be today or a date such as 2026-11-01 (got "${start}")`,
        );
      }
    } finally {
      stderr.mockRestore();
    }
  });

  it('prints its URL and key, serves with that key, and stops on SIGTERM', async () => {
    const lines: string[] = [];
    const done = runSandboxCli(['--port', '0', '--key', 'cli-key', '--plan', 'basic'], (l) => lines.push(l));
    await vi.waitFor(() => expect(lines.length).toBeGreaterThan(1));
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(lines.join('\n'))?.[0];
    expect(url).toBeDefined();
    expect(lines.join('\n')).toContain('cli-key');
    const ok = await fetch(`${url}/autocomplete-location?query=marina`, { headers: { 'x-gateway-key': 'cli-key' } });
    expect(ok.status).toBe(200);
    expect((await fetch(`${url}/search-agents-detailed`, { headers: { 'x-gateway-key': 'cli-key' } })).status).toBe(
      403,
    );
    process.emit('SIGTERM');
    expect(await done).toBe(0);
    await expect(fetch(`${url}/autocomplete-location?query=marina`)).rejects.toThrow();
  });
});
