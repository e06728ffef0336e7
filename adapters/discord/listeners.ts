// discord.js listeners: answer within Discord's 3 s (at once, or defer at once), hand the request to the bot, send back
// what it says.
// Nothing else lives here: no service or store calls of their own.
import {
  Events,
  MessageFlags,
  PermissionFlagsBits,
  type AutocompleteInteraction,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type Client,
  type Interaction,
  type ModalSubmitInteraction,
} from 'discord.js';
import type { ChatCore, CommandRequest, TrackRequest } from '../../src/ports/index.js';
import type { Reply } from '../../src/views/model.js';
import type { Logger } from '../../src/log.js';
import { locationChoices, areaListChoices, queryChoices, type Suggest } from './autocomplete.js';
import { COMMAND_NAMES, chosenLocation, commandText, orderOf } from './commands.js';
import { DISCORD_SURFACE } from './limits.js';
import { NO_CHANNEL_TEXT, discordChannel } from './channel.js';
import { answerDeferred, formListeners, formOf } from './form-listeners.js';
import { readCustomId } from './render.js';
import { sendWithCharts } from './charts.js';
import { describeError, messageOptions, type SendLog } from './send.js';

export interface ListenerOptions {
  bot: ChatCore;
  logger: Logger;
  /** How long a location autocomplete may wait for the service before answering with what it has. */
  autocompleteDeadlineMs: number;
  /**
   * Counts an interaction from its arrival to its last reply, so a graceful stop waits for delivery (the composition root's
   * lifecycle).
   */
  track?: TrackRequest;
}

const BUTTON_ACTIONS = new Set(['page', 'save', 'details', 'choose', 'value']);

/**
 * Alert and digest management answers only the person (`/digest now` too: the digest itself comes through the outbox);
 * known before deferring, so no public "thinking…" flickers by.
 */
const privateByNature = (i: ChatInputCommandInteraction) =>
  (i.commandName === 'alerts' || i.commandName === 'digest') && i.options.getSubcommand(false) !== 'add';

/**
 * Manage Server in this channel's guild; never in a DM. Discord sends the member's permissions with the interaction.
 */
const adminCheck = (i: Interaction) => () =>
  Promise.resolve(i.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false);

const channelOf = (i: Interaction) => discordChannel(i.guildId, i.channelId);

const notice = (text: string): Reply => ({ text, blocks: [{ kind: 'text', text }], ephemeral: true });

