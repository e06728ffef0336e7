// A digest queued by the release before issue 28's rename, whose payload says `places` and `place` where this one says
// `areas` and `area`, is still posted after an upgrade, as the same message: an outbox entry outlives the process
// that wrote it. Through the composition root on the embedded sandbox, the real drainer and the fake Slack.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manzil } from '../../src/app/index.js';
import { startSlackManzil } from './helpers.js';
import { startFakeSlack, type FakeMessage, type FakeSlack } from '../fakes/slack-api.js';
import { signedPost, slashCommand } from '../fakes/slack-sign.js';

const SECRET = 'digests-rename-secret-16';

/** The payload as the release before wrote it: the same JSON, with the keys it used then. */
function asBeforeTheRename(json: string): string {
  const p = JSON.parse(json) as { areas: { area: unknown }[] };
  const { areas, ...rest } = p;
  return JSON.stringify({ ...rest, places: areas.map(({ area, ...part }) => ({ place: area, ...part })) });
}

/** What a person reads in a message: its text and the text of its blocks (uploaded file ids aside). */
const readable = (m: FakeMessage) => ({
  text: m.text,
  blocks: ((m.blocks ?? []) as { type: string; text?: unknown }[]).filter((b) => b.type !== 'image').map((b) => b.text),
});

describe('a digest queued before the rename', () => {
  let slack: FakeSlack;
  let manzil: Manzil;

  beforeAll(async () => {
    slack = await startFakeSlack();
    manzil = await startSlackManzil(slack.apiUrl, SECRET, 'manzil-digests-rename-');
  });
  afterAll(async () => {
    await manzil?.stop();
    await slack?.close();
  });

  it('is posted after the upgrade, as the same message a digest queued now is', { timeout: 120_000 }, async () => {
    const res = await signedPost(
      `http://127.0.0.1:${manzil.slackPort}/slack/events`,
      SECRET,
      slashCommand('/manzil', 'digest now dubai marina, business bay', slack.responseUrl('r1'), {
        channel_id: 'C0DIGESTNEW',
      }),
    );
    expect(res.status).toBe(200);
    await slack.waitFor(() => slack.responses('r1').length > 0, 60_000);
    const queued = (await manzil.alerts.outbox.list({ channel: 'slack:T0TEST:C0DIGESTNEW' })).filter(
      (r) => r.kind === 'digest',
    );
    expect(queued).toHaveLength(1);
    await manzil.alerts.outbox.enqueue({
      channel: 'slack:T0TEST:C0DIGESTOLD',
      kind: 'digest',
      dedupeKey: 'digest-before-the-rename',
      payload: asBeforeTheRename(queued[0]!.payload),
    });

    await manzil.alerts.drainer.drain();
    await slack.waitFor(() => slack.messages('C0DIGESTNEW').length > 0, 60_000);
    await manzil.alerts.drainer.drain();
    expect((await manzil.alerts.outbox.list({ state: 'failed' })).map((r) => r.lastError)).toEqual([]);
    // A digest of two areas has no room for its three native charts: they follow it (sent just after, so waited for).
    await slack.waitFor(
      () => slack.messages('C0DIGESTNEW').length > 1 && slack.messages('C0DIGESTOLD').length > 1,
      20_000,
    );
    const [now, ...nowFollowUps] = slack.messages('C0DIGESTNEW');
    const [before, ...more] = slack.messages('C0DIGESTOLD');
    // One message, and after it only the follow-ups with the native charts it had no room for, as a digest queued now.
    expect(more.map((m) => m.metadata?.event_type)).toEqual(nowFollowUps.map(() => 'manzil_alert_follow_up'));
    expect(more.map((m) => m.text)).toEqual(nowFollowUps.map((m) => m.text));
    expect(before?.text).toMatch(/^Market digest: Dubai Marina, Business Bay/);
    expect(readable(before!)).toEqual(readable(now!));
  });
});
