// `manzil parse` through the real bin, as a person or a script would run it.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { manzilArgs } from '../support/child.js';

const run = (args: string[], input?: string) => {
  const r = spawnSync(process.execPath, manzilArgs(...args), {
    input,
    encoding: 'utf8',
    env: { ...process.env, UAE_API_KEY: '', MANZIL_FROM_SOURCE: '1' },
    timeout: 60_000,
  });
  return {
    status: r.status,
    lines: r.stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>),
    stderr: r.stderr,
  };
};

describe('manzil parse', () => {
  it('prints one JSON object for a command given as an argument', () => {
    const { status, lines } = run(['parse', '/rent marina 2br under 120k']);
    expect(status).toBe(0);
    expect(lines).toEqual([
      { operation: 'search-rent', params: { bedrooms: '2', price_max: '120000' }, location: 'marina' },
    ]);
  });

  it('reads one command per stdin line and answers errors as {"error"}', () => {
    const { lines } = run(['parse'], '/buy downtown 1br\n\n/rent marina 12x bedrooms\n/developers abu dhabi\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({ operation: 'search-buy', location: 'downtown' });
    expect(lines[1]).toHaveProperty('error');
    expect(lines[2]).toMatchObject({ operation: 'real-estate-developer', params: { location: 'abu-dhabi' } });
  });

  it('resolves the location with --resolve against the embedded sandbox', () => {
    const { lines } = run(['parse', '--resolve', 'rent marina 2br']);
    expect(lines[0]).toMatchObject({ operation: 'search-rent', location: 'marina', location_id: '50' });
  });
});
