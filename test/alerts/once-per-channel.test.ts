// One listing once per channel (issue 27), for an alert that was paused while another of its channel posted: its
// preview (`/alerts test`) and its first run after `/alerts resume` leave out what the channel was already shown.
import { describe, expect, it } from 'vitest';
import { alertsRig, ctx } from './helpers.js';

const ids = (text: string) => new Set([...text.matchAll(/\/property\/(\d+)/g)].map((x) => x[1]!));

describe('an alert resumed in a channel that was shown listings meanwhile', () => {
  it('previews and posts none of them again', async () => {
    const rig = await alertsRig();
    await rig.commands.handle(ctx(), 'add rent dubai marina');
    await rig.commands.handle(ctx(), 'add rent marina 1-2 bed');
    await rig.poll(); // the first look
    expect((await rig.commands.handle(ctx(), 'pause 2')).text).toMatch(/#2/);
    for (let i = 0; i < 3; i++) {
      rig.sandbox.advance(40);
      await rig.poll();
    }
    await rig.drainer.drain();
    const shown = rig.poster.posts.flatMap((p) => [...ids(JSON.stringify(p.reply.blocks))]);
    expect(shown.length).toBeGreaterThan(0);

    const preview = JSON.stringify(await rig.commands.handle(ctx(), 'test 2'));
    expect([...ids(preview)].filter((id) => shown.includes(id))).toEqual([]);

    await rig.commands.handle(ctx(), 'resume 2');
    const before = rig.poster.posts.length;
    await rig.poll();
    await rig.drainer.drain();
    const again = rig.poster.posts.slice(before).flatMap((p) => [...ids(JSON.stringify(p.reply.blocks))]);
    expect(again.filter((id) => shown.includes(id))).toEqual([]);
  });
});
