// The limits on saved alerts: per channel and per person, each refused with a message that says which and what to do.
import { describe, expect, it } from 'vitest';
import { alertsRig, ctx } from './helpers.js';

const text = (r: { text: string }) => r.text;

describe('alert limits', () => {
  it('refuses a third alert in a channel that may have two, and takes one again once an alert is removed', async () => {
    const rig = await alertsRig({ limits: { perChannel: 2, perOwner: 10 } });
    expect(text(await rig.commands.handle(ctx('test:c1', 'U1'), 'add rent marina'))).toMatch(/^Saved as alert #1/);
    expect(text(await rig.commands.handle(ctx('test:c1', 'U2'), 'add buy marina'))).toMatch(/^Saved as alert #2/);

    // Anyone in the channel is refused, whoever saved the others.
    const refused = text(await rig.commands.handle(ctx('test:c1', 'U3'), 'add rent jvc'));
    expect(refused).toMatch(
      /^This channel has 2 alerts already, the most it can have\. Remove one with `\/alerts remove <number>` first/,
    );
    expect(await rig.repo.count(rig.sandbox.url!)).toBe(2);

    // Another channel is not affected.
    expect(text(await rig.commands.handle(ctx('test:c2', 'U3'), 'add rent jvc'))).toMatch(/^Saved as alert #1/);

    expect(text(await rig.commands.handle(ctx('test:c1', 'U1'), 'remove 1'))).toMatch(/Removed alert #1/);
    expect(text(await rig.commands.handle(ctx('test:c1', 'U3'), 'add rent jvc'))).toMatch(/^Saved as alert #\d+/);
  });

  it('refuses a person at their own limit, in any channel, while others can still save', async () => {
    const rig = await alertsRig({ limits: { perChannel: 25, perOwner: 2 } });
    expect(text(await rig.commands.handle(ctx('test:c1', 'U1'), 'add rent marina'))).toMatch(/^Saved as alert/);
    expect(text(await rig.commands.handle(ctx('test:c2', 'U1'), 'add buy marina'))).toMatch(/^Saved as alert/);

    const refused = text(await rig.commands.handle(ctx('test:c3', 'U1'), 'add rent jvc'));
    expect(refused).toMatch(
      /^You have 2 alerts already, the most one person can have\. Remove one with `\/alerts remove <number>` first/,
    );
    expect(text(await rig.commands.handle(ctx('test:c3', 'U2'), 'add rent jvc'))).toMatch(/^Saved as alert/);
  });
});
