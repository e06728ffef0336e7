// The bot scopes Manzil asks for, in manifest.json and at Add to Slack alike (test/slack/manifest.test.ts keeps them
// equal).
export const SLACK_SCOPES = [
  'commands',
  'chat:write',
  'chat:write.public',
  'users:read',
  'channels:history',
  'groups:history',
  'im:history',
  'mpim:history',
  'files:write',
  // Personal alerts: conversations.open, to open a person's DM with the app.
  'im:write',
] as const;