export function registerListeners(client: Client, options: ListenerOptions): void {
  const log = options.logger.child({ part: 'discord' });
  const warn: SendLog = (message, fields) => log.warn(message, fields);

  const track: TrackRequest = options.track ?? ((work) => work());
  const forms = formListeners({ bot: options.bot, warn, isAdmin: adminCheck });
  client.on(Events.InteractionCreate, (interaction) => {
    void track(() => route(interaction)).catch((e: unknown) =>
      log.error('discord interaction failed', { error: describeError(e), type: interaction.type }),
    );
  });

  async function route(i: Interaction): Promise<void> {
    if (i.isAutocomplete()) return autocomplete(i);
    if (i.isChatInputCommand() && COMMAND_NAMES.has(i.commandName)) return command(i);
    // A form's Try again opens a modal, which must be the button's first answer: before the buttons that defer.
    if (i.isButton() && forms.handles(i.customId)) return forms.retry(i);
    if (i.isButton() && i.customId.startsWith('manzil:')) return button(i);
    if (i.isModalSubmit() && forms.handles(i.customId)) return submitForm(i);
  }

  async function command(i: ChatInputCommandInteraction): Promise<void> {
    const channel = channelOf(i);
    if (!channel) return answerAtOnce(i, notice(NO_CHANNEL_TEXT));
    // `/alerts new`, `/digest new`, an edit with a number alone: a form, shown as the interaction's first answer.
    const form = formOf(i);
    if (form) return forms.open(i, channel, form);
    const input = {
      name: i.commandName,
      subcommand: i.options.getSubcommand(false),
      query: i.options.getString('query'),
      location: i.options.getString('location'),
      number: i.options.getInteger('number'),
      mine: i.options.getBoolean('for_me') ?? i.options.getBoolean('mine'),
      areas: i.options.getString('places'),
      schedule: i.options.getString('schedule'),
      day: i.options.getString('day'),
      time: i.options.getString('time'),
      every: i.options.getString('every'),
      hours: i.options.getString('hours'),
      zone: i.options.getString('zone'),
      page: i.options.getInteger('page'),
    };
    const location = chosenLocation(input);
    // `/alerts` and `/digest` go as the command their options say, with no text in between.
    const order = orderOf(input);
    const asked: CommandRequest = {
      user: i.user.id,
      channel,
      surface: DISCORD_SURFACE,
      isAdmin: adminCheck(i),
      text: commandText(input),
      ...(location ? { location } : {}),
      ...(order ? { order } : {}),
    };
    // Read once: the answer at once, the metrics, the per-person limits and the bot all go by this one reading.
    const request: CommandRequest = { ...asked, reading: options.bot.read(asked) };
    // What the bot can answer without a call (help, a mistake) goes at once, with no public "thinking…" before it.
    const immediate = options.bot.immediateReply(request);
    if (immediate) return answerAtOnce(i, immediate);
    const deferredPrivate = privateByNature(i);
    await i.deferReply(deferredPrivate ? { flags: MessageFlags.Ephemeral } : {});
    await answerCommand(i, await options.bot.handleCommand(request), deferredPrivate);
  }

  /** The interaction's reply itself (callback type 4), with the visibility the reply asks for. */
  async function answerAtOnce(i: ChatInputCommandInteraction, reply: Reply): Promise<void> {
    await sendWithCharts(reply, (m, files) => i.reply(messageOptions(m, files, { ephemeral: reply.ephemeral })), warn);
  }

  const answerCommand = (i: ChatInputCommandInteraction, reply: Reply, deferredPrivate: boolean) =>
    answerDeferred(i, reply, deferredPrivate, warn);

  const submitForm = (i: ModalSubmitInteraction) => forms.submit(i, channelOf(i));

  async function button(i: ButtonInteraction): Promise<void> {
    const parsed = readCustomId(i.customId);
    // Save opens the new alert's form, which must be the click's first answer (no defer before it).
    const saving = parsed?.action === 'save' ? channelOf(i) : undefined;
    if (parsed && saving) return forms.save(i, saving, parsed.token);
    // Acknowledged without a new message: paging then edits the message the button is on.
    await i.deferUpdate();
    if (!parsed || !BUTTON_ACTIONS.has(parsed.action)) return;
    const channel = channelOf(i);
    const reply = channel
      ? await options.bot.handleAction({
          user: i.user.id,
          channel,
          surface: DISCORD_SURFACE,
          isAdmin: adminCheck(i),
          action: parsed.action,
          token: parsed.token,
        })
      : notice(NO_CHANNEL_TEXT);
    if (reply.replaceOriginal && !reply.ephemeral) {
      // The page a button is on keeps its form: a V2 message can never lose the flag, and an embeds one (sent before
      // Components V2) would have to be cleared first.
      const form = i.message.flags.has(MessageFlags.IsComponentsV2) ? 'v2' : 'embeds';
      await sendWithCharts(reply, (m, files) => i.editReply(messageOptions(m, files, { edit: true })), warn, form);
    } else {
      await sendWithCharts(
        reply,
        (m, files) => i.followUp(messageOptions(m, files, { ephemeral: reply.ephemeral })),
        warn,
      );
    }
  }

  async function autocomplete(i: AutocompleteInteraction): Promise<void> {
    const focused = i.options.getFocused(true);
    const typed = String(focused.value ?? '');
    // Areas are suggested for the person and server typing (what they cost is that server's); from nowhere, none.
    const channel = channelOf(i);
    const suggest: Suggest = async (text) =>
      channel ? options.bot.suggestLocations({ user: i.user.id, channel, typed: text }) : [];
    const choices =
      focused.name === 'location'
        ? await locationChoices(suggest, typed, options.autocompleteDeadlineMs)
        : focused.name === 'query'
          ? await queryChoices(options.bot, {
              command: i.commandName,
              subcommand: i.options.getSubcommand(false),
              typed,
              location: i.options.getString('location'),
            })
          : focused.name === 'places'
            ? await areaListChoices(suggest, typed, options.autocompleteDeadlineMs)
            : [];
    // Past Discord's 3 s the interaction is gone (10062): nothing to tell anyone.
    await i
      .respond(choices)
      .catch((e: unknown) => log.debug('discord: autocomplete answer not taken', { error: describeError(e) }));
  }
}
