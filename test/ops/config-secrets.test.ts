// `manzil config` run as an operator runs it: every secret hidden in every form it is written in, not only as the
// configuration holds it. A database password is percent-encoded in DATABASE_URL; a key may sit encoded in a URL.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runManzil, type CliRun } from '../support/child.js';
import { tempDir } from './helpers.js';

const PASSWORD = 'ab+cd/ef='; // as Postgres knows it
const PASSWORD_IN_URL = 'ab%2Bcd%2Fef%3D'; // as DATABASE_URL must spell it
const API_KEY = 'k/ey+with=chars';
const KEY = 'c0ffee11'.repeat(8);
const PREVIOUS = '3f'.repeat(32);

function manzilConfig(env: Record<string, string>): Promise<CliRun> {
  const dir = tempDir();
  return runManzil(['config'], { cwd: dir, env: { MANZIL_DB_PATH: join(dir, 'm.db'), ...env } });
}

describe('manzil config', () => {
  it('hides a percent-encoded database password, a key inside a URL and every encryption key, in any form', async () => {
    const r = await manzilConfig({
      DATABASE_URL: `postgres://manzil:${PASSWORD_IN_URL}@127.0.0.1:5432/manzil`,
      UAE_API_KEY: API_KEY,
      // A key pasted into a variable not named like a secret, encoded as a query string encodes it.
      UAE_API_BASE_URL: `http://127.0.0.1:9/v1?key=${encodeURIComponent(API_KEY).toLowerCase()}`,
      MANZIL_ENCRYPTION_KEY: Buffer.from(KEY, 'hex').toString('base64'),
      MANZIL_ENCRYPTION_KEY_PREVIOUS: PREVIOUS,
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(
      /^DATABASE_URL +=\s+postgres:\/\/manzil:\*\*\*@127\.0\.0\.1:5432\/manzil +# environment$/m,
    );
    expect(r.stdout).toMatch(/^UAE_API_BASE_URL +=\s+http:\/\/127\.0\.0\.1:9\/v1\?key=\*\*\* +# environment$/m);
    expect(r.stdout).toMatch(/^MANZIL_ENCRYPTION_KEY_PREVIOUS +=\s+\*\*\* \(set\) +# environment$/m);
    for (const form of [
      PASSWORD,
      PASSWORD_IN_URL,
      PASSWORD_IN_URL.toLowerCase(),
      'ab%2B',
      API_KEY,
      encodeURIComponent(API_KEY),
      KEY,
      PREVIOUS,
    ]) {
      expect(r.stdout).not.toContain(form);
    }
  }, 60_000);
});
