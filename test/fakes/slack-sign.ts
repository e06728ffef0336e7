// Requests as Slack sends them: form-encoded, signed with the app's signing secret.
import { createHmac } from 'node:crypto';
import { request } from 'undici';

export interface SignedPostOptions {
  /** Seconds since the epoch; Slack rejects requests older than five minutes. */
  timestamp?: number;
  /** Sign with this secret instead (a forgery). */
  secret?: string;
}

export function sign(secret: string, timestamp: number, body: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

export async function signedPost(
  url: string,
  secret: string,
  form: Record<string, string>,
  options: SignedPostOptions = {},
) {
  const body = new URLSearchParams(form).toString();
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const res = await request(url, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': sign(options.secret ?? secret, timestamp, body),
    },
  });
  const text = await res.body.text();
  return { status: res.statusCode, text };
}

/**
 * Slack sends `&`, `<` and `>` typed in a command as HTML entities (should_escape only governs @mentions and
 * #channels).
 */
export function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A slash command as Slack posts it; `text` is what the person typed, escaped here as Slack escapes it. */
export function slashCommand(
  command: string,
  text: string,
  responseUrl: string,
  overrides: Record<string, string> = {},
) {
  return {
    token: 'legacy-verification-token',
    team_id: 'T0TEST',
    team_domain: 'manzil-test',
    channel_id: 'C0DEALS',
    channel_name: 'deals',
    user_id: 'U0ALICE',
    user_name: 'alice',
    command,
    text: escapeSlack(text),
    api_app_id: 'A0MANZIL',
    response_url: responseUrl,
    trigger_id: '1.2.3',
    ...overrides,
  };
}

/** A button press; `overrides` replace top-level fields of the payload (`team: null`, a DM `channel`...). */
export function blockAction(
  actionId: string,
  value: string,
  responseUrl: string,
  blockId = 'b1',
  overrides: Record<string, unknown> = {},
) {
  return {
    payload: JSON.stringify({
      type: 'block_actions',
      user: { id: 'U0ALICE', username: 'alice', team_id: 'T0TEST' },
      team: { id: 'T0TEST', domain: 'manzil-test' },
      channel: { id: 'C0DEALS', name: 'deals' },
      api_app_id: 'A0MANZIL',
      token: 'legacy-verification-token',
      response_url: responseUrl,
      trigger_id: '1.2.3',
      container: { type: 'message', message_ts: '1700000000.000100', channel_id: 'C0DEALS' },
      actions: [{ type: 'button', action_id: actionId, block_id: blockId, value, action_ts: '1700000001.000200' }],
      ...overrides,
    }),
  };
}

export function blockSelect(actionId: string, blockId: string, selectedValue: string, responseUrl: string) {
  return {
    payload: JSON.stringify({
      type: 'block_actions',
      user: { id: 'U0ALICE', username: 'alice', team_id: 'T0TEST' },
      team: { id: 'T0TEST', domain: 'manzil-test' },
      channel: { id: 'C0DEALS', name: 'deals' },
      api_app_id: 'A0MANZIL',
      token: 'legacy-verification-token',
      response_url: responseUrl,
      trigger_id: '1.2.3',
      container: { type: 'message', message_ts: '1700000000.000100', channel_id: 'C0DEALS' },
      actions: [
        {
          type: 'external_select',
          action_id: actionId,
          block_id: blockId,
          selected_option: { text: { type: 'plain_text', text: 'x' }, value: selectedValue },
          action_ts: '1700000001.000200',
        },
      ],
    }),
  };
}

/** Typing into an external select; `from` names another person and workspace than Alice of T0TEST. */
export function blockSuggestion(
  actionId: string,
  blockId: string,
  value: string,
  from: { user?: string; team?: string } = {},
) {
  const user = from.user ?? 'U0ALICE';
  const team = from.team ?? 'T0TEST';
  return {
    payload: JSON.stringify({
      type: 'block_suggestion',
      user: { id: user, team_id: team },
      team: { id: team, domain: 'manzil-test' },
      channel: { id: 'C0DEALS' },
      api_app_id: 'A0MANZIL',
      token: 'legacy-verification-token',
      action_id: actionId,
      block_id: blockId,
      value,
      container: { type: 'message', message_ts: '1700000000.000100', channel_id: 'C0DEALS' },
    }),
  };
}

/** A modal submitted (view_submission): `values` as Slack's state has them, block by block (`{ area: { v: … } }`). */
export function viewSubmission(
  view: { id: string; view: Record<string, unknown> },
  values: Record<string, Record<string, unknown>>,
  user = 'U0ALICE',
) {
  return {
    payload: JSON.stringify({
      type: 'view_submission',
      team: { id: 'T0TEST', domain: 'manzil-test' },
      user: { id: user, username: user.toLowerCase(), team_id: 'T0TEST' },
      api_app_id: 'A0MANZIL',
      token: 'legacy-verification-token',
      trigger_id: 'submit.trigger',
      view: { ...view.view, id: view.id, state: { values } },
    }),
  };
}
