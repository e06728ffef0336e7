// Slack's outcome table: every answer chat.postMessage can give that is not a posted message, mapped to the one outcome
// the outbox acts on (see src/ports). Error codes from Slack's chat.postMessage reference (and the Web API's general
// ones); HTTP statuses; network failures by the code Node and undici give them. A code not listed is retried, never
// guessed rejected; a failure not recognised at all may have reached Slack, so it is looked for before a re-send.
import { webApi } from '@slack/bolt';
import { PostFailure } from '../../src/ports/index.js';

import {
  causes,
  channel,
  content,
  credentials,
  maybe,
  networkCode,
  networkErrors,
  rejected,
  retry,
  wait,
  type OutcomeRule,
} from '../shared/outcomes.js';

export type { OutcomeRule } from '../shared/outcomes.js';

/** How long to wait when Slack says `ratelimited` in a 200 answer, which carries no Retry-After. */
export const SLACK_DEFAULT_WAIT_MS = 30_000;

/** `{ ok: false, error }` answers, by error code. */
export const SLACK_ERROR_CODES: Readonly<Record<string, OutcomeRule>> = {
  // Slack may have done it all the same ("some aspect of the operation may have succeeded").
  internal_error: maybe('Slack failed midway; the message may be posted'),
  fatal_error: maybe('Slack failed midway; the message may be posted'),
  service_unavailable: maybe('Slack was unavailable midway; the message may be posted'),
  request_timeout: maybe('Slack timed out reading the call; the message may be posted'),

  // Not now: the whole channel waits, no attempt spent.
  ratelimited: wait('rate limited (no Retry-After in a 200 answer)'),
  rate_limited: wait('rate limited (no Retry-After in a 200 answer)'),
  message_limit_exceeded: wait('the workspace posted too many messages for now'),

  // Transient on Slack's side, and surely not posted.
  team_added_to_org: retry('the workspace is migrating to an Enterprise org; the API is intermittently unavailable'),

  // This channel cannot receive until a person acts (invite the app, unarchive, change a channel setting).
  channel_not_found: channel('no such channel, or the app cannot see it'),
  duplicate_channel_not_found: channel('no such channel'),
  channel_is_archived: channel('the channel is archived (the name some methods use for is_archived)'),
  not_in_channel: channel('the app is not in the channel'),
  is_archived: channel('the channel is archived'),
  no_permission: channel('the app may not post in this conversation'),
  access_denied: channel('access to the channel is denied'),
  restricted_action: channel('a workspace preference prevents the app from posting here'),
  restricted_action_read_only_channel: channel('the channel is read-only'),
  restricted_action_thread_only_channel: channel('the channel takes thread replies only'),
  restricted_action_non_threadable_channel: channel('the channel takes no threads'),
  restricted_action_thread_locked: channel('the thread is locked'),
  ekm_access_denied: channel('administrators suspended posting (EKM)'),
  messages_tab_disabled: channel('the app’s Messages tab is off: no DM'),
  send_on_behalf_not_allowed: channel('posting on behalf of others is not allowed here'),
  app_access_restricted: channel('the app’s access is restricted here'),
  enterprise_is_restricted: channel('the method cannot be called from this Enterprise'),
  team_not_found: channel('the channel’s workspace is unknown'),

  // The platform refused our credentials: the whole of Slack is paused and auth.test probed.
  invalid_auth: credentials('the token is invalid, or the request came from a disallowed IP'),
  not_authed: credentials('no token was sent'),
  account_inactive: credentials('the token’s user or workspace is deleted'),
  token_revoked: credentials('the token was revoked or the app removed'),
  token_expired: credentials('the token expired'),
  team_access_not_granted: credentials('the token has no access to this workspace'),
  org_login_required: credentials('the workspace is migrating to an Enterprise org'),
  two_factor_setup_required: credentials('two-factor setup is required'),
  not_allowed_token_type: credentials('the token is of the wrong type'),
  missing_scope: credentials('the token lacks chat:write (reinstall the app)'),
  accesslimited: credentials('the API is limited on the current network'),

  // The message's content: a plainer form may pass (send.ts tries those first); if none does, it never will.
  invalid_blocks: content('Slack refused the blocks'),
  invalid_blocks_format: content('the blocks are not valid Block Kit JSON'),
  msg_too_long: content('the text is too long'),
  msg_blocks_too_long: content('the blocks are too long'),
  no_text: content('no text'),
  invalid_attachments: content('the attachments are invalid'),
  too_many_attachments: content('more than 100 attachments'),
  attachment_payload_limit_exceeded: content('the attachments are too large'),

  // The call itself is wrong and will be every time: Slack will never take this message as sent.
  invalid_arguments: rejected('invalid arguments'),
  invalid_arg_name: rejected('an argument name Slack does not accept'),
  invalid_array_arg: rejected('an array argument Slack does not accept'),
  invalid_charset: rejected('an invalid charset'),
  invalid_form_data: rejected('invalid form data'),
  invalid_post_type: rejected('an invalid Content-Type'),
  missing_post_type: rejected('no Content-Type'),
  invalid_metadata_format: rejected('the metadata is malformed'),
  invalid_metadata_schema: rejected('the metadata does not match its schema'),
  metadata_too_large: rejected('the metadata is too large'),
  metadata_must_be_sent_from_app: rejected('metadata needs an app token'),
  markdown_text_conflict: rejected('markdown_text with text or blocks'),
  too_many_contact_cards: rejected('too many contact cards'),
  missing_file_data: rejected('a file without data'),
  as_user_not_supported: rejected('as_user does not work for this app'),
  cannot_reply_to_message: rejected('this message cannot be replied to'),
  duplicate_message_not_found: rejected('the message to duplicate is unknown'),
  draft_not_found: rejected('the draft is unknown'),
  draft_already_sent: rejected('the draft was already sent'),
  draft_already_deleted: rejected('the draft was deleted'),
  draft_has_conflict: rejected('the draft has a conflict'),
  agent_prompt_display_not_allowed: rejected('agent prompts may not be shown here'),
  slack_connect_file_link_sharing_blocked: rejected('a Slack Connect channel refuses Slack file links'),
  slack_connect_canvas_sharing_blocked: rejected('a Slack Connect channel refuses canvases'),
  slack_connect_lists_sharing_blocked: rejected('a Slack Connect channel refuses lists'),
  method_deprecated: rejected('the method is deprecated'),
  deprecated_endpoint: rejected('the endpoint is deprecated'),
};

