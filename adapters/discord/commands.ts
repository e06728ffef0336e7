// The slash commands Manzil registers in Discord, built with discord.js builders so that Discord's rules are checked
// before anything is sent; what an interaction's options say: the text of a search command, or the command value of
// an `/alerts` or `/digest` subcommand (orderOf), built from the options with no text in between.
import {
  SlashCommandBuilder,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
  type SlashCommandSubcommandBuilder,
} from 'discord.js';
import { SLASH_COMMANDS, type SlashCommand } from '../../src/bot/index.js';
import {
  areaList,
  type AlertCommand,
  personalWords,
  type DayName,
  type DigestWhen,
  type OrderCommand,
  type OrderKind,
  type SharedCommand,
} from '../../src/ports/index.js';

// The commands themselves (names, descriptions, examples, subcommands) come from the one list in src/query/commands.ts,
// shared with help and Slack's manifest; only Discord's options are decided here.

/** Commands whose `query` is a search in an area: they also take a `location` option, completed as it is typed. */
export const SEARCH_COMMANDS = SLASH_COMMANDS.filter((c) => c.kind === 'search');

/** The other verb-backed commands, `/manzil` among them: one `query` option. */
export const OTHER_COMMANDS = SLASH_COMMANDS.filter((c) => c.kind === 'other');

const subcommandNames = (name: string): readonly string[] =>
  SLASH_COMMANDS.find((c) => c.name === name)?.subcommands?.map((s) => s.name) ?? [];
export const ALERT_SUBCOMMANDS = subcommandNames('alerts');

/** `/digest add`'s choices, as the core reads them (`weekly on friday`). */
export const DIGEST_SCHEDULES = ['daily', 'weekly', 'monthly'] as const;
export const DIGEST_DAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const satisfies readonly DayName[];

/** The parser reads at most 500 characters; Discord's own cap on a string option is 6,000. */
const QUERY_MAX = 500;
const LOCATION_MAX = 100;

/** `09:00`, `6:30 pm`: the core reads the time and says when it is not one. */
const TIME_MAX = 8;

export const COMMAND_NAMES: ReadonlySet<string> = new Set(SLASH_COMMANDS.map((c) => c.name));
const SEARCH_NAMES: ReadonlySet<string> = new Set(SEARCH_COMMANDS.map((c) => c.name));

function queryCommand(c: SlashCommand, withLocation: boolean): SlashCommandBuilder {
  const b = new SlashCommandBuilder().setName(c.name).setDescription(c.description);
  b.addStringOption((o) =>
    o
      .setName('query')
      .setDescription(`What to look for, e.g. ${c.example}`)
      .setRequired(true)
      .setAutocomplete(true)
      .setMaxLength(QUERY_MAX),
  );
  if (withLocation) {
    b.addStringOption((o) =>
      o
        .setName('location')
        .setDescription('The place, chosen from the list as you type')
        .setAutocomplete(true)
        .setMaxLength(LOCATION_MAX),
    );
  }
  return b;
}

type SubcommandOptions = (s: SlashCommandSubcommandBuilder) => SlashCommandSubcommandBuilder;

const numbered =
  (what: string): SubcommandOptions =>
  (s) =>
    s.addIntegerOption((o) =>
      o
        .setName('number')
        .setDescription(`The ${what} number from /${what === 'alert' ? 'alerts' : what} list`)
        .setRequired(true)
        .setMinValue(1)
        .setMaxValue(10_000),
    );

/** An alert's number, and whether it is one of the person's own (to their DMs, "to me" in the list). */
const numberedAlert: SubcommandOptions = (s) =>
  numbered('alert')(s).addBooleanOption((o) =>
    o.setName('mine').setDescription('Your own alert, sent to your direct messages ("to me" in the list)'),
  );

const areas: SubcommandOptions = (s) =>
  s.addStringOption((o) =>
    o
      .setName('places')
      .setDescription('Places, comma-separated, e.g. dubai marina, business bay (chosen as you type)')
      .setRequired(true)
      .setAutocomplete(true)
      .setMaxLength(QUERY_MAX),
  );

