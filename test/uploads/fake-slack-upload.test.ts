// The fake Slack's files upload v2 flow, checked with the real WebClient: what the contract tests rely on.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { postingClient } from '../../adapters/slack/poster.js';
import { DEFAULT_SLACK_SCOPES, startFakeSlack, type FakeSlack } from '../fakes/slack-api.js';
import { makePng } from './png.js';

let fake: FakeSlack;
const png = makePng(6, 6);
const client = () => postingClient('xoxb-test', { apiUrl: fake.apiUrl, timeoutMs: 2_000 });
const imageBlock = (id: string) => ({ type: 'image' as const, slack_file: { id }, alt_text: 'chart' });

beforeAll(async () => {
  fake = await startFakeSlack();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

async function upload(bytes: Buffer, init: RequestInit = {}): Promise<string> {
  const res = await client().files.getUploadURLExternal({ filename: 'c.png', length: png.length });
  expect(res.upload_url).toMatch(new RegExp(`^${fake.baseUrl}/upload/v1/`));
  const answer = await fetch(res.upload_url!, { method: 'POST', body: bytes, ...init });
  expect(answer.status).toBe(200);
  expect(await answer.text()).toBe(`OK - ${bytes.length}`);
  return res.file_id!;
}

describe('fake Slack: files upload v2', () => {
  it('keeps the bytes of a raw upload and completes the file, private when no channel is given', async () => {
    const id = await upload(png);
    await client().files.completeUploadExternal({ files: [{ id, title: 'Trend' }] });
    expect(fake.uploads()).toEqual([
      expect.objectContaining({ id, filename: 'c.png', length: png.length, complete: true, title: 'Trend' }),
    ]);
    expect(fake.uploads()[0]!.bytes!.equals(png)).toBe(true);
    expect(fake.uploads()[0]!.channelId).toBeUndefined();
  });

  it('takes a multipart upload too', async () => {
    const form = new FormData();
    form.append('filename', new Blob([png]), 'c.png');
    const id = await upload(png, { body: form });
    expect(
      fake
        .uploads()
        .find((u) => u.id === id)!
        .bytes!.equals(png),
    ).toBe(true);
  });

  it('refuses a message showing a file that is unknown, not completed, or still processing, then shows it once ready', async () => {
    const post = (id: string) => client().chat.postMessage({ channel: 'C1', text: 'chart', blocks: [imageBlock(id)] });
    await expect(post('F0NOSUCH')).rejects.toMatchObject({
      data: { error: 'invalid_blocks', errors: ['invalid slack file [json-pointer:/blocks/0/slack_file]'] },
    });
    const id = await upload(png);
    await expect(post(id)).rejects.toMatchObject({ data: { error: 'invalid_blocks' } });
    // Long enough that the post sent right after the completion still finds it processing on a loaded machine.
    const processingMs = 1_000;
    fake.fileProcessing(processingMs);
    await client().files.completeUploadExternal({ files: [{ id }] });
    const ready = Date.now() + processingMs; // the fake's processing ended by then
    await expect(post(id)).rejects.toMatchObject({ data: { error: 'invalid_blocks' } });
    while (Date.now() <= ready) await new Promise((r) => setTimeout(r, ready + 1 - Date.now()));
    await expect(post(id)).resolves.toMatchObject({ ok: true });
  });

  it('will not complete a file whose bytes never came', async () => {
    const res = await client().files.getUploadURLExternal({ filename: 'c.png', length: png.length });
    await expect(client().files.completeUploadExternal({ files: [{ id: res.file_id! }] })).rejects.toMatchObject({
      data: { error: 'file_not_found' },
    });
  });

  it('answers missing_scope to the file methods for a token without files:write', async () => {
    fake.grantScopes(DEFAULT_SLACK_SCOPES.filter((s) => s !== 'files:write'));
    await expect(client().files.getUploadURLExternal({ filename: 'c.png', length: 3 })).rejects.toMatchObject({
      data: { error: 'missing_scope', needed: 'files:write' },
    });
  });

  it('holds an upload until released, or drops it as a client that died', async () => {
    const held = fake.holdUpload();
    const res = await client().files.getUploadURLExternal({ filename: 'c.png', length: png.length });
    const sent = fetch(res.upload_url!, { method: 'POST', body: png }).then(
      (r) => r.status,
      (e: unknown) => e,
    );
    await held.arrived;
    held.abandon();
    expect(await sent).toBeInstanceOf(Error);
    expect(fake.uploads()[0]!.bytes).toBeUndefined();
  });
});
