// View submissions and closes (`app.view(...)`): the place for the forms' (modals') listeners. None yet.
import type { App } from '@slack/bolt';
import type { ListenerDeps } from './deps.js';

export function register(_app: App, _deps: ListenerDeps): void {}
