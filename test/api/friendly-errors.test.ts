// What chat says for the client's new failure kinds (src/bot/friendly-error.ts).
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/index.js';
import { friendlyError } from '../../src/bot/friendly-error.js';

const error = (details: Partial<ConstructorParameters<typeof ApiError>[1]>) =>
  new ApiError('search-rent: internal detail', { operation: 'search-rent', kind: 'http', retryable: true, ...details });

describe('friendly errors for the hardened client', () => {
  it('says the service is busy, for how long, when the breaker is open or the service asked to wait', () => {
    expect(friendlyError(error({ kind: 'unavailable', retryAfterSeconds: 30 }))).toEqual({ text: 'The property service is busy, try again in about 1 minute.', level: 'warn' });
    expect(friendlyError(error({ kind: 'http', status: 429, retryAfterSeconds: 600 })).text).toBe('The property service is busy, try again in about 10 minutes.');
  });

  it('says a too large answer could not be read, for the operator to see', () => {
    const friendly = friendlyError(error({ kind: 'too-large', retryable: false }));
    expect(friendly.text).toMatch(/too large to read/);
    expect(friendly.level).toBe('error');
  });

  it('says Manzil is restarting when the client is closed, and busy on a deadline', () => {
    expect(friendlyError(error({ kind: 'closed', retryable: false })).text).toMatch(/restarting/);
    expect(friendlyError(error({ kind: 'timeout' })).text).toMatch(/property service is busy/);
  });
});
