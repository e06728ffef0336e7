// The fake Discord, driven by the real discord.js 14 client: if the client logs in, receives interactions and its
// replies land here, the adapter's end-to-end tests exercise what Discord would. Each test states what a person in the
// channel (or an operator) would notice.
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  Client,
  DiscordAPIError,
  Events,
  GatewayIntentBits,
  MessageFlags,
  PermissionFlagsBits,
  REST,
  Routes,
  SlashCommandBuilder,
  type Interaction,
  type TextChannel,
} from 'discord.js';
import { Server, Socket, type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { discordRestOptions } from '../../adapters/discord/app.js';
import { PRIVILEGED_INTENTS, startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';
import { checkMessage } from '../fakes/discord-limits.js';

type Handler = (interaction: Interaction) => Promise<void>;

/** A logged-in client whose interactions go to whatever handler the current test installs. */
async function connect(
  fake: FakeDiscord,
): Promise<{ client: Client; handle: (h: Handler) => void; errors: unknown[] }> {
  const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: discordRestOptions(fake.apiUrl) });
  let handler: Handler = async () => {};
  const errors: unknown[] = [];
  client.on(Events.InteractionCreate, (interaction) => {
    handler(interaction).catch((e: unknown) => errors.push(e));
  });
  const clientReady = new Promise((resolve) => client.once(Events.ClientReady, resolve));
  await client.login(fake.botToken);
  await Promise.all([fake.ready(), clientReady]);
  return { client, handle: (h) => (handler = h), errors };
}

const query = (value: string) => [{ name: 'query', type: 3, value }];
const row = (...ids: string[]) =>
  new ActionRowBuilder<ButtonBuilder>().addComponents(
    ids.map((id) => new ButtonBuilder().setCustomId(id).setLabel(id).setStyle(ButtonStyle.Secondary)),
  );

