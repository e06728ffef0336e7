// The fake Slack Web API, driven by the real @slack/web-api client, and the limits check it relies on.
import { LogLevel, WebClient, WebClientEvent, type WebAPICallResult } from '@slack/web-api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';
import { checkSlackMessage } from '../fakes/slack-limits.js';

let fake: FakeSlack;
const client = (token = 'xoxb-test') =>
  new WebClient(token, {
    slackApiUrl: fake.apiUrl,
    logLevel: LogLevel.ERROR,
    retryConfig: { retries: 2, factor: 1, minTimeout: 10, maxTimeout: 10 },
  });
const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });
/** The answer Slack gave to a call the client rejected. */
const errorOf = async (p: Promise<unknown>): Promise<WebAPICallResult & { error?: string }> =>
  (await p.then(
    () => undefined,
    (e: { data?: WebAPICallResult }) => e.data,
  )) ?? { ok: true };

beforeAll(async () => {
  fake = await startFakeSlack();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

describe('fake Slack Web API', () => {
  it('answers auth.test as the Manzil bot', async () => {
    const auth = await client().auth.test();
    expect(auth).toMatchObject({ ok: true, team_id: 'T0TEST', user_id: 'U0BOT', bot_id: 'B0BOT' });
    expect(fake.callsTo('auth.test')).toHaveLength(1);
  });

  it('records a posted message with its blocks parsed and the token used', async () => {
    const res = await client().chat.postMessage({
      channel: 'C0DEALS',
      text: 'Two flats',
      blocks: [section('*Marina* flats')],
    });
    expect(res.ok).toBe(true);
    expect(res.channel).toBe('C0DEALS');
    expect(res.ts).toMatch(/^\d+\.\d+$/);
    const [call] = fake.callsTo('chat.postMessage');
    expect(call?.token).toBe('xoxb-test');
    expect(call?.args).toMatchObject({ channel: 'C0DEALS', text: 'Two flats', blocks: [section('*Marina* flats')] });
  });

  it('answers chat.update and chat.postEphemeral as Slack does', async () => {
    const posted = await client().chat.postMessage({ channel: 'C1', text: 'page 1' });
    const updated = await client().chat.update({
      channel: 'C1',
      ts: posted.ts!,
      text: 'page 2',
      blocks: [section('page 2')],
    });
    expect(updated).toMatchObject({ ok: true, channel: 'C1', ts: posted.ts });
    const ephemeral = await client().chat.postEphemeral({ channel: 'C1', user: 'U0ALICE', text: 'only you' });
    expect(ephemeral.message_ts).toMatch(/^\d+\.\d+$/);
    expect(fake.calls.map((c) => c.method)).toEqual(['chat.postMessage', 'chat.update', 'chat.postEphemeral']);
  });

  it('refuses a section over 3,000 characters with invalid_blocks, and still records the call', async () => {
    const data = await errorOf(
      client().chat.postMessage({ channel: 'C1', text: 'long', blocks: [section('x'.repeat(3_001))] }),
    );
    expect(data).toMatchObject({ ok: false, error: 'invalid_blocks' });
    expect(String((data as { errors?: unknown }).errors)).toMatch(/3000/);
    expect(fake.callsTo('chat.postMessage')).toHaveLength(1);
  });

  it('refuses blocks sent without fallback text', async () => {
    const data = await errorOf(client().chat.postMessage({ channel: 'C1', blocks: [section('hi')] } as never));
    expect(data.error).toBe('invalid_blocks');
  });

  it('answers invalid_auth to a wrong token', async () => {
    const data = await errorOf(client('xoxb-wrong').auth.test());
    expect(data).toEqual({ ok: false, error: 'invalid_auth', response_metadata: expect.anything() });
    expect(fake.calls[0]?.token).toBe('xoxb-wrong');
  });

  it('answers 429 with Retry-After; the real client waits and retries until it succeeds', async () => {
    fake.failNext('chat.postMessage', { retryAfter: 1 });
    const web = client();
    const waits: number[] = [];
    web.on(WebClientEvent.RATE_LIMITED, (seconds: number) => waits.push(seconds));
    const res = await web.chat.postMessage({ channel: 'C1', text: 'hello' });
    expect(res.ok).toBe(true);
    expect(waits).toEqual([1]);
    expect(fake.callsTo('chat.postMessage').map((c) => c.status)).toEqual([429, 200]);
  });

  it('can fail the next calls with a Slack error', async () => {
    fake.failNext('chat.update', { error: 'message_not_found' }, 2);
    for (let i = 0; i < 2; i++)
      expect((await errorOf(client().chat.update({ channel: 'C1', ts: '1.2', text: 'x' }))).error).toBe(
        'message_not_found',
      );
    expect((await client().chat.update({ channel: 'C1', ts: '1.2', text: 'x' })).ok).toBe(true);
  });

  it('accepts form-encoded calls with the token in the body, as older clients send them', async () => {
    const body = new URLSearchParams({
      token: 'xoxb-test',
      channel: 'C1',
      text: 'hi',
      blocks: JSON.stringify([section('hi')]),
    });
    const res = await fetch(`${fake.apiUrl}chat.postMessage`, { method: 'POST', body });
    expect(await res.json()).toMatchObject({ ok: true, channel: 'C1' });
    expect(fake.calls[0]).toMatchObject({ token: 'xoxb-test', args: { blocks: [section('hi')] } });
  });

  it('records what is posted to a response_url, and refuses over-long blocks there with 400', async () => {
    const url = fake.responseUrl('cmd-1');
    const post = (payload: unknown) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
    const good = { text: 'Two flats', blocks: [section('Two flats')], response_type: 'in_channel' };
    const bad = { text: 'Too long', blocks: [section('y'.repeat(3_001))] };
    expect((await post(bad)).status).toBe(400);
    const res = await post(good);
    expect([res.status, await res.text()]).toEqual([200, 'ok']);
    expect(fake.responses('cmd-1')).toEqual([good]);
    expect(fake.responses('other')).toEqual([]);
    expect(fake.responseAttempts('cmd-1').map((a) => a.accepted)).toEqual([false, true]);
    await fake.waitFor(() => fake.responses().length === 1);
  });

  it('keeps what chat.postMessage posted, metadata included, and serves it from conversations.history', async () => {
    const web = client();
    const metadata = { event_type: 'manzil_alert', event_payload: { delivery_id: 'd1' } };
    const first = await web.chat.postMessage({ channel: 'C1', text: 'one', metadata });
    const echoed = first.message as Record<string, unknown>;
    expect(echoed.metadata).toBeUndefined();
    await web.chat.postMessage({ channel: 'C1', text: 'two' });
    await web.chat.postMessage({ channel: 'C2', text: 'elsewhere' });
    expect(fake.messages('C1').map((m) => m.text)).toEqual(['one', 'two']);

    const plain = await web.conversations.history({ channel: 'C1' });
    expect(plain.messages!.map((m) => m.text)).toEqual(['two', 'one']);
    expect(plain.messages!.some((m) => 'metadata' in m)).toBe(false);
    const full = await web.conversations.history({ channel: 'C1', include_all_metadata: true });
    expect(full.messages!.find((m) => m.ts === first.ts)!.metadata).toEqual(metadata);
    const after = await web.conversations.history({ channel: 'C1', oldest: first.ts! });
    expect(after.messages!.map((m) => m.text)).toEqual(['two']);
    const paged = await web.conversations.history({ channel: 'C1', limit: 1 });
    expect(paged.has_more).toBe(true);
    const rest = await web.conversations.history({
      channel: 'C1',
      limit: 1,
      cursor: paged.response_metadata!.next_cursor!,
    });
    expect(rest.messages!.map((m) => m.text)).toEqual(['one']);
    expect(rest.has_more).toBe(false);
  });

  it('answers missing_scope while told to', async () => {
    fake.missingScope('conversations.history');
    expect((await errorOf(client().conversations.history({ channel: 'C1' }))).error).toBe('missing_scope');
    fake.missingScope('conversations.history', false);
    expect((await client().conversations.history({ channel: 'C1' })).ok).toBe(true);
  });

  it('answers users.info from its table of people; anyone else is a plain member', async () => {
    fake.setUser('U0BOSS', { is_owner: true });
    expect((await client().users.info({ user: 'U0BOSS' })).user).toMatchObject({
      id: 'U0BOSS',
      is_owner: true,
      is_admin: false,
    });
    expect((await client().users.info({ user: 'U0ANY' })).user).toMatchObject({
      id: 'U0ANY',
      is_owner: false,
      is_admin: false,
    });
  });

  it('can post a message but hold the answer until released', async () => {
    const held = fake.holdNext('chat.postMessage');
    let answered = false;
    const posting = client()
      .chat.postMessage({ channel: 'C1', text: 'held' })
      .then((r) => ((answered = true), r));
    const call = await held.arrived;
    expect(call.args.text).toBe('held');
    expect(fake.messages('C1')).toHaveLength(1); // posted, though the caller does not know yet
    // Only the next one was held: a later call is answered meanwhile, and the held one still is not.
    expect((await client().chat.postMessage({ channel: 'C1', text: 'next' })).ok).toBe(true);
    expect(answered).toBe(false);
    held.release();
    expect((await posting).ts).toBe(fake.messages('C1')[0]!.ts);
  });

  it('answers 500 on demand', async () => {
    fake.failNext('chat.postMessage', { status: 500 });
    const web = new WebClient('xoxb-test', {
      slackApiUrl: fake.apiUrl,
      logLevel: LogLevel.ERROR,
      retryConfig: { retries: 0 },
    });
    const error = await web.chat.postMessage({ channel: 'C1', text: 'x' }).then(
      () => undefined,
      (e: { statusCode?: number }) => e,
    );
    expect(error?.statusCode).toBe(500);
  });

  it('gives each response_url its own id unless one is chosen', () => {
    expect(fake.responseUrl()).not.toBe(fake.responseUrl());
    expect(fake.responseUrl('a')).toBe(`${fake.baseUrl}/response/a`);
  });
});

describe('the Block Kit limits check', () => {
  const ok = (blocks: unknown[]) => checkSlackMessage({ text: 'fallback', blocks });
  const button = (action_id: string) => ({ type: 'button', text: { type: 'plain_text', text: 'Go' }, action_id });
  const image = (image_url: string) => ({
    type: 'section',
    text: { type: 'mrkdwn', text: 'x' },
    accessory: { type: 'image', image_url, alt_text: 'x' },
  });

  it('accepts a well-formed message', () => {
    expect(
      ok([
        { type: 'header', text: { type: 'plain_text', text: 'Hi' } },
        section('x'),
        { type: 'divider' },
        { type: 'actions', elements: [button('a')] },
      ]),
    ).toEqual([]);
  });

  it('counts blocks, fields, header and button lengths', () => {
    expect(ok(Array.from({ length: 51 }, () => ({ type: 'divider' })))).toHaveLength(1);
    const fields = Array.from({ length: 11 }, () => ({ type: 'mrkdwn', text: 'f' }));
    expect(ok([{ type: 'section', fields }]).join()).toMatch(/at most 10 fields/);
    expect(ok([{ type: 'section', fields: [{ type: 'mrkdwn', text: 'f'.repeat(2_001) }] }])).toHaveLength(1);
    expect(ok([{ type: 'header', text: { type: 'plain_text', text: 'h'.repeat(151) } }])).toHaveLength(1);
    expect(
      ok([{ type: 'actions', elements: [{ ...button('a'), text: { type: 'plain_text', text: 'b'.repeat(76) } }] }]),
    ).toHaveLength(1);
  });

  it('refuses duplicate action_ids and block_ids', () => {
    expect(
      ok([
        { type: 'actions', elements: [button('a')] },
        { type: 'actions', elements: [button('a')] },
      ]).join(),
    ).toMatch(/duplicate/);
    expect(
      ok([
        { ...section('x'), block_id: 'b' },
        { ...section('y'), block_id: 'b' },
      ]).join(),
    ).toMatch(/duplicate/);
  });

  it('refuses http and WebP images', () => {
    expect(ok([image('https://cdn.example.com/a.jpg')])).toEqual([]);
    expect(ok([image('http://cdn.example.com/a.jpg')])).toHaveLength(1);
    expect(ok([image('https://cdn.example.com/a.WebP?w=400')])).toHaveLength(1);
  });

  it('refuses more than 10 context elements and a missing fallback text', () => {
    expect(
      ok([{ type: 'context', elements: Array.from({ length: 11 }, () => ({ type: 'mrkdwn', text: 'c' })) }]),
    ).toHaveLength(1);
    expect(checkSlackMessage({ blocks: [section('x')] }).join()).toMatch(/fallback/);
  });
});
