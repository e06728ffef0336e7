// The slash commands Manzil registers in Discord, built with discord.js builders so that Discord's rules are checked
// before anything is sent, and the text the bot parses, rebuilt from an interaction's options.
import { SlashCommandBuilder, type RESTPostAPIChatInputApplicationCommandsJSONBody, type SlashCommandSubcommandBuilder } from 'discord.js';

/** Commands whose `query` is a search in a place: they also take a `location` option, completed as it is typed. */
export const SEARCH_COMMANDS = [
  { name: 'rent', description: 'Homes and commercial space for rent', example: 'marina 2br under 120k' },
  { name: 'buy', description: 'Property for sale', example: 'downtown 1-2 br ready under 2.5m' },
  { name: 'projects', description: 'Off-plan and new projects', example: 'business bay 2br earliest handover' },
  { name: 'transactions', description: 'Sold and rented transactions', example: 'sold marina 2br last 6 months' },
  { name: 'trend', description: 'Price trend of a location', example: 'jvc villa' },
] as const;

export const OTHER_COMMANDS = [
  { name: 'agents', description: 'Agents in an area', example: 'marina most sales' },
  { name: 'brokers', description: 'Brokerages in an area', example: 'downtown most listings' },
  { name: 'developers', description: 'Developers by emirate', example: 'abu dhabi' },
  { name: 'property', description: 'One property by id', example: '16266089' },
  { name: 'location', description: 'Look up a location', example: 'jumeirah' },
  { name: 'manzil', description: 'Everything: rent marina 2br, adrec al reem, help', example: 'help' },
] as const;

export const ALERT_SUBCOMMANDS = ['add', 'list', 'pause', 'resume', 'remove', 'test'] as const;

/** The parser reads at most 500 characters; Discord's own cap on a string option is 6,000. */
const QUERY_MAX = 500;
const LOCATION_MAX = 100;

const ALL = [...SEARCH_COMMANDS, ...OTHER_COMMANDS];
export const COMMAND_NAMES: ReadonlySet<string> = new Set([...ALL.map((c) => c.name), 'alerts']);
const SEARCH_NAMES: ReadonlySet<string> = new Set(SEARCH_COMMANDS.map((c) => c.name));

function queryCommand(c: (typeof ALL)[number], withLocation: boolean): SlashCommandBuilder {
  const b = new SlashCommandBuilder().setName(c.name).setDescription(c.description);
  b.addStringOption((o) =>
      o.setName('query').setDescription(`What to look for, e.g. ${c.example}`).setRequired(true).setAutocomplete(true).setMaxLength(QUERY_MAX));
  if (withLocation) {
    b.addStringOption((o) =>
      o.setName('location').setDescription('The place, chosen from the list as you type').setAutocomplete(true).setMaxLength(LOCATION_MAX));
  }
  return b;
}

function alertsCommand(): SlashCommandBuilder {
  const numbered = (name: string, description: string) => (s: SlashCommandSubcommandBuilder) =>
    s.setName(name).setDescription(description)
      .addIntegerOption((o) => o.setName('number').setDescription('The alert number from /alerts list').setRequired(true).setMinValue(1).setMaxValue(10_000));
  const b = new SlashCommandBuilder().setName('alerts').setDescription('Saved searches that post new listings to this channel');
  b.addSubcommand((s) => s.setName('add').setDescription('Save a search as an alert, e.g. rent marina 2br under 120k')
    .addStringOption((o) => o.setName('query').setDescription('The search, e.g. rent marina 2br under 120k').setRequired(true).setAutocomplete(true).setMaxLength(QUERY_MAX)));
  b.addSubcommand((s) => s.setName('list').setDescription('The alerts of this channel, numbered'));
  b.addSubcommand(numbered('pause', 'Pause an alert (its creator or Manage Server)'));
  b.addSubcommand(numbered('resume', 'Resume a paused alert'));
  b.addSubcommand(numbered('remove', 'Remove an alert (its creator or Manage Server)'));
  b.addSubcommand(numbered('test', 'Check an alert now and show what would be posted'));
  return b;
}

/** Every command definition as Discord's JSON; the builders' validators run here and throw on a broken definition. */
export function commandDefinitions(): RESTPostAPIChatInputApplicationCommandsJSONBody[] {
  return [
    ...SEARCH_COMMANDS.map((c) => queryCommand(c, true).toJSON()),
    ...OTHER_COMMANDS.map((c) => queryCommand(c, false).toJSON()),
    alertsCommand().toJSON(),
  ];
}

/** What an interaction said, as plain values (the listener reads them off discord.js's option resolver). */
export interface CommandInput {
  name: string;
  subcommand?: string | null | undefined;
  query?: string | null | undefined;
  location?: string | null | undefined;
  number?: number | null | undefined;
}

/**
 * The text the bot parses, as if typed in Slack: `/rent marina 2br`, `/manzil adrec`, `/alerts add rent marina`,
 * `/alerts pause 2`. The `location` option is not part of it: it goes to the bot apart (chosenLocation).
 */
export function commandText(input: CommandInput): string {
  const query = (input.query ?? '').trim();
  if (input.name === 'alerts') {
    const sub = input.subcommand ?? '';
    const arg = sub === 'add' ? query : input.number != null ? String(input.number) : '';
    return `/alerts ${sub} ${arg}`.trim();
  }
  return [`/${input.name}`, query].filter(Boolean).join(' ');
}

/**
 * The place picked in the `location` option of a search command (`<id>:<name>` when picked from the list, else the
 * text typed), for the bot's CommandRequest.location; undefined on other commands or when blank.
 */
export function chosenLocation(input: CommandInput): string | undefined {
  const location = input.location?.trim();
  return SEARCH_NAMES.has(input.name) && location ? location : undefined;
}
