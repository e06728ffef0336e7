// Add to Slack's configuration rules, apart from config.ts: the OAuth values together, and a usable encryption key.
import { parseKey } from './store/sealing.js';

export const splitList = (v: string | undefined): string[] =>
  (v ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/**
 * "Add to Slack": the three OAuth values together, the signing secret, a usable encryption key, and no single token.
 */
export function oauthProblems(e: { [k: string]: unknown }): string[] {
  const problems: string[] = [];
  const missing = ['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET', 'SLACK_STATE_SECRET', 'SLACK_SIGNING_SECRET'].filter(
    (k) => !e[k],
  );
  if (missing.length)
    problems.push(
      `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing: Add to Slack needs SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_STATE_SECRET and SLACK_SIGNING_SECRET`,
    );
  if (e.SLACK_BOT_TOKEN)
    problems.push(
      'SLACK_BOT_TOKEN is set along with SLACK_CLIENT_ID: use one workspace (the token) or Add to Slack (OAuth), not both',
    );
  if (e.SLACK_APP_TOKEN)
    problems.push(
      'SLACK_APP_TOKEN is set along with SLACK_CLIENT_ID: Add to Slack needs Slack to reach Manzil over HTTP, not Socket Mode',
    );
  if (!e.MANZIL_ENCRYPTION_KEY)
    problems.push(
      "MANZIL_ENCRYPTION_KEY is missing: Add to Slack keeps each workspace's token in the database, sealed with it (make one: openssl rand -hex 32)",
    );
  for (const [name, value] of [
    ['MANZIL_ENCRYPTION_KEY', e.MANZIL_ENCRYPTION_KEY],
    ...splitList(e.MANZIL_ENCRYPTION_KEY_PREVIOUS as string | undefined).map((v) => [
      'MANZIL_ENCRYPTION_KEY_PREVIOUS',
      v,
    ]),
  ] as [string, unknown][]) {
    if (typeof value === 'string' && !parseKey(value))
      problems.push(
        `${name} is not a 32-byte key: give 64 hex digits or 44 characters of base64 (openssl rand -hex 32)`,
      );
  }
  return problems;
}
