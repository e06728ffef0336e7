// Options requests (block_suggestion): what an area picker offers as the person types (a message's, a form's).
import type { App, SlackOptionsMiddlewareArgs } from '@slack/bolt';
import { FORM_AREA_ACTION } from '../form-views.js';
import { actionChannel, type ListenerDeps } from './deps.js';

/** Slack gives an options request 3 s; answer within 2.5 s with what we have. */
const SUGGEST_DEADLINE_MS = 2_500 - 300;

export function register(app: App, deps: ListenerDeps): void {
  const { bot, forms } = deps;
  app.options(FORM_AREA_ACTION, forms.area);
  app.options('manzil:location', async ({ ack, body, options }: SlackOptionsMiddlewareArgs<'block_suggestion'>) => {
    const timeout = new Promise<[]>((resolve) => setTimeout(() => resolve([]), SUGGEST_DEADLINE_MS).unref());
    // What the suggestions cost is the workspace's; typing from nowhere in particular gets none.
    const channel = actionChannel(body);
    const found = channel
      ? await Promise.race([bot.suggestLocations({ user: body.user.id, channel, typed: options.value }), timeout])
      : [];
    await ack({
      options: found.map((o) => ({ text: { type: 'plain_text' as const, text: o.label }, value: o.value })),
    });
  });
}
