// A small structured logger (JSON lines on stderr) that masks every configured secret in everything it writes,
// so a key that slips into an error message still never reaches the logs.
export type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

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
  write?: (line: string) => void;
  base?: Record<string, unknown>;
}

/** Replaces every occurrence of each secret (4+ characters) with `***`. */
export function maskSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join('***');
  return out;
}

function describe(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, ...('status' in value ? { status: value.status } : {}) };
  return value;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const min = ORDER[options.level ?? 'info'];
  const secrets = options.secrets ?? [];
  const write = options.write ?? ((line: string) => process.stderr.write(line + '\n'));
  const base = options.base ?? {};
  const emit = (level: Level, msg: string, fields: Record<string, unknown> = {}) => {
    if (ORDER[level] < min) return;
    const entry: Record<string, unknown> = { time: new Date().toISOString(), level, msg, ...base };
    for (const [k, v] of Object.entries(fields)) entry[k] = describe(v);
    write(maskSecrets(JSON.stringify(entry), secrets));
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (fields) => createLogger({ ...options, base: { ...base, ...fields } }),
  };
}

/** A logger that writes nothing, for tools and tests that do not care. */
export const silentLogger: Logger = createLogger({ write: () => {} });