describe('the real discord.js client against the fake', () => {
  let fake: FakeDiscord;
  let client: Client;
  let handle: (h: Handler) => void;
  let errors: unknown[];

  beforeAll(async () => {
    fake = await startFakeDiscord();
    ({ client, handle, errors } = await connect(fake));
  });
  afterEach(() => {
    expect(errors.splice(0)).toEqual([]);
    handle(async () => {});
  });
  afterAll(async () => {
    await client?.destroy();
    await fake?.close();
  });

  test('logs in with only GET /gateway/bot, identifies once and sees the guild and its channel', () => {
    expect(fake.requests().map((r) => `${r.method} ${r.path}`)).toEqual(['GET /gateway/bot']);
    expect(fake.sessions()).toEqual({ identified: 1, resumed: 0 });
    expect(client.user?.id).toBe(fake.applicationId);
    expect(client.application?.id).toBe(fake.applicationId);
    expect(client.guilds.cache.get(fake.guildId)?.available).toBe(true);
    expect(client.channels.cache.get(fake.channelId)?.isTextBased()).toBe(true);
  });

  test('a slash command arrives with its options, user, channel and permissions; defer then edit lands as one reply with embeds', async () => {
    const seen: Record<string, unknown> = {};
    handle(async (i) => {
      if (!i.isChatInputCommand()) return;
      Object.assign(seen, {
        name: i.commandName,
        query: i.options.getString('query'),
        user: i.user.id,
        channel: i.channelId,
        guild: i.guildId,
        manage: i.memberPermissions?.has(PermissionFlagsBits.ManageGuild),
        canEmbed: i.appPermissions.has(PermissionFlagsBits.EmbedLinks),
      });
      await i.deferReply();
      await i.editReply({
        embeds: [
          {
            title: 'Marina Gate, 2 beds',
            url: 'https://example.com/l/1',
            fields: [{ name: 'Price', value: 'AED 120,000' }],
          },
        ],
      });
    });
    const { token } = await fake.slashCommand('rent', query('marina 2br'), { user: '1180000000000000777' });
    await fake.waitFor(() => fake.responses(token).length === 2);

    expect(seen).toEqual({
      name: 'rent',
      query: 'marina 2br',
      user: '1180000000000000777',
      channel: fake.channelId,
      guild: fake.guildId,
      manage: false,
      canEmbed: true,
    });
    const [deferred, edit] = fake.responses(token);
    expect(deferred).toMatchObject({ kind: 'callback', type: 5, ephemeral: false });
    expect(edit).toMatchObject({ kind: 'edit', messageId: deferred!.messageId, ephemeral: false });
    expect(fake.original(token).embeds[0]).toMatchObject({
      title: 'Marina Gate, 2 beds',
      url: 'https://example.com/l/1',
    });
    expect(fake.original(token).flags & (1 << 7)).toBe(0); // no longer "thinking"
    const callback = fake.requests().find((r) => r.path.endsWith(`/callback`) && r.path.includes(token))!;
    expect(callback).toMatchObject({ method: 'POST', query: { with_response: 'false' }, status: 204 });
    expect(
      fake
        .requests()
        .some((r) => r.path === `/webhooks/${fake.applicationId}/${token}/messages/@original` && r.method === 'PATCH'),
    ).toBe(true);
    expect(fake.violations()).toEqual([]);
  });

  test('a subcommand carries its options and the member permissions the test gives', async () => {
    let got: unknown;
    handle(async (i) => {
      if (!i.isChatInputCommand()) return;
      got = [
        i.options.getSubcommand(),
        i.options.getInteger('number'),
        i.memberPermissions?.has(PermissionFlagsBits.ManageGuild),
      ];
      await i.reply({ content: 'Removed alert 3.', flags: MessageFlags.Ephemeral });
    });
    const manageGuild = PermissionFlagsBits.ManageGuild.toString();
    const { token } = await fake.slashCommand(
      'alerts',
      [{ name: 'remove', type: 1, options: [{ name: 'number', type: 4, value: 3 }] }],
      { permissions: manageGuild },
    );
    await fake.waitFor(() => fake.responses(token).length === 1);
    expect(got).toEqual(['remove', 3, true]);
    expect(fake.responses(token)[0]).toMatchObject({
      kind: 'callback',
      type: 4,
      ephemeral: true,
      body: { content: 'Removed alert 3.' },
    });
    expect(fake.original(token).flags & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
  });

  test('a reply asked for withResponse comes back as the message Discord created', async () => {
    let created: string | undefined;
    handle(async (i) => {
      if (!i.isChatInputCommand()) return;
      const answer = await i.reply({ content: 'Dubai Marina: 42 homes', withResponse: true });
      created = answer.resource?.message?.id;
    });
    const { token } = await fake.slashCommand('rent', query('marina'));
    await fake.waitFor(() => created !== undefined);
    expect(created).toBe(fake.original(token).id);
  });

  test('an autocomplete is answered with the choices the bot responds, timed; silence times out', async () => {
    handle(async (i) => {
      if (!i.isAutocomplete()) return;
      const typed = i.options.getFocused(true);
      if (typed.value === 'silence') return;
      await i.respond([
        { name: `Dubai Marina (${typed.name})`, value: 'dubai-marina' },
        { name: 'Marina Gate', value: 'marina-gate' },
      ]);
    });
    const answer = await fake.autocomplete('rent', [
      { name: 'query', type: 3, value: '2br' },
      { name: 'location', type: 3, value: 'mari' },
    ]);
    expect(answer.choices).toEqual([
      { name: 'Dubai Marina (location)', value: 'dubai-marina' },
      { name: 'Marina Gate', value: 'marina-gate' },
    ]);
    // Timed from the dispatch (an answer after Discord's 3 s is refused, not timed: see the 3-second window test
    // below).
    expect(Number.isFinite(answer.ms) && answer.ms >= 0).toBe(true);
    await expect(
      fake.autocomplete('rent', [{ name: 'location', type: 3, value: 'silence', focused: true }], 150),
    ).rejects.toThrow(/no autocomplete answer/);
  });

  test('more than 25 autocomplete choices are refused, as Discord refuses them', async () => {
    handle(async (i) => {
      if (i.isAutocomplete())
        await i.respond(Array.from({ length: 26 }, (_, n) => ({ name: `Place ${n}`, value: `p${n}` }))).catch(() => {});
    });
    await expect(fake.autocomplete('buy', [{ name: 'location', type: 3, value: 'p' }])).rejects.toThrow(/26 choices/);
    expect(fake.violations().some((v) => v.includes('26 choices'))).toBe(true);
  });

  test('a button press reaches the bot with its message, and an update changes that message', async () => {
    handle(async (i) => {
      if (i.isChatInputCommand()) await i.reply({ content: 'Page 1', components: [row('page:next', 'alert:save')] });
      if (i.isButton())
        await i.update({ content: `Page 2 (${i.customId} on ${i.message.id})`, components: [row('page:prev')] });
    });
    const { token } = await fake.slashCommand('rent', query('marina'));
    await fake.waitFor(() => fake.original(token) !== undefined);
    const first = fake.original(token);
    const click = await fake.clickButton('page:next', first);
    await fake.waitFor(() => fake.responses(click.token).length === 1);

    expect(fake.responses(click.token)[0]).toMatchObject({ kind: 'callback', type: 7, messageId: first.id });
    expect(fake.original(token)).toMatchObject({ id: first.id, content: `Page 2 (page:next on ${first.id})` });
    await expect(fake.clickButton('page:next', first)).rejects.toThrow(/has no button page:next \(it has: page:prev\)/);
  });

  test('the first follow-up after a deferred reply fills the "thinking" message; later ones are new messages', async () => {
    handle(async (i) => {
      if (!i.isChatInputCommand()) return;
      await i.deferReply();
      await i.followUp({ content: 'Here it is' });
      await i.followUp({ content: 'Only you can see this', flags: MessageFlags.Ephemeral });
    });
    const { token } = await fake.slashCommand('trend', query('marina'));
    await fake.waitFor(() => fake.responses(token).length === 3);
    const [deferred, fill, extra] = fake.responses(token);
    expect(fill).toMatchObject({ kind: 'followup', messageId: deferred!.messageId, ephemeral: false });
    expect(extra).toMatchObject({ kind: 'followup', ephemeral: true });
    expect(extra!.messageId).not.toBe(deferred!.messageId);
    expect(fake.original(token).content).toBe('Here it is');
  });

  test('an error meant to be private after a public defer is shown to everyone, and the fake says so', async () => {
    handle(async (i) => {
      if (!i.isChatInputCommand()) return;
      await i.deferReply();
      await i.followUp({ content: 'The property service is busy, try again.', flags: MessageFlags.Ephemeral });
    });
    const { token } = await fake.slashCommand('rent', query('marina'));
    await fake.waitFor(() => fake.responses(token).length === 2);
    expect(fake.responses(token)[1]).toMatchObject({ kind: 'followup', ephemeral: false });
    expect(fake.violations()).toContainEqual(
      expect.stringMatching(/asked to be ephemeral but fills the deferred reply, which is public/),
    );
  });

  test('deleting @original and following up ephemerally is how a public defer turns into a private error', async () => {
    handle(async (i) => {
      if (!i.isChatInputCommand()) return;
      await i.deferReply();
      await i.deleteReply();
      await i.followUp({ content: 'That place is not in the UAE.', flags: MessageFlags.Ephemeral });
    });
    const { token } = await fake.slashCommand('rent', query('atlantis'));
    await fake.waitFor(() => fake.responses(token).length === 3);
    expect(fake.responses(token).map((r) => [r.kind, r.ephemeral])).toEqual([
      ['callback', false],
      ['delete', false],
      ['followup', true],
    ]);
    expect(fake.original(token)).toBeUndefined();
  });

  test('a channel post with a nonce and enforce_nonce, sent twice, shows once', async () => {
    const channel = client.channels.cache.get(fake.channelId) as TextChannel;
    const first = await channel.send({ content: 'New listing in Dubai Marina', nonce: 'd42-1', enforceNonce: true });
    const again = await channel.send({ content: 'New listing in Dubai Marina', nonce: 'd42-1', enforceNonce: true });
    expect(again.id).toBe(first.id);
    expect(fake.messages(fake.channelId).filter((m) => m.nonce === 'd42-1')).toHaveLength(1);

    const listed = (await client.rest.get(Routes.channelMessages(fake.channelId), {
      query: new URLSearchParams({ limit: '1' }),
    })) as { id: string }[];
    expect(listed.map((m) => m.id)).toEqual([first.id]);
  });

  test("a nonce longer than 25 characters is refused with Discord's error", async () => {
    const post = client.rest.post(Routes.channelMessages(fake.channelId), {
      body: { content: 'x', nonce: 'delivery-0123456789abcdef0123', enforce_nonce: true },
    });
    await expect(post).rejects.toMatchObject({ status: 400, code: 50035 });
    expect(fake.violations().some((v) => v.includes('.nonce'))).toBe(true);
  });

  test('a follow-up answered 429 is retried by discord.js after Reset-After and lands once', async () => {
    fake.rateLimitNext('POST', /^\/webhooks\/\d+\/[^/]+$/, 0.2);
    handle(async (i) => {
      if (!i.isChatInputCommand()) return;
      await i.reply({ content: 'Searching...' });
      await i.followUp({ content: 'Page 2 of Dubai Marina' });
    });
    const { token } = await fake.slashCommand('rent', query('marina'));
    await fake.waitFor(() => fake.responses(token).length === 2, 5_000);
    const followups = fake
      .requests()
      .filter((r) => r.method === 'POST' && r.path === `/webhooks/${fake.applicationId}/${token}`);
    expect(followups.map((r) => r.status)).toEqual([429, 200]);
    expect(followups[1]!.at - followups[0]!.at).toBeGreaterThanOrEqual(190);
    expect(fake.responses(token).filter((r) => r.kind === 'followup')).toHaveLength(1);
  });

  test('a global 429 and a 500 on a channel post are waited out and retried; the alert lands once', async () => {
    fake.rateLimitNext('POST', /^\/channels\/\d+\/messages$/, 0.1, { global: true });
    fake.failNext('POST', /^\/channels\/\d+\/messages$/, 500);
    const channel = client.channels.cache.get(fake.channelId) as TextChannel;
    const sent = await channel.send({ content: 'Price drop: Marina Gate', nonce: 'd43-1', enforceNonce: true });
    const posts = fake
      .requests()
      .filter(
        (r) =>
          r.method === 'POST' &&
          r.path === `/channels/${fake.channelId}/messages` &&
          (r.body as { nonce?: string }).nonce === 'd43-1',
      );
    expect(posts.map((r) => r.status)).toEqual([429, 500, 200]);
    expect(
      fake
        .messages(fake.channelId)
        .filter((m) => m.nonce === 'd43-1')
        .map((m) => m.id),
    ).toEqual([sent.id]);
  });

  test('a held answer: the message exists before the bot hears back, and a retry with the nonce does not duplicate it', async () => {
    const held = fake.holdNext('POST', /^\/channels\/\d+\/messages$/);
    const channel = client.channels.cache.get(fake.channelId) as TextChannel;
    const pending = channel.send({ content: 'Alert: 3 new listings', nonce: 'd44-1', enforceNonce: true });
    await held.arrived;
    expect(fake.messages(fake.channelId).filter((m) => m.nonce === 'd44-1')).toHaveLength(1);
    // As after a crash: another client posts the same delivery again.
    const retried = (await new REST({ api: fake.apiUrl })
      .setToken(fake.botToken)
      .post(Routes.channelMessages(fake.channelId), {
        body: { content: 'Alert: 3 new listings', nonce: 'd44-1', enforce_nonce: true },
      })) as { id: string };
    held.release();
    expect((await pending).id).toBe(retried.id);
    expect(fake.messages(fake.channelId).filter((m) => m.nonce === 'd44-1')).toHaveLength(1);
  });

  test('files arrive as multipart (payload_json + files[n]) and become attachments', async () => {
    const channel = client.channels.cache.get(fake.channelId) as TextChannel;
    const sent = await channel.send({
      embeds: [{ title: 'Trend', image: { url: 'attachment://trend.png' } }],
      files: [{ attachment: Buffer.from('png-bytes'), name: 'trend.png' }],
    });
    const request = fake
      .requests()
      .findLast((r) => r.method === 'POST' && r.path === `/channels/${fake.channelId}/messages`)!;
    expect(request.files).toEqual([{ field: 'files[0]', name: 'trend.png', size: 9 }]);
    expect(sent.attachments.first()?.name).toBe('trend.png');
    expect(fake.violations()).not.toContainEqual(expect.stringContaining('trend.png'));
  });

  test("a payload over Discord's limits is refused and every broken limit is reported", async () => {
    let refusal: unknown;
    handle(async (i) => {
      if (!i.isChatInputCommand()) return;
      const embeds = Array.from({ length: 11 }, (_, n) => ({
        title: n === 0 ? 'T'.repeat(300) : `Listing ${n}`,
        description: 'd'.repeat(600),
        url: 'https://example.com/same',
      }));
      // Raw JSON: the builders would refuse the custom_id before it left the bot.
      const components = [
        { type: 1, components: [{ type: 2, style: ButtonStyle.Secondary, label: 'Next', custom_id: 'x'.repeat(101) }] },
      ];
      await i.reply({ embeds, components }).catch((e: unknown) => (refusal = e));
    });
    const { token } = await fake.slashCommand('rent', query('everything'));
    await fake.waitFor(() => refusal !== undefined);
    expect(refusal).toBeInstanceOf(DiscordAPIError);
    expect(refusal).toMatchObject({ status: 400, code: 50035 });
    expect(fake.original(token)).toBeUndefined();
    const found = fake.violations().join('\n');
    expect(found).toMatch(/11 embeds, over Discord's limit of 10/);
    expect(found).toMatch(/embeds\[0\]\.title: 300 characters, over Discord's limit of 256/);
    expect(found).toMatch(/6[0-9]{3} characters across all embeds, over Discord's limit of 6000/);
    expect(found).toMatch(/custom_id: 101 characters/);
    expect(found).toMatch(/embeds\[1\]\.url: same URL as embeds\[0\]/);
  });

  test('an http image is accepted but reported: Discord may not show it', async () => {
    handle(async (i) => {
      if (i.isChatInputCommand())
        await i.reply({ embeds: [{ title: 'Listing', image: { url: 'http://images.example.com/1.jpg' } }] });
    });
    const { token } = await fake.slashCommand('buy', query('downtown'));
    await fake.waitFor(() => fake.original(token) !== undefined);
    expect(fake.violations()).toContainEqual(
      expect.stringMatching(/image\.url: image URL is not https.*\(accepted by Discord\)/),
    );
  });

  test('an interaction answered after the 3-second window is gone, as on Discord', async () => {
    const slow = await startFakeDiscord({ callbackDeadlineMs: 50 });
    const conn = await connect(slow);
    try {
      let refusal: unknown;
      conn.handle(async (i) => {
        await new Promise((r) => setTimeout(r, 120));
        if (i.isChatInputCommand()) await i.deferReply().catch((e: unknown) => (refusal = e));
      });
      await slow.slashCommand('rent', query('marina'));
      await slow.waitFor(() => refusal !== undefined);
      expect(refusal).toMatchObject({ status: 404, code: 10062 });
      expect(slow.violations()).toContainEqual(expect.stringMatching(/answered after \d+ ms, Discord allows 50 ms/));
    } finally {
      await conn.client.destroy();
      await slow.close();
    }
  });

  test('commands registered in bulk over REST come back with ids; an invalid one is refused', async () => {
    const rest = new REST({ api: fake.apiUrl }).setToken(fake.botToken);
    const rent = new SlashCommandBuilder()
      .setName('rent')
      .setDescription('Homes for rent')
      .addStringOption((o) => o.setName('query').setDescription('What you are looking for').setRequired(true))
      .addStringOption((o) => o.setName('location').setDescription('Where').setAutocomplete(true));
    const saved = (await rest.put(Routes.applicationGuildCommands(fake.applicationId, fake.guildId), {
      body: [rent.toJSON()],
    })) as { id: string; name: string }[];
    expect(saved).toHaveLength(1);
    expect(fake.commands(fake.guildId)).toEqual([
      expect.objectContaining({ id: saved[0]!.id, name: 'rent', guild_id: fake.guildId }),
    ]);
    expect(fake.commands()).toEqual([]);
    const bad = {
      name: 'Rent',
      description: 'x',
      options: [
        { name: 'a', description: 'a', type: 3 },
        { name: 'b', description: 'b', type: 3, required: true },
      ],
    };
    await expect(rest.put(Routes.applicationCommands(fake.applicationId), { body: [bad] })).rejects.toMatchObject({
      status: 400,
    });
    expect(fake.violations().join('\n')).toMatch(
      /must be lower case[\s\S]*required options must come before optional ones/,
    );
  });

  test('a modal (callback type 9) is checked as Discord does: too many components, a long title or label, no Label, refused', async () => {
    const label = (id: string, text = 'A field') => ({
      type: 18,
      label: text,
      component: { type: 4, custom_id: id, style: 1 },
    });
    const results: unknown[] = [];
    handle(async (i) => {
      if (!i.isChatInputCommand()) return;
      const data =
        i.options.getString('query') === 'six'
          ? { custom_id: 'm', title: 'Six', components: ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => label(id)) }
          : {
              custom_id: 'm',
              title: 'T'.repeat(46),
              components: [label('a', 'L'.repeat(46)), { type: 4, custom_id: 'bare', style: 1 }, label('a')],
            };
      // Straight to the callback route: discord.js's own builder would refuse some of these before sending.
      results.push(
        await client.rest
          .post(Routes.interactionCallback(i.id, i.token), { body: { type: 9, data }, auth: false })
          .catch((e: unknown) => e),
      );
    });
    const six = await fake.slashCommand('rent', query('six'));
    await fake.waitFor(() => results.length === 1);
    expect(results[0]).toBeInstanceOf(DiscordAPIError);
    expect((results[0] as DiscordAPIError).status).toBe(400);
    expect(fake.modal(six.token)).toBeUndefined();
    await fake.slashCommand('rent', query('long'));
    await fake.waitFor(() => results.length === 2);
    expect((results[1] as DiscordAPIError).status).toBe(400);
    const found = fake.violations().join('\n');
    expect(found).toMatch(/a modal needs 1 to 5 components \(got 6\)/);
    expect(found).toMatch(/title: 46 characters, Discord wants 1 to 45/);
    expect(found).toMatch(/components\[0\]\.label: 46 characters, Discord wants 1 to 45/);
    expect(found).toMatch(/components\[1\]\.type: component type 4 is not allowed in a modal/);
    expect(found).toMatch(/duplicate custom_id a in one modal/);
  });

  test("a modal shown by discord.js is submitted back as Discord sends it: each Label's value or values", async () => {
    const submitted: Record<string, unknown>[] = [];
    handle(async (i) => {
      if (i.isChatInputCommand())
        await i.showModal({
          custom_id: 'manzil:test',
          title: 'A form',
          components: [
            {
              type: 18,
              label: 'Search',
              component: { type: 4, custom_id: 'search', style: 2, required: true, max_length: 50 },
            },
            { type: 18, label: 'Time', component: { type: 4, custom_id: 'time', style: 1, value: '09:00' } },
            {
              type: 18,
              label: 'How often',
              component: {
                type: 3,
                custom_id: 'every',
                options: [
                  { label: 'Instant', value: 'instant', default: true },
                  { label: 'Daily', value: 'daily' },
                ],
              },
            },
          ],
        } as never);
      if (i.isModalSubmit()) {
        submitted.push({
          id: i.customId,
          search: i.fields.getTextInputValue('search'),
          time: i.fields.getTextInputValue('time'),
          every: i.fields.getStringSelectValues('every'),
          channel: i.channelId,
        });
        await i.reply({ content: 'saved', flags: MessageFlags.Ephemeral });
      }
    });
    const { token } = await fake.slashCommand('rent', query('form'));
    await fake.waitFor(() => fake.modal(token) !== undefined);
    expect(fake.responses(token)).toEqual([expect.objectContaining({ kind: 'callback', type: 9 })]);
    await expect(fake.submitModal(token, { nope: 'x' })).rejects.toThrow(/has no field nope/);
    await expect(fake.submitModal(token, { search: '' })).rejects.toThrow(/search is required/);
    await expect(fake.submitModal(token, { search: 'x', every: 'weekly' })).rejects.toThrow(
      /every has no option weekly/,
    );
    const sent = await fake.submitModal(token, { search: 'rent marina', every: 'daily' });
    await fake.waitFor(() => submitted.length === 1);
    // What was left alone (the time) comes back as the bot filled it in.
    expect(submitted[0]).toEqual({
      id: 'manzil:test',
      search: 'rent marina',
      time: '09:00',
      every: ['daily'],
      channel: fake.channelId,
    });
    await fake.waitFor(() => fake.original(sent.token) !== undefined);
    expect(fake.responses(sent.token)[0]).toMatchObject({ kind: 'callback', type: 4, ephemeral: true });
  });

  test("a wrong token gets 401 and an unknown route 404, both in Discord's error shape", async () => {
    await expect(
      new REST({ api: fake.apiUrl }).setToken('not-the-token').get(Routes.gatewayBot()),
    ).rejects.toMatchObject({ status: 401 });
    await expect(client.rest.get('/no/such/route' as `/${string}`)).rejects.toMatchObject({
      status: 404,
      rawError: { message: '404: Not Found', code: 0 },
    });
  });

  // Last: it takes the connection down (discord.js waits 500 ms before resuming).
  test('a dropped connection (1006) is resumed and interactions keep arriving', async () => {
    const names: string[] = [];
    handle(async (i) => {
      if (!i.isChatInputCommand()) return;
      names.push(i.commandName);
      await i.reply({ content: 'ok' });
    });
    await fake.dropConnection(1006);
    expect(fake.sessions()).toEqual({ identified: 1, resumed: 1 });
    const { token } = await fake.slashCommand('projects', query('business bay'));
    await fake.waitFor(() => fake.original(token) !== undefined);
    expect(names).toEqual(['projects']);

    // A command typed while the connection is down reaches the bot when it resumes, as Discord replays missed events.
    const dropping = fake.dropConnection(1006);
    const missed = await fake.slashCommand('agents', query('marina'));
    await dropping;
    await fake.waitFor(() => fake.original(missed.token) !== undefined);
    expect(names).toEqual(['projects', 'agents']);
    expect(fake.sessions()).toEqual({ identified: 1, resumed: 2 });
  });
});

describe('login failures and clean shutdown', () => {
  test('asking for a privileged intent the app was not granted fails the login (close 4014)', async () => {
    const fake = await startFakeDiscord();
    const client = new Client({
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.MessageContent],
      rest: discordRestOptions(fake.apiUrl),
    });
    try {
      await expect(client.login(fake.botToken)).rejects.toThrow(/disallowed intents/i);
      expect(fake.sessions()).toEqual({ identified: 0, resumed: 0 });
    } finally {
      await client.destroy();
      await fake.close();
    }
  });

  test('a granted privileged intent logs in', async () => {
    const fake = await startFakeDiscord({ allowedIntents: PRIVILEGED_INTENTS });
    const client = new Client({
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.MessageContent],
      rest: discordRestOptions(fake.apiUrl),
    });
    try {
      await client.login(fake.botToken);
      await fake.ready();
      expect(fake.sessions().identified).toBe(1);
    } finally {
      await client.destroy();
      await fake.close();
    }
  });

  test('heartbeats are acknowledged: the client measures its ping and keeps its one session', async () => {
    const fake = await startFakeDiscord({ heartbeatIntervalMs: 40 });
    const { client } = await connect(fake);
    try {
      await fake.waitFor(() => client.ws.ping >= 0, 2_000);
      await new Promise((r) => setTimeout(r, 150)); // a few more beats: an unacknowledged one would make it reconnect
      expect(fake.sessions()).toEqual({ identified: 1, resumed: 0 });
    } finally {
      await client.destroy();
      await fake.close();
    }
  });

  test('client.destroy() and fake.close() leave no socket or server open', async () => {
    const fake = await startFakeDiscord();
    const port = Number(new URL(fake.apiUrl).port);
    // Node's own list of what keeps the process alive: servers and sockets on the fake's port must all be gone.
    const handles = () => (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
    const onPort = () =>
      handles().filter(
        (h) =>
          (h instanceof Socket && (h.remotePort === port || h.localPort === port)) ||
          (h instanceof Server && (h.address() as AddressInfo | null)?.port === port),
      ).length;
    const { client } = await connect(fake);
    expect(onPort()).toBeGreaterThan(0);
    await client.destroy();
    await fake.close();
    await new Promise((r) => setTimeout(r, 20));
    expect(onPort()).toBe(0);
  });
});

describe('the limits the fake checks with the builders’ validators', () => {
  test('embed field, footer and author texts and the field count: over the limit or empty is refused', () => {
    const found = checkMessage(
      {
        embeds: [
          {
            title: 'Listing',
            fields: [
              ...Array.from({ length: 25 }, (_, n) => ({ name: `F${n}`, value: 'v' })),
              { name: '', value: 'x'.repeat(1_025), inline: 'yes' },
            ],
            footer: { text: 'f'.repeat(2_049) },
            author: { name: 'a'.repeat(257) },
          },
        ],
      },
      { where: 'test' },
    );
    const all = found.errors.join('\n');
    expect(all).toMatch(/embeds\[0\]\.fields: 26 fields, over Discord's limit of 25/);
    expect(all).toMatch(/fields\[25\]\.name: must not be empty/);
    expect(all).toMatch(/fields\[25\]\.value: 1025 characters, over Discord's limit of 1024/);
    expect(all).toMatch(/fields\[25\]\.inline: must be a boolean/);
    expect(all).toMatch(/footer\.text: 2049 characters, over Discord's limit of 2048/);
    expect(all).toMatch(/author\.name: 257 characters, over Discord's limit of 256/);
    expect(
      checkMessage({ embeds: [{ title: 'T'.repeat(256), description: 'd'.repeat(4_096) }] }, { where: 'test' }).errors,
    ).toEqual([]);
  });
});
