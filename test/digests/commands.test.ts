// `/digest add|list|remove|pause|resume` as a person in a channel sees them: the real commands over a real SQLite file,
// the real resolver on the sandbox, and the test's clock. The expected dates are worked out here from the clock (Dubai
// is UTC+4 all year), not with the code's schedule functions.
import { describe, expect, it } from 'vitest';
import { BUSINESS_BAY, ctx, DAY, digestRig, HOUR, MARINA, MINUTE } from './helpers.js';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The next Monday 09:00 in Dubai strictly after `t`, as "Mon 30 Nov", worked out by hand: Dubai is UTC+4. */
function nextMondayNine(t: number): { at: number; words: string } {
  const local = new Date(t + 4 * HOUR); // its UTC fields are Dubai's wall clock
  const days = (1 - local.getUTCDay() + 7) % 7;
  let at = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + days, 9, 0) - 4 * HOUR;
  if (at <= t) at += 7 * DAY;
  const d = new Date(at + 4 * HOUR);
  return { at, words: `${DAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}` };
}

describe('/digest add', () => {
  it('saves and says what it saved and when the first comes, numbered per channel', async () => {
    const rig = await digestRig({ start: '2026-11-24T10:00:00Z' }); // a Tuesday
    const one = rig.instance('a');
    const commands = one.commands();
    const first = await commands.handle(ctx(), 'add jvc');
    expect(first.text).toBe(
      `Saved digest #1: Jumeirah Village Circle, every Monday at 09:00 (Asia/Dubai); the first on ${nextMondayNine(rig.clock.t).words}.`,
    );
    const reply = await commands.handle(ctx(), 'add dubai marina, business bay');
    const expected = nextMondayNine(rig.clock.t);
    expect(expected.words).toBe('Mon 30 Nov');
    expect(reply.text).toBe(
      'Saved digest #2: Dubai Marina, Business Bay, every Monday at 09:00 (Asia/Dubai); the first on Mon 30 Nov.',
    );
    const row = (await one.repo.byNumber('test:c1', 2))!;
    expect(JSON.parse(row.areas)).toEqual([MARINA, BUSINESS_BAY]);
    expect(row.nextRunAt).toBe(expected.at);
    expect(row.owner).toBe('U1');
    // Another channel numbers from 1.
    expect((await commands.handle(ctx('test:c2'), 'add marina daily at 6pm')).text).toBe(
      `Saved digest #1: Dubai Marina, daily at 18:00 (Asia/Dubai); the first on Tue 24 Nov.`,
    );
  });

  it('the first one of a schedule due later the same day is that day; one due this very minute is the next', async () => {
    const rig = await digestRig({ start: '2026-11-30T04:59:00Z' }); // Monday 08:59 in Dubai
    const commands = rig.instance('a').commands();
    expect((await commands.handle(ctx(), 'add marina')).text).toMatch(/; the first on Mon 30 Nov\.$/);
    rig.clock.set('2026-11-30T05:00:00Z'); // Monday 09:00
    expect((await commands.handle(ctx(), 'add marina')).text).toMatch(/; the first on Mon 7 Dec\.$/);
    expect((await commands.handle(ctx(), 'add marina weekly on friday at 18:30')).text).toBe(
      'Saved digest #3: Dubai Marina, every Friday at 18:30 (Asia/Dubai); the first on Fri 4 Dec.',
    );
    expect((await commands.handle(ctx(), 'add business bay monthly')).text).toBe(
      'Saved digest #4: Business Bay, monthly, on the 1st, at 09:00 (Asia/Dubai); the first on Tue 1 Dec.',
    );
  });

  it.each([
    ['an unknown place', 'add atlantisville', /I couldn't find a place called "atlantisville"\..*Nothing was saved\./s],
    [
      'one unknown place among known ones',
      'add dubai marina, atlantisville',
      /I couldn't find a place called "atlantisville"/,
    ],
    ['no place', 'add daily', /Which places\?/],
    [
      'an hourly schedule',
      'add dubai marina hourly',
      /daily, weekly \(on a day\) or monthly, not "hourly"\. Nothing was saved\./,
    ],
    ['every hour', 'add dubai marina every hour', /not "every hour"\. Nothing was saved\./],
    [
      '25:00',
      'add dubai marina at 25:00',
      /"25:00" is not a time of day: say for example `at 09:00` or `at 6pm`\. Nothing was saved\./,
    ],
    ['too many places', 'add marina, business bay, jvc, jlt, palm jumeirah, downtown dubai', /at most 5 places/],
  ])(
    '%s: a friendly private answer, nothing saved, no upstream call for a schedule refused',
    async (_what, text, answer) => {
      const rig = await digestRig();
      const one = rig.instance('a');
      rig.sandbox.clearRequests();
      const reply = await one.commands().handle(ctx(), text);
      expect(reply.text).toMatch(answer);
      expect(reply.ephemeral).toBe(true);
      expect(reply.text).not.toMatch(/error|exception|undefined|\[object/i);
      expect(await one.repo.listByChannel('test:c1')).toEqual([]);
      if (/hour|25:00/.test(text)) expect(rig.upstream()).toBe(0);
    },
  );
});

describe('/digest list', () => {
  it('shows each with its areas, schedule, next time, last posted and cost per run, to the person only', async () => {
    const rig = await digestRig({ start: '2026-11-24T10:00:00Z' });
    const one = rig.instance('a');
    const commands = one.commands();
    expect((await commands.handle(ctx(), 'list')).text).toMatch(/^No digests in this channel yet\./);
    await commands.handle(ctx(), 'add dubai marina, business bay');
    await commands.handle(ctx('test:c1', 'U2'), 'add jvc daily at 07:30');
    const before = await commands.handle(ctx(), 'list');
    expect(before.ephemeral).toBe(true);
    expect(before.text.split('\n')).toEqual([
      'Digests in this channel (2):',
      '#1 · Dubai Marina, Business Bay · every Monday at 09:00 (Asia/Dubai) · next Mon 30 Nov 09:00 · not posted yet · about 20 calls a run · added by you',
      '#2 · Jumeirah Village Circle · daily at 07:30 (Asia/Dubai) · next Wed 25 Nov 07:30 · not posted yet · about 10 calls a run · added by U2',
    ]);

    // The daily one runs at its time; two hours later the list says when it was posted and what it really cost.
    rig.clock.set('2026-11-25T03:30:00Z');
    rig.sandbox.clearRequests();
    const report = await one.run();
    expect(report.queued).toBe(1);
    const calls = rig.upstream();
    expect(report.calls).toBe(calls);
    rig.clock.advance(2 * HOUR);
    const after = (await commands.handle(ctx(), 'list')).text.split('\n');
    expect(after[2]).toBe(
      `#2 · Jumeirah Village Circle · daily at 07:30 (Asia/Dubai) · next Thu 26 Nov 07:30 · last posted 2 hours ago · about ${calls} calls a run · added by U2`,
    );
    // Other channels' digests are not listed.
    expect((await commands.handle(ctx('test:c9'), 'list')).text).toMatch(/^No digests in this channel yet\./);
  });
});

describe('/digest remove, pause and resume', () => {
  it('only by its creator or an admin; a paused digest misses its slots and resumes from now, not late', async () => {
    const rig = await digestRig({ start: '2026-11-24T10:00:00Z' });
    const one = rig.instance('a');
    const commands = one.commands();
    await commands.handle(ctx('test:c1', 'U0ALICE'), 'add dubai marina daily at 09:00');
    for (const verb of ['pause', 'resume', 'remove']) {
      const refused = await commands.handle(ctx('test:c1', 'U0BOB'), `${verb} 1`);
      expect(refused.text).toBe(`Only the person who added digest #1, or a workspace or server admin, can ${verb} it.`);
      expect(refused.ephemeral).toBe(true);
    }
    expect((await one.repo.byNumber('test:c1', 1))!.paused).toBe(false);

    expect((await commands.handle(ctx('test:c1', 'U0CAROL', true), 'pause 1')).text).toBe(
      'Paused digest #1. `/digest resume 1` starts it again.',
    );
    expect((await commands.handle(ctx('test:c1', 'U0ALICE'), 'pause #1')).text).toBe('Digest #1 is already paused.');
    expect((await commands.handle(ctx(), 'list')).text).toMatch(
      /#1 · Dubai Marina · daily at 09:00 \(Asia\/Dubai\) · paused · not posted yet/,
    );

    // Paused over two due times: nothing is queued.
    for (const at of ['2026-11-25T05:00:00Z', '2026-11-26T05:00:00Z']) {
      rig.clock.set(at);
      expect((await one.run()).due).toBe(0);
    }
    expect(await rig.digests()).toHaveLength(0);

    // Resumed on the 26th at 10:00 local: the next is the 27th, the missed ones are not posted late.
    rig.clock.set('2026-11-26T06:00:00Z');
    expect((await commands.handle(ctx('test:c1', 'U0ALICE'), 'resume 1')).text).toBe(
      'Resumed digest #1; the next on Fri 27 Nov 09:00.',
    );
    expect((await one.run()).due).toBe(0);
    rig.clock.set('2026-11-27T05:00:00Z');
    expect((await one.run()).queued).toBe(1);
    expect((await rig.digests()).map((r) => r.dedupeKey)).toEqual([
      `digest:${(await one.repo.byNumber('test:c1', 1))!.id}:${Date.parse('2026-11-27T05:00:00Z')}`,
    ]);

    expect((await commands.handle(ctx('test:c1', 'U0ALICE'), 'remove 2')).text).toBe(
      'There is no digest #2 in this channel. See `/digest list`.',
    );
    expect((await commands.handle(ctx('test:c1', 'U0ALICE'), 'remove')).text).toMatch(/Which digest\? Give its number/);
    expect((await commands.handle(ctx('test:c1', 'U0ALICE'), 'remove 1')).text).toBe(
      'Removed digest #1 (Dubai Marina).',
    );
    expect(await one.repo.listByChannel('test:c1')).toEqual([]);
    // A number of another channel is not this channel's.
    await commands.handle(ctx('test:c2', 'U0BOB'), 'add jvc');
    expect((await commands.handle(ctx('test:c1', 'U0BOB'), 'remove 1')).text).toBe(
      'There is no digest #1 in this channel. See `/digest list`.',
    );
    expect(await one.repo.listByChannel('test:c2')).toHaveLength(1);
  });

  it('an admin check that fails counts as not an admin', async () => {
    const rig = await digestRig();
    const commands = rig.instance('a').commands();
    await commands.handle(ctx('test:c1', 'U0ALICE'), 'add marina');
    const reply = await commands.handle(
      { user: 'U0BOB', channel: 'test:c1', isAdmin: () => Promise.reject(new Error('users.info failed')) },
      'remove 1',
    );
    expect(reply.text).toMatch(/^Only the person who added digest #1/);
  });
});

describe('limits and numbers', () => {
  it('keeps to the per-channel limit with a clear message; other channels are not affected', async () => {
    const rig = await digestRig();
    const commands = rig.instance('a').commands({ perChannel: 2 });
    expect((await commands.handle(ctx(), 'add marina')).text).toMatch(/^Saved digest #1/);
    expect((await commands.handle(ctx('test:c1', 'U2'), 'add jvc')).text).toMatch(/^Saved digest #2/);
    const refused = await commands.handle(ctx('test:c1', 'U3'), 'add business bay');
    expect(refused.text).toBe(
      'This channel has 2 digests already, the most it can have. Remove one with `/digest remove <number>` first (see `/digest list`).',
    );
    expect(refused.ephemeral).toBe(true);
    expect((await commands.handle(ctx('test:c2', 'U3'), 'add business bay')).text).toMatch(/^Saved digest #1/);
  });

  it('never gives a number again, even after the highest is removed or all are', async () => {
    const rig = await digestRig();
    const commands = rig.instance('a').commands();
    for (const n of [1, 2, 3])
      expect((await commands.handle(ctx(), 'add marina')).text).toMatch(new RegExp(`^Saved digest #${n}:`));
    await commands.handle(ctx(), 'remove 3');
    expect((await commands.handle(ctx(), 'add marina')).text).toMatch(/^Saved digest #4:/);
    for (const n of [1, 2, 4]) await commands.handle(ctx(), `remove ${n}`);
    expect((await commands.handle(ctx(), 'list')).text).toMatch(/^No digests in this channel yet/);
    expect((await commands.handle(ctx(), 'add marina')).text).toMatch(/^Saved digest #5:/);
    // A restart (a new connection to the same file) keeps counting.
    const again = rig.instance('b').commands();
    await again.handle(ctx(), 'remove 5');
    expect((await again.handle(ctx(), 'add marina')).text).toMatch(/^Saved digest #6:/);
  });

  it('a digest removed with a digest still queued takes the undelivered one with it', async () => {
    const rig = await digestRig({ start: '2026-11-24T10:00:00Z' });
    const one = rig.instance('a');
    const commands = one.commands();
    await commands.handle(ctx(), 'add marina daily');
    rig.clock.set('2026-11-25T05:00:00Z');
    expect((await one.run()).queued).toBe(1);
    expect(await rig.digests()).toHaveLength(1);
    await commands.handle(ctx(), 'remove 1');
    expect(await rig.digests()).toHaveLength(0);
  });

  it('/digest help and an unknown subcommand answer with the commands, privately', async () => {
    const rig = await digestRig();
    const commands = rig.instance('a').commands();
    const help = await commands.handle(ctx(), 'help');
    expect(help.ephemeral).toBe(true);
    for (const verb of [
      '/digest add',
      '/digest list',
      '/digest pause',
      '/digest resume',
      '/digest remove',
      '/digest now',
    ])
      expect(help.text).toContain(verb);
    expect((await commands.handle(ctx(), 'frobnicate 2')).text).toMatch(/^I don't know "\/digest frobnicate"\./);
    // A minute later nothing changed: help saves nothing.
    rig.clock.advance(MINUTE);
    expect((await commands.handle(ctx(), 'list')).text).toMatch(/^No digests/);
  });
});
