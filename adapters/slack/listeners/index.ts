// Bolt listeners by kind, as Bolt's own templates lay them out: each file registers one kind (slash commands, block
// actions, options requests, events, view submissions). Each acks at once, hands the request to the core, and sends
// back what it says; nothing else lives here.
import type { App } from '@slack/bolt';
import * as actions from './actions.js';
import * as commands from './commands.js';
import * as events from './events.js';
import * as options from './options.js';
import * as views from './views.js';
import type { ListenerDeps } from './deps.js';

export { untracked, type ListenerDeps } from './deps.js';

export function registerListeners(app: App, deps: ListenerDeps): void {
  for (const kind of [commands, actions, options, events, views]) kind.register(app, deps);
}
