// Digests end to end through the composition root on the embedded sandbox (MANZIL_SANDBOX=1): `/manzil digest now`
// as a signed Slack slash command, the digest posted in the channel by the outbox with its chart uploaded through the
// fake Slack's files upload v2 flow and shown in the message; and on Discord through discord.js and the fake Discord,
// the chart attached to the message. What the channel sees: one message naming the channel, carrying a 1000x560 PNG.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startManzil, type Manzil } from '../../src/app/index.js';
import { formatValue } from '../../src/charts/data.js';
import { startFakeDiscord, type DiscordJson, type FakeDiscord } from '../fakes/discord.js';
import { startFakeSlack, type FakeMessage, type FakeSlack } from '../fakes/slack-api.js';
import { signedPost, slashCommand } from '../fakes/slack-sign.js';
import { NEVER, pngSize, startSlackManzil } from './helpers.js';

const SECRET = 'digests-signing-secret-16';
const CHART = { width: 1000, height: 560 };

type SlackBlock = { type: string; slack_file?: { id: string }; alt_text?: string; title?: { text: string } };
const imageBlocks = (m: FakeMessage) => ((m.blocks ?? []) as SlackBlock[]).filter((b) => b.type === 'image');

describe('on Slack', () => {
  let slack: FakeSlack;
  let manzil: Manzil;
  let seq = 0;

  beforeAll(async () => {
    slack = await startFakeSlack();
    manzil = await startSlackManzil(slack.apiUrl, SECRET, 'manzil-digests-e2e-');
  });
  afterAll(async () => {
    await manzil?.stop();
    await slack?.close();
  });

  /** A signed `/manzil <text>` in `channel`: the answer the person saw at its response_url. */
  async function command(text: string, channel: string): Promise<{ text: string; response_type?: string }> {
    const id = `d${++seq}`;
    const res = await signedPost(
      `http://127.0.0.1:${manzil.slackPort}/slack/events`,
      SECRET,
      slashCommand('/manzil', text, slack.responseUrl(id), { channel_id: channel }),
    );
    expect(res.status).toBe(200);
    await slack.waitFor(() => slack.responses(id).length > 0, 15_000);
    return slack.responses(id).at(-1) as { text: string; response_type?: string };
  }

  type Viz = { type: string; title: string; chart: { series: { name: string; data: { value: number }[] }[] } };
  const vizBlocks = (m: FakeMessage) => ((m.blocks ?? []) as Viz[]).filter((b) => b.type === 'data_visualization');

  /**
   * Slack's own line charts of a digest, in its message and the follow-ups after it (two a message at most): each
   * follow-up says so in its metadata, so a look for the delivery finds the message alone.
   */
  function nativeCharts(channel: string) {
    const [message, ...followUps] = slack.messages(channel);
    expect(message!.metadata?.event_type).toBe('manzil_alert');
    for (const f of followUps) {
      expect(String(f.text)).toMatch(/^Charts of Market digest/);
      expect(f.metadata?.event_type).toBe('manzil_alert_follow_up');
    }
    return { inMessage: vizBlocks(message!).map((v) => v.title), all: [message!, ...followUps].flatMap(vizBlocks) };
  }

  /** Each image block of a message with the upload it shows. */
  function shownCharts(m: FakeMessage) {
    const uploads = slack.uploads();
    return imageBlocks(m).map((b) => ({ block: b, upload: uploads.find((u) => u.id === b.slack_file?.id) }));
  }

  it('/manzil digest now dubai marina: one message naming the area, showing its chart uploaded as a 1000x560 PNG', async () => {
    const channel = 'C0DIGEST1';
    const answer = await command('digest now dubai marina', channel);
    expect(answer.text).toBe('Composing the digest of Dubai Marina; it will appear here in a moment, for everyone.');
    expect(answer.response_type).not.toBe('in_channel');
    await slack.waitFor(() => slack.messages(channel).length > 0, 15_000);
    await manzil.alerts.drainer.drain();
    const [message, ...more] = slack.messages(channel);
    expect(more).toEqual([]);
    expect(message!.text).toMatch(/^Market digest: Dubai Marina/);
    expect(JSON.stringify(message!.blocks)).toMatch(/Sold: \d+ in the last 30 days/);
    const charts = shownCharts(message!);
    expect(charts).toHaveLength(1);
    const { block, upload } = charts[0]!;
    expect(block.title?.text).toBe('AED per sqft in Dubai Marina');
    expect(block.alt_text).toMatch(/Dubai Marina/);
    expect(upload).toMatchObject({ complete: true, filename: 'digest-dubai-marina.png' });
    // A private file shown by the message, not a second message in the channel.
    expect(upload!.channelId).toBeUndefined();
    expect(upload!.bytes!.length).toBe(upload!.length);
    expect(pngSize(upload!.bytes!)).toEqual(CHART);
    // Beside the PNG, Slack's own line chart of the same trend (the fake checked its limits): one line per bedroom count.
    const viz = (message!.blocks as { type: string; title?: string; chart?: { series: { name: string }[] } }[]).filter(
      (b) => b.type === 'data_visualization',
    );
    expect(viz).toHaveLength(1);
    expect(viz[0]!.title).toBe('AED per sqft in Dubai Marina');
    expect(viz[0]!.chart!.series.length).toBeGreaterThan(0);
    // Its values are the PNG's: each line's first and last value as the picture's alt text says them (both come from
    // the values the PNG was drawn from).
    for (const s of (viz[0] as unknown as Viz).chart.series) {
      const values = s.data.map((d) => d.value);
      expect(block.alt_text).toContain(`${s.name} from ${formatValue(values[0]!)} to ${formatValue(values.at(-1)!)}`);
    }
    expect(slack.callsTo('files.upload')).toEqual([]);
    // Drained again: still one.
    await manzil.alerts.drainer.drain();
    expect(slack.messages(channel)).toHaveLength(1);
  });

  it('a digest of two areas: one message with each area’s chart and the comparison', async () => {
    const channel = 'C0DIGEST2';
    await command('digest now dubai marina, business bay', channel);
    await slack.waitFor(() => slack.messages(channel).length > 0, 20_000);
    const [message] = slack.messages(channel);
    expect(message!.text).toMatch(/^Market digest: Dubai Marina, Business Bay/);
    const charts = shownCharts(message!);
    expect(charts.map((c) => c.block.title?.text)).toEqual([
      'AED per sqft in Dubai Marina',
      'AED per sqft in Business Bay',
      '2-bedroom AED per sqft, compared',
    ]);
    for (const c of charts) expect(pngSize(c.upload!.bytes!)).toEqual(CHART);
    // Every chart also as Slack's own: as many in the message as it has room for (two at most), the rest after it.
    await slack.waitFor(() => nativeCharts(channel).all.length >= charts.length, 10_000);
    const native = nativeCharts(channel);
    expect(native.all.map((v) => v.title)).toEqual(charts.map((c) => c.block.title?.text));
    expect(native.inMessage.length).toBeLessThanOrEqual(2);
    for (const v of native.all) expect(v.chart.series.length).toBeGreaterThan(0);
  });

  it('a digest of three areas still shows its four charts (none uploaded in vain)', async () => {
    const channel = 'C0DIGEST3';
    const before = slack.uploads().length;
    await command('digest now dubai marina, business bay, jvc', channel);
    await slack.waitFor(() => slack.messages(channel).length > 0, 20_000);
    const [message] = slack.messages(channel);
    expect(message!.text).toMatch(/^Market digest: Dubai Marina, Business Bay, Jumeirah Village Circle/);
    const uploaded = slack.uploads().slice(before);
    expect(
      shownCharts(message!).map((c) => c.block.title?.text),
      `${uploaded.length} charts uploaded for this message`,
    ).toEqual([
      'AED per sqft in Dubai Marina',
      'AED per sqft in Business Bay',
      'AED per sqft in Jumeirah Village Circle',
      '2-bedroom AED per sqft, compared',
    ]);
    await slack.waitFor(() => nativeCharts(channel).all.length >= 4, 10_000);
    expect(nativeCharts(channel).all.map((v) => v.title)).toEqual([
      'AED per sqft in Dubai Marina',
      'AED per sqft in Business Bay',
      'AED per sqft in Jumeirah Village Circle',
      '2-bedroom AED per sqft, compared',
    ]);
  });
});

