// View submissions (`app.view(...)`): the alert and digest forms, read and run by ../forms.ts.
import type { App } from '@slack/bolt';
import { ALERT_CALLBACK, DIGEST_CALLBACK } from '../form-views.js';
import type { ListenerDeps } from './deps.js';

export function register(app: App, { forms }: ListenerDeps): void {
  app.view(ALERT_CALLBACK, forms.submit('alert'));
  app.view(DIGEST_CALLBACK, forms.submit('digest'));
}