/** An error code not in the table: retried (with backoff), never guessed rejected. */
const SLACK_UNKNOWN_CODE: OutcomeRule = retry('an error code not in the table');

/** Answers other than 200, by status (`429`) or class (`5xx`). Slack's Web API answers 200 to nearly everything. */
const SLACK_HTTP_STATUS: Readonly<Record<string, OutcomeRule>> = {
  '429': wait('HTTP 429: waits its Retry-After (the default when it has none)'),
  '5xx': maybe('a 5xx: Slack may have posted it before failing'),
  '4xx': retry('a 4xx other than 429 (a proxy, most likely): not posted'),
  '3xx': retry('a redirect, refused by the client: not posted'),
};

/** Failures with no HTTP answer (the table every platform shares). */
const SLACK_NETWORK_ERRORS = networkErrors('Slack may have posted it');

/** Anything else (an error the client never documented): it may have reached Slack, so it is looked for first. */
const SLACK_UNKNOWN_FAILURE: OutcomeRule = maybe('an unrecognised failure: Slack may have posted it');

/** Slack's error code in a `{ ok: false }` answer, if that is what this is. */
export function slackErrorCode(error: unknown): string | undefined {
  return error instanceof webApi.WebAPIPlatformError ? String(error.data.error) : undefined;
}

/** The rule for an error code (the unknown-code rule when the table has none). */
export function ruleForCode(code: string): OutcomeRule {
  return Object.hasOwn(SLACK_ERROR_CODES, code) ? SLACK_ERROR_CODES[code]! : SLACK_UNKNOWN_CODE;
}

function failure(rule: OutcomeRule, what: string, retryAfterMs?: number): PostFailure {
  return new PostFailure(
    `slack: ${what} (${rule.why})`,
    rule.outcome,
    rule.outcome === 'wait' ? (retryAfterMs ?? SLACK_DEFAULT_WAIT_MS) : undefined,
  );
}

/** Any failure of a Web API call as a PostFailure with its outcome, Slack's error code, and never a token. */
export function slackOutcome(error: unknown): PostFailure {
  if (error instanceof PostFailure) return error;
  if (error instanceof webApi.WebAPIRateLimitedError)
    return failure(SLACK_HTTP_STATUS['429']!, `HTTP 429, Retry-After ${error.retryAfter} s`, error.retryAfter * 1000);
  const code = slackErrorCode(error);
  if (code !== undefined) return failure(ruleForCode(code), code);
  if (error instanceof webApi.WebAPIHTTPError) {
    const status = error.statusCode;
    const rule =
      status === 429
        ? SLACK_HTTP_STATUS['429']!
        : (SLACK_HTTP_STATUS[`${Math.floor(status / 100)}xx`] ?? SLACK_UNKNOWN_FAILURE);
    return failure(rule, `HTTP ${status}`);
  }
  // A 429 whose Retry-After the client could not read: it throws a plain Error saying so.
  if (error instanceof Error && /Retry header did not contain a valid timeout/.test(error.message))
    return failure(SLACK_HTTP_STATUS['429']!, 'HTTP 429 without a valid Retry-After');
  // The client refuses redirects (`redirect: 'error'`): fetch fails with "unexpected redirect" as the cause.
  if ([...causes(error)].some((e) => e.message === 'unexpected redirect'))
    return failure(SLACK_HTTP_STATUS['3xx']!, 'a redirect');
  const network = networkCode(error, SLACK_NETWORK_ERRORS);
  if (network !== undefined) return failure(SLACK_NETWORK_ERRORS[network]!, network);
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return failure(SLACK_UNKNOWN_FAILURE, message.replace(/xox[a-z]-[\w-]+/g, 'xox…'));
}
