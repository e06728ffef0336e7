// The slash commands Manzil registers in Slack: `/manzil <verb> ...` and one shortcut per common verb.
export const SLASH_COMMANDS = [
  { command: '/manzil', description: 'Everything: /manzil rent marina 2br, /manzil help', usage: '<verb> [filters] | help' },
  { command: '/rent', description: 'Homes and commercial space for rent', usage: 'marina 2br under 120k' },
  { command: '/buy', description: 'Property for sale', usage: 'downtown 1-2 br ready under 2.5m' },
  { command: '/projects', description: 'Off-plan and new projects', usage: 'business bay 2br earliest handover' },
  { command: '/transactions', description: 'Sold and rented transactions', usage: 'sold marina 2br last 6 months' },
  { command: '/trend', description: 'Price trend of a location', usage: 'jvc villa' },
  { command: '/agents', description: 'Agents in an area', usage: 'marina most sales' },
  { command: '/brokers', description: 'Brokerages in an area', usage: 'downtown most listings' },
  { command: '/developers', description: 'Developers by emirate', usage: 'abu dhabi' },
  { command: '/property', description: 'One property by id', usage: '16266089' },
  { command: '/location', description: 'Look up a location', usage: 'jumeirah' },
  { command: '/alerts', description: 'Saved searches: /alerts add rent marina 2br, list, pause, resume, remove, test', usage: 'add <search> | list | pause | resume | remove | test' },
] as const;

/** Slack sends `&`, `<` and `>` in command text as HTML entities, whatever `should_escape` says. */
const ENTITIES: Readonly<Record<string, string>> = { '&amp;': '&', '&lt;': '<', '&gt;': '>' };

/** Undoes Slack's escaping in one pass, so `&amp;lt;` (a typed "&lt;") stays "&lt;". */
export function unescapeSlack(text: string): string {
  return text.replace(/&(?:amp|lt|gt);/g, (entity) => ENTITIES[entity]!);
}

/** The text the bot parses: the command and what followed it, as the person typed them. */
export function commandText(command: string, text: string): string {
  return `${command} ${unescapeSlack(text)}`.trim();
}