describe('on Discord', () => {
  let fake: FakeDiscord;
  let manzil: Manzil;

  beforeAll(async () => {
    fake = await startFakeDiscord();
    manzil = await startManzil({
      env: {
        MANZIL_SANDBOX: '1',
        DISCORD_TOKEN: fake.botToken,
        DISCORD_API_URL: fake.apiUrl,
        PORT: '0',
        MANZIL_DB_PATH: join(mkdtempSync(join(tmpdir(), 'manzil-digests-discord-')), 'manzil.db'),
        LOG_LEVEL: 'warn',
        SHUTDOWN_TIMEOUT_S: '0.5',
        ALERTS_CRON: NEVER,
        DIGESTS_CRON: NEVER,
      },
      host: '127.0.0.1',
      writeLog: () => {},
    });
    await fake.ready();
  });
  afterAll(async () => {
    await manzil?.stop();
    await fake?.close();
  });

  /** `/manzil query:<text>` in the test channel; resolves once the bot answered the interaction. */
  async function slash(text: string) {
    const { token } = await fake.slashCommand('manzil', [{ name: 'query', type: 3, value: text }]);
    await fake.waitFor(
      () =>
        fake
          .responses(token)
          .some((r) => r.kind === 'edit' || r.kind === 'followup' || (r.kind === 'callback' && r.type === 4)),
      15_000,
    );
    return token;
  }

  /** The charts a channel message carries: each attachment shown by an embed, with its bytes. */
  function attachedCharts(id: string) {
    const m = fake.message(id) as DiscordJson;
    const attachments = (m.attachments ?? []) as { id: string; filename: string }[];
    const shown = ((m.embeds ?? []) as DiscordJson[]).filter(
      (e) => typeof e.image?.url === 'string' && e.image.url.startsWith('attachment://'),
    );
    return shown.map((e) => {
      const name = String(e.image.url).slice('attachment://'.length);
      const a = attachments.find((x) => x.filename === name);
      return { title: e.title as string | undefined, name, bytes: a ? fake.attachmentBytes(a.id) : undefined };
    });
  }

  it('/manzil digest now dubai marina: one message in the channel naming the area, with the chart attached as a 1000x560 PNG', async () => {
    const before = fake.messages(fake.channelId).length;
    await slash('digest now dubai marina');
    await fake.waitFor(() => fake.messages(fake.channelId).length > before, 15_000);
    await manzil.alerts.drainer.drain();
    const posted = fake.messages(fake.channelId).slice(before);
    expect(posted).toHaveLength(1);
    const body = posted[0]!.body as DiscordJson;
    expect(String(body.content)).toMatch(/Market digest: Dubai Marina/);
    const charts = attachedCharts(posted[0]!.id);
    expect(charts.map((c) => c.title)).toEqual(['AED per sqft in Dubai Marina']);
    expect(pngSize(charts[0]!.bytes!)).toEqual(CHART);
    expect(fake.violations()).toEqual([]);
  });

  it('a digest of two areas: one message with each area’s chart and the comparison attached', async () => {
    const before = fake.messages(fake.channelId).length;
    await slash('digest now dubai marina, business bay');
    await fake.waitFor(() => fake.messages(fake.channelId).length > before, 20_000);
    const posted = fake.messages(fake.channelId).slice(before);
    expect(posted).toHaveLength(1);
    expect(String((posted[0]!.body as DiscordJson).content)).toMatch(/Market digest: Dubai Marina, Business Bay/);
    const charts = attachedCharts(posted[0]!.id);
    expect(charts.map((c) => c.title)).toEqual([
      'AED per sqft in Dubai Marina',
      'AED per sqft in Business Bay',
      '2-bedroom AED per sqft, compared',
    ]);
    for (const c of charts) expect(pngSize(c.bytes!)).toEqual(CHART);
  });
});
