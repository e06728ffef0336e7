// The composition root's surface: compose an instance for its role, or start one as `npm start` does.
export { compose, startManzil } from './compose.js';
export { roleOf, type Role } from './roles.js';
export { StartError } from './instance.js';
export type { BackgroundOptions, BackgroundSide } from './background-side.js';
export { SANDBOX_FOOTER } from './chat.js';
export { BUTTON_RETENTION_MS } from './store.js';
export type { Manzil, StartOptions } from './types.js';
