// Structured logging on pino: JSON lines on stderr, readable ones (pino-pretty) when stderr is a terminal, and in the
// terminal chat a log file with only warnings and errors on the screen. Two guards keep secrets out of the logs:
// - redact paths blank out fields whose *name* says they hold a secret (a token, a key, a response_url), configured or
//   not;
// - every line is scanned for each configured secret *value* in every form it can take (raw, JSON-escaped,
//   percent-encoded as in a URL...: secret-forms.ts), so a key that slips into an error message, or a database password
//   inside a URL, still never reaches the logs.
import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import { createColors } from 'picocolors';
import { pino, type DestinationStream } from 'pino';
import { prettyFactory } from 'pino-pretty';
import { secretPattern } from './secret-forms.js';
import { makePrivateDirFor, PRIVATE_FILE } from './store/private-files.js';

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
  /**
   * 'json': one JSON object per line; 'pretty': readable, several lines for an error (pino-pretty);
   * 'auto' (the default): pretty when the lines go to stderr and stderr is a terminal, JSON otherwise.
   */
  format?: LogFormat;
  /**
   * The terminal chat's mode, so log lines never interleave with the conversation: every line (JSON) is appended to
   * this file, and warnings and errors are also shown on `screen`, one readable line each (by default stderr, when
   * it is not a terminal: redirected, it is a log of its own).
   */
  logFile?: string;
  /** Where those one-line warnings and errors go (default: stderr, unless it is a terminal). */
  screen?: (line: string) => void;
}

export type LogFormat = 'auto' | 'json' | 'pretty';

export const MASK = '***';

/** Field names that hold a secret wherever they appear (top level or one or two objects deep). */
const SECRET_NAMES = [
  'token',
  'botToken',
  'appToken',
  'accessToken',
  'refreshToken',
  'bot_token',
  'app_token',
  'access_token',
  'key',
  'apiKey',
  'api_key',
  'signingSecret',
  'signing_secret',
  'clientSecret',
  'client_secret',
  'secret',
  'password',
  'response_url',
  'responseUrl',
  'authorization',
  'Authorization',
  'cookie',
  '["x-gateway-key"]',
  '["x-api-key"]',
];
const AT_ANY_DEPTH = (name: string) =>
  name.startsWith('[') ? [`*${name}`, `*.*${name}`] : [name, `*.${name}`, `*.*.${name}`];
/** `headers["x-gateway-key"]` is covered by `*["x-gateway-key"]`. */
export const REDACT_PATHS: readonly string[] = SECRET_NAMES.flatMap(AT_ANY_DEPTH);

/** Replaces every occurrence of each secret (4+ characters), in any of its forms (secret-forms.ts), with `***`. */
export function maskSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  return maskWith(text, secretPattern(secrets));
}

const maskWith = (text: string, pattern: RegExp | undefined) => (pattern ? text.replace(pattern, MASK) : text);

/**
 * An expected failure (ours, with a status or a kind) is described by name and message; an unexpected one keeps its
 * stack.
 */
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

const stripNewline = (chunk: string) => (chunk.endsWith('\n') ? chunk.slice(0, -1) : chunk);

/** 'auto' made definite: readable when the lines go to stderr and stderr is a terminal, JSON otherwise. */
export function resolveFormat(format: LogFormat = 'auto', toCaller = false): 'json' | 'pretty' {
  if (format !== 'auto') return format;
  return !toCaller && process.stderr.isTTY === true ? 'pretty' : 'json';
}

/** Where the (already masked) JSON lines go, and in which form. */
function destination(options: LoggerOptions): DestinationStream {
  if (options.logFile) return fileDestination(options.logFile, options.screen);
  const pretty = resolveFormat(options.format, options.write !== undefined) === 'pretty';
  const toText = pretty
    ? prettyFactory({ colorize: !options.write && colourOn(), translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' })
    : undefined;
  const write = options.write ?? ((line: string) => void process.stderr.write(`${line}\n`));
  return { write: (chunk: string) => write(toText ? stripNewline(toText(chunk)) : stripNewline(chunk)) };
}

/**
 * Every line appended to the file; warnings and errors also on `screen` as one readable line. By default that is
 * stderr,
 * unless stderr is the terminal the chat is read on: there a log line would land in the person's conversation, so it
 * stays in the file (and reaches the screen only when the file cannot be written).
 */
function fileDestination(file: string, screen: LoggerOptions['screen']): DestinationStream {
  const toStderr = (line: string) => void process.stderr.write(`${line}\n`);
  const colours = createColors(!screen && colourOn());
  let fd: number | undefined;
  try {
    // Beside the database by default: the folder Manzil makes is private (store/private-files.ts), as is the file.
    makePrivateDirFor(file);
    fd = fs.openSync(file, 'a', PRIVATE_FILE);
  } catch (e) {
    (screen ?? toStderr)(
      `${colours.yellow('WARN')} cannot write the log file ${file} (${(e as Error).message}); warnings and errors only, here`,
    );
  }
  const show = screen ?? (fd === undefined || process.stderr.isTTY !== true ? toStderr : undefined);
  return {
    write: (chunk: string) => {
      if (fd !== undefined) {
        try {
          fs.writeSync(fd, chunk.endsWith('\n') ? chunk : `${chunk}\n`);
        } catch {
          // A full disk must not stop the chat; warnings still reach stderr when it is not the chat's terminal.
        }
      }
      // pino writes the level first: no need to parse the lines that stay in the file.
      if (show && (chunk.startsWith('{"level":"warn"') || chunk.startsWith('{"level":"error"')))
        show(oneLine(chunk, colours));
    },
  };
}

const colourOn = () => process.stderr.isTTY === true && !('NO_COLOR' in process.env);

/** `12:04:05 WARN the message {"field":"value"}`: an error as its message only (its stack stays in the file). */
export function oneLine(json: string, colours = createColors(false)): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return stripNewline(json);
  }
  const { level, time, msg, ...fields } = entry;
  for (const [k, v] of Object.entries(fields)) {
    if (v && typeof v === 'object' && 'message' in v && 'name' in v) fields[k] = (v as { message: unknown }).message;
  }
  const clock = typeof time === 'string' ? time.slice(11, 19) : '';
  const label = String(level).toUpperCase();
  const painted = level === 'error' ? colours.red(label) : level === 'warn' ? colours.yellow(label) : label;
  const rest = Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : '';
  return `${colours.dim(clock)} ${painted} ${String(msg ?? '')}${rest}`.replace(/[\r\n]+/g, ' ').trim();
}

/** A short id for one request or one poller run: on every log line it produces and in error replies ("ref k3x9q2"). */
export function newRequestId(): string {
  return randomInt(36 ** 6)
    .toString(36)
    .padStart(6, '0');
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
  const pattern = secretPattern(options.secrets ?? []);
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
      hooks: { streamWrite: (line) => maskWith(line, pattern) },
    },
    destination(options),
  );
  return wrap(p);
}

/** A logger that writes nothing, for tools and tests that do not care. */
export const silentLogger: Logger = build({ write: () => {} }, 'silent');
