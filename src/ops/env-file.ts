// The optional `.env` file: read with Node's own parser (util.parseEnv), under the environment, never over it
// (a variable set in the environment wins, as with `node --env-file`).
import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { ConfigError } from '../config.js';

export interface EnvFile {
  /** The file read, or undefined when there was none. */
  file: string | undefined;
  /** The variables that came from the file (not already set in the environment). */
  applied: string[];
}

/**
 * Reads `MANZIL_ENV_FILE` (when set: it must exist) or `./.env` (when present) into `env`, for the variables `env` does
 * not set. Throws a ConfigError when a named file cannot be read.
 */
export function applyEnvFile(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): EnvFile {
  const named = env.MANZIL_ENV_FILE?.trim();
  const file = path.resolve(cwd, named || '.env');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (!named && code === 'ENOENT') return { file: undefined, applied: [] };
    throw new ConfigError([
      `MANZIL_ENV_FILE names ${file}, which cannot be read (${code ?? 'error'}): point it at your .env file, or unset it`,
    ]);
  }
  const values = parseEnv(text);
  const applied: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    if (env[name] !== undefined) continue;
    env[name] = value;
    applied.push(name);
  }
  return { file, applied };
}
