// Discord's outcome table: every answer POST /channels/{id}/messages can give that is not a created message, mapped to
// the one outcome the outbox acts on (see src/ports). Discord's JSON error codes (the ones a channel message can meet),
// HTTP statuses for codes not listed, network failures by the code Node and undici give them. An unknown JSON code is
// retried, never guessed rejected; a failure not recognised at all may have reached Discord: the nonce covers a
// re-send.
import { DiscordAPIError, HTTPError, RateLimitError } from 'discord.js';
import { PostFailure } from '../../src/ports/index.js';
import { describeError } from './send.js';

import {
  channel,
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

/** How long a channel waits on a 429 or a write limit that named no wait. */
export const DISCORD_DEFAULT_WAIT_MS = 10_000;

/** Discord's JSON error codes (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json). */
export const DISCORD_JSON_CODES: Readonly<Record<number, OutcomeRule>> = {
  // This channel cannot receive until a person acts: give the bot the channel back, or the server.
  10003: channel('Unknown Channel'),
  10004: channel('Unknown Guild'),
  10013: channel('Unknown User (a DM)'),
  50001: channel('Missing Access'),
  50013: channel('Missing Permissions'),
  50007: channel('Cannot send messages to this user'),
  50008: channel('Cannot send messages in a non-text channel'),
  50024: channel('Cannot execute this action on this channel type'),
  50033: channel('Invalid recipients'),
  50083: channel('The thread is archived'),
  160005: channel('The thread is locked'),
  40004: channel('Sending messages is temporarily disabled here'),

  // Our credentials: the whole of Discord is paused and GET /users/@me probed.
  40001: credentials('Unauthorized'),
  40002: credentials('The bot’s account must be verified'),

  // Not now: the channel waits.
  20016: wait('Slowmode rate limit'),
  20028: wait('The channel hit its write rate limit'),
  20029: wait('The server hit its write rate limit'),

  // The message itself (after send.ts tried the plainer forms): Discord will never take it.
  50035: rejected('Invalid Form Body'),
  50006: rejected('Cannot send an empty message'),
  50109: rejected('The body is not valid JSON'),
  40005: rejected('The request is too large'),
  50045: rejected('A file is too large'),
  50146: rejected('An uploaded file was not found'),
  10008: rejected('Unknown Message (a reply to a deleted message)'),
  20009: rejected('Explicit content cannot be sent to the recipients'),
  20031: rejected('Words that are not allowed'),
  200000: rejected('Blocked by AutoMod'),
  200001: rejected('Title blocked by AutoMod'),
  240000: rejected('Blocked by the harmful links filter'),
};

/** Statuses, for answers whose JSON code is not in the table. */
const DISCORD_HTTP_STATUS: Readonly<Record<string, OutcomeRule>> = {
  '401': credentials('HTTP 401: the token is refused'),
  '429': wait('HTTP 429: waits its retry_after'),
  '5xx': maybe('a 5xx after discord.js’s own retries: Discord may have created it'),
  '4xx': retry('a 4xx with a code not in the table: not posted'),
};

/** Failures with no HTTP answer (the table every platform shares). */
const DISCORD_NETWORK_ERRORS = networkErrors('Discord may have created it');

/**
 * discord.js forgets the token after a 401 (`REST.setToken(null)`) and then fails every call locally with this message,
 * sending nothing: the credentials are refused until a probe sets the token again.
 */
const NO_TOKEN_MESSAGE = 'Expected token to be set for this request, but none was present';
const DISCORD_NO_TOKEN: OutcomeRule = credentials('discord.js dropped the token after a 401; nothing was sent');

/** Anything else: it may have reached Discord (a re-send within the nonce window cannot duplicate it). */
const DISCORD_UNKNOWN_FAILURE: OutcomeRule = maybe('an unrecognised failure: Discord may have created it');

/** The rule for a refused request: its JSON code when the table has it, else its status. */
function ruleFor(status: number, code: number | string): OutcomeRule {
  const numeric = Number(code);
  if (Number.isInteger(numeric) && numeric !== 0 && Object.hasOwn(DISCORD_JSON_CODES, numeric))
    return DISCORD_JSON_CODES[numeric]!;
  if (status === 401 || status === 429) return DISCORD_HTTP_STATUS[String(status)]!;
  return DISCORD_HTTP_STATUS[`${Math.floor(status / 100)}xx`] ?? DISCORD_HTTP_STATUS['4xx']!;
}

function failure(rule: OutcomeRule, what: string, retryAfterMs?: number): PostFailure {
  return new PostFailure(
    `discord: ${what} (${rule.why})`,
    rule.outcome,
    rule.outcome === 'wait' ? (retryAfterMs ?? DISCORD_DEFAULT_WAIT_MS) : undefined,
  );
}

/** Any failure of a REST call as a PostFailure with its outcome, Discord's code, and never a token. */
export function discordOutcome(error: unknown): PostFailure {
  if (error instanceof PostFailure) return error;
  // Only with `rejectOnRateLimit` (app.ts sets it for long waits on channel messages): nothing was sent.
  if (error instanceof RateLimitError) {
    const ms = Math.max(error.timeToReset, error.retryAfter, error.sublimitTimeout, 0);
    return failure(
      DISCORD_HTTP_STATUS['429']!,
      `rate limited on ${error.route} for ${ms} ms${error.global ? ' (global)' : ''}`,
      ms,
    );
  }
  if (error instanceof DiscordAPIError) {
    const body = error.rawError as { retry_after?: unknown };
    const retryAfterMs = typeof body?.retry_after === 'number' ? Math.ceil(body.retry_after * 1000) : undefined;
    return failure(ruleFor(error.status, error.code), describeError(error), retryAfterMs);
  }
  if (error instanceof HTTPError) return failure(ruleFor(error.status, 0), `HTTP ${error.status}`);
  if (error instanceof Error && error.message === NO_TOKEN_MESSAGE) return failure(DISCORD_NO_TOKEN, 'no token');
  const network = networkCode(error, DISCORD_NETWORK_ERRORS);
  if (network !== undefined) return failure(DISCORD_NETWORK_ERRORS[network]!, network);
  return failure(DISCORD_UNKNOWN_FAILURE, describeError(error));
}
