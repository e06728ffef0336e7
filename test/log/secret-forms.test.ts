// The log masks each configured secret in every form it can take in a line: percent-encoded as in a URL (wholly or
// partly, either hex case, twice), JSON-escaped inside a quoted body, a space as `+`, `\uXXXX`, and an encryption key
// in
// its other spellings. The secrets come from the real configuration, as `manzil start` passes them to the logger.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';

const PASSWORD = 'ab+cd/ef=';
const SIGNING = 'sign me/please';
const KEY = 'c0ffee11'.repeat(8);
const PREVIOUS = '3f'.repeat(32);

const config = loadConfig({
  MANZIL_SANDBOX: '1',
  DATABASE_URL: 'postgres://manzil:ab%2Bcd%2Fef%3D@127.0.0.1:5432/manzil',
  SLACK_BOT_TOKEN: 'xoxb-1111-2222-abcdefgh',
  SLACK_SIGNING_SECRET: SIGNING,
  MANZIL_ENCRYPTION_KEY: KEY,
  MANZIL_ENCRYPTION_KEY_PREVIOUS: PREVIOUS,
});

function capture() {
  const lines: string[] = [];
  return { log: createLogger({ secrets: config.secrets, write: (l) => lines.push(l) }), lines };
}

describe('the logger with the configuration’s secrets', () => {
  it('masks a database password as the URL spells it, decoded, in lower-case hex, half encoded and encoded twice', () => {
    const { log, lines } = capture();
    log.error('connect postgres://manzil:ab%2Bcd%2Fef%3D@127.0.0.1:5432/manzil failed', {
      lower: 'postgres://manzil:ab%2bcd%2fef%3d@127.0.0.1',
      userinfo: 'postgres://manzil:ab+cd%2Fef%3D@127.0.0.1', // the URL parser's own spelling
      twice: 'next=postgres%3A%2F%2Fmanzil%3Aab%252Bcd%252Fef%253D%40127.0.0.1',
      error: new Error(`password authentication failed: "${PASSWORD}"`),
    });
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(entry).toMatchObject({
      msg: 'connect postgres://manzil:***@127.0.0.1:5432/manzil failed',
      lower: 'postgres://manzil:***@127.0.0.1',
      userinfo: 'postgres://manzil:***@127.0.0.1',
      twice: 'next=postgres%3A%2F%2Fmanzil%3A***%40127.0.0.1',
      error: { message: 'password authentication failed: "***"' },
    });
    for (const form of ['ab%2B', 'ab%2b', 'ab+cd', 'ab%252B', PASSWORD]) expect(lines[0]).not.toContain(form);
  });

  it('masks a signing secret form-encoded and as \\u escapes, and encryption keys in their other spellings', () => {
    const { log, lines } = capture();
    const keyBase64 = Buffer.from(KEY, 'hex').toString('base64');
    log.warn('slack said no', {
      form: 'secret=sign+me%2Fplease&x=1',
      escaped: String.raw`{"secret":"sign\u0020me\u002fplease"}`,
      quoted: JSON.stringify({ body: JSON.stringify({ secret: SIGNING }) }),
      keys: `k=${keyBase64} old=${PREVIOUS.toUpperCase()} url=${Buffer.from(PREVIOUS, 'hex').toString('base64url')}`,
    });
    const entry = JSON.parse(lines[0]!) as Record<string, string>;
    expect(entry.form).toBe('secret=***&x=1');
    expect(entry.escaped).toBe('{"secret":"***"}');
    expect(entry.quoted).toBe(JSON.stringify({ body: JSON.stringify({ secret: '***' }) }));
    expect(entry.keys).toBe('k=*** old=*** url=***');
    for (const form of ['sign', 'please', keyBase64, PREVIOUS.toUpperCase()]) expect(lines[0]).not.toContain(form);
  });
});