/** The options of each subcommand; a subcommand not named here takes none. */
const SUBCOMMAND_OPTIONS: Readonly<Record<'alerts' | 'digest', Readonly<Record<string, SubcommandOptions>>>> = {
  alerts: {
    add: (s) =>
      s
        .addStringOption((o) =>
          o
            .setName('query')
            .setDescription('The search, e.g. rent marina 2br under 120k')
            .setRequired(true)
            .setAutocomplete(true)
            .setMaxLength(QUERY_MAX),
        )
        .addBooleanOption((o) =>
          o.setName('for_me').setDescription('Send it to your direct messages rather than to this channel'),
        ),
    pause: numberedAlert,
    resume: numberedAlert,
    remove: numberedAlert,
    test: numberedAlert,
    edit: (s) =>
      numbered('alert')(s)
        .addStringOption((o) =>
          o
            .setName('every')
            .setDescription('instant, daily at 9:00, or weekly on sunday at 8:00 (none: open the form to edit it all)')
            .setMaxLength(TIME_MAX * 8),
        )
        .addBooleanOption((o) =>
          o.setName('mine').setDescription('Your own alert, sent to your direct messages ("to me" in the list)'),
        ),
    quiet: (s) =>
      s.addStringOption((o) =>
        o
          .setName('hours')
          .setDescription('e.g. 22:00-07:00, or off (none: show them)')
          .setMaxLength(TIME_MAX * 4),
      ),
    timezone: (s) =>
      s.addStringOption((o) =>
        o
          .setName('zone')
          .setDescription('e.g. Asia/Dubai, or default (none: show it)')
          .setMaxLength(TIME_MAX * 8),
      ),
    more: (s) =>
      s
        .addIntegerOption((o) =>
          o
            .setName('number')
            .setDescription("The alert whose last summary to continue (none: the quiet hours' one)")
            .setMinValue(1)
            .setMaxValue(10_000),
        )
        .addIntegerOption((o) => o.setName('page').setDescription('Which page (1 unless you say)').setMinValue(1)),
  },
  digest: {
    add: (s) =>
      areas(s)
        .addStringOption((o) =>
          o
            .setName('schedule')
            .setDescription('How often: weekly unless you say')
            .addChoices(...DIGEST_SCHEDULES.map((v) => ({ name: v, value: v }))),
        )
        .addStringOption((o) =>
          o
            .setName('day')
            .setDescription('The day of a weekly digest: Monday unless you say')
            .addChoices(...DIGEST_DAYS.map((v) => ({ name: v, value: v }))),
        )
        .addStringOption((o) =>
          o.setName('time').setDescription('The time of day, HH:MM (09:00 unless you say)').setMaxLength(TIME_MAX),
        ),
    now: areas,
    edit: numbered('digest'),
    pause: numbered('digest'),
    resume: numbered('digest'),
    remove: numbered('digest'),
  },
};

/**
 * Discord's own subcommands beside the shared ones: the forms' (form-listeners.ts). `new` opens an empty form, and
 * `/digest edit number:2` a digest's edit form (the typed `/digest edit` takes its places and schedule as words).
 */
const FORM_SUBCOMMANDS: Readonly<Record<'alerts' | 'digest', readonly { name: string; description: string }[]>> = {
  alerts: [{ name: 'new', description: 'Open a form to make an alert: the search, its price, how often, where' }],
  digest: [
    { name: 'new', description: 'Open a form to make a digest: its places, how often and the time' },
    { name: 'edit', description: 'Open a form to change a digest: its places, how often and the time' },
  ],
};

/** `/alerts` and `/digest`: one subcommand each, with the options above. */
function subcommandsCommand(c: SlashCommand, kind: 'alerts' | 'digest'): SlashCommandBuilder {
  const b = new SlashCommandBuilder().setName(c.name).setDescription(c.description);
  for (const sub of [...(c.subcommands ?? []), ...FORM_SUBCOMMANDS[kind]]) {
    const options = SUBCOMMAND_OPTIONS[kind][sub.name];
    b.addSubcommand((s) => {
      s.setName(sub.name).setDescription(sub.description);
      return options ? options(s) : s;
    });
  }
  return b;
}

function definition(c: SlashCommand): SlashCommandBuilder {
  switch (c.kind) {
    case 'search':
      return queryCommand(c, true);
    case 'other':
      return queryCommand(c, false);
    case 'alerts':
    case 'digest':
      return subcommandsCommand(c, c.kind);
  }
}

/** Every command definition as Discord's JSON; the builders' validators run here and throw on a broken definition. */
export function commandDefinitions(): RESTPostAPIChatInputApplicationCommandsJSONBody[] {
  return SLASH_COMMANDS.map((c) => definition(c).toJSON());
}

/** What an interaction said, as plain values (the listener reads them off discord.js's option resolver). */
export interface CommandInput {
  name: string;
  subcommand?: string | null | undefined;
  query?: string | null | undefined;
  location?: string | null | undefined;
  number?: number | null | undefined;
  /** `/alerts add`'s `for_me`, or the numbered subcommands' `mine`: a personal alert, to the person's DMs. */
  mine?: boolean | null | undefined;
  /** `/digest add` and `/digest now`: the areas, comma-separated; with add, the schedule, day and time of day. */
  areas?: string | null | undefined;
  schedule?: string | null | undefined;
  day?: string | null | undefined;
  time?: string | null | undefined;
  /** `/alerts edit`'s how often, `quiet`'s hours, `timezone`'s zone, `more`'s page. */
  every?: string | null | undefined;
  hours?: string | null | undefined;
  zone?: string | null | undefined;
  page?: number | null | undefined;
}

