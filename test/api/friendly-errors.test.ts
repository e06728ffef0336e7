// What chat says for the client's new failure kinds (src/bot/friendly-error.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/index.js';
import { OPERATION_NAMES } from '../../src/api/operations.js';
import { friendlyError } from '../../src/bot/friendly-error.js';

const error = (details: Partial<ConstructorParameters<typeof ApiError>[1]>) =>
  new ApiError('search-rent: internal detail', { operation: 'search-rent', kind: 'http', retryable: true, ...details });

describe('friendly errors for the hardened client', () => {
  it('says the service is busy, for how long, when the breaker is open or the service asked to wait', () => {
    expect(friendlyError(error({ kind: 'unavailable', retryAfterSeconds: 30 }))).toEqual({
      text: 'The property service is busy, try again in about 1 minute.',
      level: 'warn',
    });
    expect(friendlyError(error({ kind: 'http', status: 429, retryAfterSeconds: 600 })).text).toBe(
      'The property service is busy, try again in about 10 minutes.',
    );
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

describe('nothing internal reaches chat (issue 26)', () => {
  const kinds = [
    'invalid-params',
    'http',
    'network',
    'timeout',
    'malformed',
    'too-large',
    'budget',
    'share',
    'unavailable',
    'cancelled',
    'closed',
  ] as const;
  const internal = fc.stringMatching(/^[a-z][a-z0-9_]{3,12}$/).map((s) => `zz_${s}`);

  it('words every failure without its message, its operation, its class name or a parameter check', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...kinds),
        fc.constantFrom(...OPERATION_NAMES),
        internal,
        fc.array(
          fc.record({ param: internal, message: fc.string({ minLength: 1 }).map((m) => `${m} (got "9e+99")`) }),
          { maxLength: 4 },
        ),
        fc.option(fc.integer({ min: 100, max: 599 }), { nil: undefined }),
        (kind, operation, detail, problems, status) => {
          const e = new ApiError(`${operation}: ${detail} failed`, {
            operation,
            kind,
            retryable: false,
            problems,
            ...(status ? { status } : {}),
          });
          const { text } = friendlyError(e, 'k3x9q2');
          expect(text).not.toContain(operation);
          expect(text).not.toContain(detail);
          expect(text).not.toMatch(/ApiError|got "|\bat \S+:\d+/);
          for (const p of problems) expect(text).not.toContain(p.param);
        },
      ),
    );
  });

  it('names the filters at fault in words when the search cannot be sent', () => {
    const e = new ApiError('search-buy: bathrooms must be comma-separated whole numbers (got "2.5")', {
      operation: 'search-buy',
      kind: 'invalid-params',
      retryable: false,
      problems: [
        { param: 'bathrooms', message: 'bathrooms must be comma-separated whole numbers (got "2.5")' },
        { param: 'area_min', message: 'area_min must be a number (got "1e+30")' },
      ],
    });
    expect(friendlyError(e).text).toBe(
      "That search can't be sent: the property service can't take the bathrooms and the size as written. Try `help` for examples.",
    );
  });
});
