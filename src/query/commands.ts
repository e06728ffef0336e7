// The slash commands, one list for every platform: the help text's command lines, Slack's manifest (checked against
// this list by test/slack/manifest.test.ts) and Discord's command definitions (adapters/discord/commands.ts) are built
// from it. Pure data. A verb-backed command runs a verb of the command language (verbs.ts); the others are managed
// things (alerts, digests) with subcommands.

/**
 * search: a verb searching an area (Discord adds a `location` option); other: a verb without one; alerts and digest:
 * subcommands.
 */
export type CommandKind = 'search' | 'alerts' | 'digest' | 'other';

export interface Subcommand {
  /** Lower case, one word: the same on every platform. */
  readonly name: string;
  /** What follows `/<command>`: `add <search>`, `pause <n>`. */
  readonly usage: string;
  /** One line within 100 characters (Discord's limit on a description). */
  readonly description: string;
  /** A setting (how often, quiet hours…): listed by `help alerts`, left out of the one line of the general help. */
  readonly setting?: true;
}

export interface SlashCommand {
  /** Without the slash, lower case: `/rent` on Slack and Discord alike. */
  readonly name: string;
  readonly kind: CommandKind;
  /** One line within 100 characters: Slack's description and Discord's. */
  readonly description: string;
  /**
   * What follows the command: Slack's usage hint (an example, for a verb); derived from the subcommands when there are
   * some.
   */
  readonly usage: string;
  /** What the command's text may be, for Discord's `query` option ("What to look for, e.g. …") and help. */
  readonly example: string;
  /** The verb of the command language it runs (`manzil` runs them all). */
  readonly verb?: string;
  readonly subcommands?: readonly Subcommand[];
}

export const ALERT_SUBCOMMANDS: readonly Subcommand[] = [
  { name: 'add', usage: 'add <search>', description: 'Save a search as an alert, e.g. rent marina 2br under 120k' },
  { name: 'list', usage: 'list', description: 'The alerts of this channel, numbered' },
  { name: 'pause', usage: 'pause <n>', description: 'Pause an alert (whoever saved it, or an admin)' },
  { name: 'resume', usage: 'resume <n>', description: 'Resume a paused alert' },
  { name: 'remove', usage: 'remove <n>', description: 'Remove an alert (whoever saved it, or an admin)' },
  { name: 'test', usage: 'test <n>', description: 'Check an alert now and show what would be posted' },
  {
    name: 'edit',
    usage: 'edit <n> <how often>',
    description: 'How often an alert posts: instant, daily at 9:00, weekly',
    setting: true,
  },
  {
    name: 'quiet',
    usage: 'quiet <from-to|off>',
    description: "This channel's quiet hours, e.g. 22:00-07:00, or off",
    setting: true,
  },
  {
    name: 'timezone',
    usage: 'timezone <zone>',
    description: "This channel's time zone for summaries, e.g. Asia/Dubai",
    setting: true,
  },
  {
    name: 'more',
    usage: 'more <n>',
    description: 'The rest of an alert’s last summary (none: the quiet-hours one)',
    setting: true,
  },
];

export const DIGEST_SUBCOMMANDS: readonly Subcommand[] = [
  {
    name: 'add',
    usage: 'add <place>[, <place>...] [daily | weekly [on] <day> | monthly] [at HH:MM]',
    description: 'Follow places in this channel: every Monday at 09:00 unless you say',
  },
  { name: 'list', usage: 'list', description: 'The digests of this channel, with their next time and cost' },
  { name: 'remove', usage: 'remove <n>', description: 'Remove a digest (whoever added it, or an admin)' },
  { name: 'pause', usage: 'pause <n>', description: 'Pause a digest (whoever added it, or an admin)' },
  { name: 'resume', usage: 'resume <n>', description: 'Resume a paused digest' },
  { name: 'now', usage: 'now <place>[, <place>...]', description: 'Post a digest of places here now, for everyone' },
];

const usageOf = (subs: readonly Subcommand[]) => subs.map((s) => s.usage).join(' | ');

