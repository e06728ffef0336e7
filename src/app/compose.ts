// The composition root: the one place an instance is wired, for its role. `npm start`, the delivery thread,
// `manzil poll --once`, the benches and the tests all build what they run here.
import { loadConfig, type Config } from '../config.js';
import { composeBackgroundSide, type BackgroundOptions, type BackgroundSide } from './background-side.js';
import { roleOf, type Role } from './roles.js';
import type { Manzil, StartOptions } from './types.js';

export function compose(config: Config, role: 'background', options?: BackgroundOptions): Promise<BackgroundSide>;
export function compose(config: Config, role: 'chat' | 'both', options?: StartOptions): Promise<Manzil>;
export function compose(
  config: Config,
  role: Role,
  options: StartOptions & BackgroundOptions = {},
): Promise<Manzil | BackgroundSide> {
  return role === 'background'
    ? composeBackgroundSide(config, options)
    : // Loaded only here: the delivery thread, which composes `background`, never loads the chat side.
      import('./instance.js').then((m) => m.composeInstance(config, role, options));
}

/** Builds everything from the environment and starts serving; its role from the configuration and the options. */
export async function startManzil(options: StartOptions = {}): Promise<Manzil> {
  const config = options.config ?? loadConfig(options.env ?? process.env);
  return compose(config, roleOf(config, options), options);
}
