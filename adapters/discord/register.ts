// `manzil register-discord-commands`: puts the command definitions on Discord over REST alone. Logging in to the
// gateway would start a second session of the bot, and Discord sends every event to every session.
import {
  DefaultRestOptions,
  DiscordAPIError,
  HTTPError,
  OAuth2Scopes,
  PermissionFlagsBits,
  REST,
  Routes,
} from 'discord.js';
import { commandDefinitions } from './commands.js';

/**
 * What Manzil needs in a channel: to see it, to post there (alerts, digests), to show embeds, and to attach files (a
 * digest's chart is a PNG attached and shown in its embed). 52224.
 */
export const BOT_PERMISSIONS =
  PermissionFlagsBits.ViewChannel |
  PermissionFlagsBits.SendMessages |
  PermissionFlagsBits.EmbedLinks |
  PermissionFlagsBits.AttachFiles;

/** The link that adds the bot to a server, with its commands and the permissions above. */
export function inviteUrl(applicationId: string): string {
  const params = new URLSearchParams({
    client_id: applicationId,
    scope: [OAuth2Scopes.Bot, OAuth2Scopes.ApplicationsCommands].join(' '),
    permissions: BOT_PERMISSIONS.toString(),
  });
  return `https://discord.com/oauth2/authorize?${params.toString()}`;
}

export interface RegisterOptions {
  token: string;
  applicationId: string;
  /** One server (the commands appear at once), else global. */
  guildId?: string | undefined;
  /** The REST base, as for the bot (`…/api`); Discord's when unset. */
  apiUrl?: string | undefined;
}

/** Why registering failed, in one plain line for the person at the terminal (never the token: it is in no URL). */
class RegisterError extends Error {
  override readonly name = 'RegisterError';
}

/**
 * Discord answered with an error (401, 403, 400 Invalid Form Body…), or was never reached (refused, timed out, DNS).
 */
function registerError(e: unknown, apiUrl: string): RegisterError {
  const oneLine = (text: string) =>
    text
      .split(/\s*\n\s*/)
      .filter(Boolean)
      .join('; ');
  if (e instanceof DiscordAPIError || e instanceof HTTPError) {
    // discord.js's message for a bare 401 is "401: Unauthorized": the status is said once.
    return new RegisterError(
      `Discord refused: ${e.status} ${oneLine(e.message.replace(new RegExp(`^${e.status}: `), ''))}`,
    );
  }
  // undici's errors carry the system's code (ECONNREFUSED, ENOTFOUND), on themselves or on their cause.
  const code = (x: unknown) =>
    typeof x === 'object' && x !== null && typeof (x as { code?: unknown }).code === 'string'
      ? (x as { code: string }).code
      : undefined;
  const why =
    code(e) ??
    code((e as { cause?: unknown } | undefined)?.cause) ??
    (e instanceof Error && e.name === 'AbortError' ? 'timed out' : undefined);
  return new RegisterError(`could not reach Discord at ${apiUrl}${why ? ` (${why})` : ''}`);
}

/** Overwrites the application's commands (guild or global) with Manzil's; resolves with how many Discord now has. */
export async function registerDiscordCommands(
  options: RegisterOptions,
): Promise<{ count: number; scope: 'guild' | 'global' }> {
  // The builders validate every definition here, before anything is sent.
  const body = commandDefinitions();
  const rest = new REST(options.apiUrl ? { api: options.apiUrl } : {}).setToken(options.token);
  try {
    const route = options.guildId
      ? Routes.applicationGuildCommands(options.applicationId, options.guildId)
      : Routes.applicationCommands(options.applicationId);
    const created = (await rest.put(route, { body })) as unknown[];
    return { count: created.length, scope: options.guildId ? 'guild' : 'global' };
  } catch (e) {
    throw registerError(e, options.apiUrl ?? DefaultRestOptions.api);
  } finally {
    // The sweepers are intervals: cleared, so the command exits when done.
    rest.clearHashSweeper();
    rest.clearHandlerSweeper();
  }
}

/**
 * The CLI's part: register, then print what happened and the invite URL. Resolves with the exit code: 1, with one line
 * on `err` saying why, when Discord refused or could not be reached.
 */
export async function runRegisterCommands(
  options: RegisterOptions,
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  let count: number;
  let scope: 'guild' | 'global';
  try {
    ({ count, scope } = await registerDiscordCommands(options));
  } catch (e) {
    if (!(e instanceof RegisterError)) throw e;
    err(`manzil register-discord-commands: ${e.message}`);
    return 1;
  }
  out(
    scope === 'guild'
      ? `Registered ${count} commands in server ${options.guildId}; they are available there now.`
      : `Registered ${count} commands globally; Discord may take a while to show them in every server.`,
  );
  out(
    `Invite Manzil to a server (scopes bot and applications.commands; permissions View Channel, Send Messages, Embed Links, Attach Files):`,
  );
  out(inviteUrl(options.applicationId));
  return 0;
}