/** Every slash command, in the order Slack's manifest lists them. */
export const SLASH_COMMANDS: readonly SlashCommand[] = [
  {
    name: 'manzil',
    kind: 'other',
    description: 'Everything: /manzil rent marina 2br, /manzil help',
    usage: '<verb> [filters] | help',
    example: 'help',
  },
  {
    name: 'rent',
    kind: 'search',
    verb: 'rent',
    description: 'Homes and commercial space for rent',
    usage: 'marina 2br under 120k',
    example: 'marina 2br under 120k',
  },
  {
    name: 'buy',
    kind: 'search',
    verb: 'buy',
    description: 'Property for sale',
    usage: 'downtown 1-2 br ready under 2.5m',
    example: 'downtown 1-2 br ready under 2.5m',
  },
  {
    name: 'projects',
    kind: 'search',
    verb: 'projects',
    description: 'Off-plan and new projects',
    usage: 'business bay 2br earliest handover',
    example: 'business bay 2br earliest handover',
  },
  {
    name: 'transactions',
    kind: 'search',
    verb: 'transactions',
    description: 'Sold and rented transactions',
    usage: 'sold marina 2br last 6 months',
    example: 'sold marina 2br last 6 months',
  },
  {
    name: 'trend',
    kind: 'search',
    verb: 'trend',
    description: 'Price trend of a location',
    usage: 'jvc villa',
    example: 'jvc villa',
  },
  {
    name: 'value',
    kind: 'other',
    description: 'What a home is worth and would rent for: an estimate from public records',
    usage: 'jvc 2br 1200 sqft',
    example: 'jvc 2br 1200 sqft',
  },
  {
    name: 'compare',
    kind: 'other',
    description: 'Areas side by side: prices, rents, yields, trend, listings',
    usage: '<area>, <area>[, …] [<beds>] [rent|buy]',
    example: 'marina, jlt 2br',
  },
  {
    name: 'agents',
    kind: 'other',
    verb: 'agents',
    description: 'Agents in an area',
    usage: 'marina most sales',
    example: 'marina most sales',
  },
  {
    name: 'brokers',
    kind: 'other',
    verb: 'brokers',
    description: 'Brokerages in an area',
    usage: 'downtown most listings',
    example: 'downtown most listings',
  },
  {
    name: 'developers',
    kind: 'other',
    verb: 'developers',
    description: 'Developers by emirate',
    usage: 'abu dhabi',
    example: 'abu dhabi',
  },
  {
    name: 'property',
    kind: 'other',
    verb: 'property',
    description: 'One property by id',
    usage: '15010364',
    example: '15010364',
  },
  {
    name: 'location',
    kind: 'other',
    verb: 'location',
    description: 'Look up a location',
    usage: 'jumeirah',
    example: 'jumeirah',
  },
  {
    name: 'alerts',
    kind: 'alerts',
    description: 'Saved searches that post new listings to this channel',
    usage: usageOf(ALERT_SUBCOMMANDS),
    example: 'add rent marina 2br under 120k',
    subcommands: ALERT_SUBCOMMANDS,
  },
  {
    name: 'digest',
    kind: 'digest',
    description: 'Market digests: a summary of the places this channel follows, with a chart, on a schedule',
    usage: usageOf(DIGEST_SUBCOMMANDS),
    example: 'add dubai marina, business bay weekly on friday at 18:30',
    subcommands: DIGEST_SUBCOMMANDS,
  },
];

/** A command by name, with or without its slash; `digests` and `alert` find theirs too. */
export function findSlashCommand(text: string): SlashCommand | undefined {
  const name = text.trim().toLowerCase().replace(/^\//, '');
  return SLASH_COMMANDS.find(
    (c) => c.name === name || (c.subcommands && (`${c.name}s` === name || c.name === `${name}s`)),
  );
}

/** `help alerts`, `help digest`: the command and each of its subcommands, one line each. */
export function subcommandHelp(command: SlashCommand): string {
  return [
    `/${command.name}: ${command.description}.`,
    ...(command.subcommands ?? []).map((s) => `• /${command.name} ${s.usage}: ${s.description}`),
    `e.g. /${command.name} ${command.example}`,
  ].join('\n');
}