const SCHEDULES: Readonly<Record<string, DigestWhen['every']>> = { daily: 'day', weekly: 'week', monthly: 'month' };

/**
 * When a digest is posted, from its options: a day makes it weekly unless another schedule is picked, which wins
 * (Discord cannot tie one option to another; the reply says the schedule saved).
 */
function whenOf(input: CommandInput): DigestWhen {
  const every = SCHEDULES[input.schedule?.trim().toLowerCase() ?? ''];
  const day = DIGEST_DAYS.find((d) => d === input.day?.trim().toLowerCase());
  const time = input.time?.trim();
  const when: DigestWhen =
    every === 'day' || every === 'month' ? { every } : day ? { every: 'week', day } : every ? { every } : {};
  return time ? { ...when, time } : when;
}

/** The subcommands every kind shares: list, resume (a number or none), pause and remove (a number). */
function sharedOrder<K extends OrderKind>(
  kind: K,
  sub: string,
  number: number | undefined,
): SharedCommand<K> | undefined {
  if (sub === 'list') return { kind, sub };
  if (sub === 'resume') return number === undefined ? { kind, sub } : { kind, sub, number };
  if ((sub === 'pause' || sub === 'remove') && number !== undefined) return { kind, sub, number };
  return undefined;
}

/** `/alerts edit`, `quiet`, `timezone` and `more` from their options (issue 40's settings). */
function alertSetting(input: CommandInput, number: number | undefined, me: { to?: 'me' }): AlertCommand | undefined {
  const sub = input.subcommand ?? '';
  if (sub === 'edit' && number !== undefined)
    return { kind: 'alert', sub, number, every: input.every?.trim() ?? '', ...me };
  if (sub === 'quiet') return { kind: 'alert', sub, hours: input.hours?.trim() ?? '' };
  if (sub === 'timezone') return { kind: 'alert', sub, zone: input.zone?.trim() ?? '' };
  if (sub === 'more') return { kind: 'alert', sub, which: number ?? 'quiet', page: Math.max(1, input.page ?? 1) };
  return undefined;
}

/**
 * The command an `/alerts` or `/digest` interaction's options say, built from them with no text in between:
 * `{ kind: 'alert', sub: 'pause', number: 2 }`. Undefined on the other commands, and on a subcommand this release
 * does not know (an older registration), which then goes as its words (commandText) and is answered as typed.
 */
export function orderOf(input: CommandInput): OrderCommand | undefined {
  const sub = input.subcommand ?? '';
  const number = input.number ?? undefined;
  if (input.name === 'alerts') {
    const me = input.mine === true ? { to: 'me' as const } : {};
    if (sub === 'add') {
      // "me rent marina", "rent marina privately" in the query say the same as the option.
      const { to, search } = personalWords(input.query ?? '');
      return { kind: 'alert', sub, search, ...(to ? { to } : me) };
    }
    if (sub === 'test' && number !== undefined) return { kind: 'alert', sub, number, ...me };
    const setting = alertSetting(input, number, me);
    if (setting) return setting;
    const shared = sharedOrder('alert', sub, number);
    return shared && 'number' in shared && shared.number !== undefined ? { ...shared, ...me } : shared;
  }
  if (input.name !== 'digest') return undefined;
  const areas = areaList(input.areas ?? '');
  if (sub === 'add') return { kind: 'digest', sub, areas, when: whenOf(input) };
  if (sub === 'now') return { kind: 'digest', sub, areas };
  return sharedOrder('digest', sub, number);
}

/**
 * The text the bot parses, as if typed in Slack: `/rent marina 2br`, `/manzil adrec`. The `location` option is not
 * part of it: it goes to the bot apart (chosenLocation). `/alerts` and `/digest` go as a command (orderOf); their text
 * is only the command's name for the logs, or, for a subcommand this release does not know, what is answered.
 */
export function commandText(input: CommandInput): string {
  if (input.name === 'alerts' || input.name === 'digest') return `/${input.name} ${input.subcommand ?? ''}`.trim();
  const query = (input.query ?? '').trim();
  return [`/${input.name}`, query].filter(Boolean).join(' ');
}

/**
 * The area picked in the `location` option of a search command (`<id>:<name>` when picked from the list, else the
 * text typed), for the bot's CommandRequest.location; undefined on other commands or when blank.
 */
export function chosenLocation(input: CommandInput): string | undefined {
  const location = input.location?.trim();
  return SEARCH_NAMES.has(input.name) && location ? location : undefined;
}
