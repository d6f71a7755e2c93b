/**
 * The bot token scopes vidops asks for, as manifest.yml lists them (test/manifest.test.ts keeps the
 * two equal): `vidops doctor` checks a token against them, and the Slack emulator grants them.
 * @see docs/operations.md, "Doctor"
 */
export const BOT_SCOPES = [
  'commands',
  'chat:write',
  'chat:write.public',
  'usergroups:read',
  'users:read',
  'im:write',
  'files:read',
  'channels:history',
  'groups:history',
  'channels:read',
  'groups:read',
] as const;
