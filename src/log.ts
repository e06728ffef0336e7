// Structured logging on pino: JSON lines on stderr. Two guards keep secrets out of the logs:
// - redact paths blank out fields whose *name* says they hold a secret (a token, a key, a response_url), configured or not;
// - every line is scanned for each configured secret *value*, in its raw and its JSON-escaped form, so a key that slips
//   into an error message (or contains a quote or a backslash, which JSON escapes) still never reaches the logs.
import { pino, type DestinationStream } from 'pino';

export type Level = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

export interface LoggerOptions {
  level?: Level;
  secrets?: readonly (string | undefined)[];
  /** Receives each line (no trailing newline), synchronously. Default: stderr. */
  write?: (line: string) => void;
  base?: Record<string, unknown>;
}

export const MASK = '***';

/** Field names that hold a secret wherever they appear (top level or one or two objects deep). */
const SECRET_NAMES = [
  'token', 'botToken', 'appToken', 'accessToken', 'refreshToken', 'bot_token', 'app_token', 'access_token',
  'key', 'apiKey', 'api_key', 'signingSecret', 'signing_secret', 'clientSecret', 'client_secret', 'secret', 'password',
  'response_url', 'responseUrl', 'authorization', 'Authorization', 'cookie', '["x-gateway-key"]', '["x-api-key"]',
];
const AT_ANY_DEPTH = (name: string) => (name.startsWith('[') ? [`*${name}`, `*.*${name}`] : [name, `*.${name}`, `*.*.${name}`]);
/** `headers["x-gateway-key"]` is covered by `*["x-gateway-key"]`. */
export const REDACT_PATHS: readonly string[] = SECRET_NAMES.flatMap(AT_ANY_DEPTH);

/** The forms a secret can take in a line: raw, and as it reads inside a JSON string. Longest first. */
function secretForms(secrets: readonly (string | undefined)[]): string[] {
  const forms = new Set<string>();
  for (const s of secrets) {
    if (!s || s.length < 4) continue; // a 1-3 character "secret" would mask half the log
    forms.add(JSON.stringify(s).slice(1, -1));
    forms.add(s);
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/** Replaces every occurrence of each secret (4+ characters), raw or JSON-escaped, with `***`. */
export function maskSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  return maskForms(text, secretForms(secrets));
}

function maskForms(text: string, forms: readonly string[]): string {
  let out = text;
  for (const form of forms) if (out.includes(form)) out = out.split(form).join(MASK);
  return out;
}

/** An expected failure (ours, with a status or a kind) is described by name and message; an unexpected one keeps its stack. */
function describe(value: unknown): unknown {
  if (!(value instanceof Error)) return value;
  const expected = value.name === 'ApiError' || 'status' in value || 'kind' in value;
  return {
    name: value.name,
    message: value.message,
    ...('status' in value && value.status !== undefined ? { status: value.status } : {}),
    ...(!expected && value.stack ? { stack: value.stack } : {}),
  };
}

function described(fields: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields ?? {})) out[k] = describe(v);
  return out;
}

function destination(write: LoggerOptions['write']): DestinationStream {
  if (write) return { write: (chunk: string) => write(chunk.endsWith('\n') ? chunk.slice(0, -1) : chunk) };
  return { write: (chunk: string) => void process.stderr.write(chunk) };
}

function wrap(p: pino.Logger): Logger {
  return {
    debug: (msg, fields) => p.debug(described(fields), msg),
    info: (msg, fields) => p.info(described(fields), msg),
    warn: (msg, fields) => p.warn(described(fields), msg),
    error: (msg, fields) => p.error(described(fields), msg),
    child: (fields) => wrap(p.child(described(fields))),
  };
}

export function createLogger(options: LoggerOptions = {}): Logger {
  return build(options, options.level ?? 'info');
}

function build(options: LoggerOptions, level: Level | 'silent'): Logger {
  const forms = secretForms(options.secrets ?? []);
  const p = pino(
    {
      level,
      base: options.base ? described(options.base) : null,
      timestamp: pino.stdTimeFunctions.isoTime,
      messageKey: 'msg',
      formatters: { level: (label) => ({ level: label }) },
      // Errors are already described above; pino's own `err` serializer would reshape them again.
      serializers: { err: (value: unknown) => value },
      redact: { paths: [...REDACT_PATHS], censor: MASK },
      // Runs on the finished line, so it also catches secrets inside messages, error texts and stacks.
      hooks: { streamWrite: (line) => maskForms(line, forms) },
    },
    destination(options.write),
  );
  return wrap(p);
}

/** A logger that writes nothing, for tools and tests that do not care. */
export const silentLogger: Logger = build({ write: () => {} }, 'silent');
