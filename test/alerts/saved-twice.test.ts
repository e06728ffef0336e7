// The same search saved twice in a channel (a double click on "Save as alert", or other words for the same query) is
// one alert; and alerts saved for another property service (UAE_API_BASE_URL changed) are said plainly.
// The sandbox, the real client, a real SQLite file, the real alert commands.
import { describe, expect, it } from 'vitest';
import { Health } from '../../src/ops/health.js';
import { parseCommand } from '../../src/query/index.js';
import { alertsRig, ctx } from './helpers.js';

describe('saving the same search twice in a channel', () => {
  it('keeps one alert: the second answer says "already alert #1" and saves nothing, in the same or other words', async () => {
    const rig = await alertsRig();
    expect((await rig.commands.handle(ctx(), 'add rent marina 2br')).text).toMatch(/^Saved as alert #1:/);
    for (const again of ['rent marina 2br', 'rent marina 2 bed', 'rent 2 bedrooms in dubai marina']) {
      const reply = await rig.commands.handle(ctx('test:c1', 'U2'), `add ${again}`);
      expect(reply.text).toMatch(/already alert #1 in this channel: nothing new was saved/);
      expect(reply.ephemeral).toBe(true);
    }
    expect(await rig.repo.listByChannel('test:c1')).toHaveLength(1);
    // A different search is a new alert.
    expect((await rig.commands.handle(ctx(), 'add rent marina 3br')).text).toMatch(/^Saved as alert #2:/);
    expect(await rig.repo.listByChannel('test:c1')).toHaveLength(2);
  });

  it('a double click on "Save as alert" (two saves at once) makes one alert', async () => {
    const rig = await alertsRig();
    const parsed = parseCommand('rent marina 2br');
    if (!parsed.ok) throw new Error(parsed.error);
    const replies = await Promise.all([
      rig.commands.save(ctx(), parsed.query, undefined),
      rig.commands.save(ctx(), parsed.query, undefined),
    ]);
    expect(replies.map((r) => r.text).sort()).toEqual(
      [expect.stringMatching(/^Saved as alert #1:/), expect.stringMatching(/already alert #1/)].sort(),
    );
    expect(await rig.repo.listByChannel('test:c1')).toHaveLength(1);
  });

  it('when that alert is paused, offers `/alerts resume 1`', async () => {
    const rig = await alertsRig();
    await rig.commands.handle(ctx(), 'add rent marina 2br');
    expect((await rig.commands.handle(ctx(), 'pause 1')).text).toMatch(/Paused alert #1/);
    const reply = await rig.commands.handle(ctx(), 'add rent marina 2 bed');
    expect(reply.text).toMatch(/already alert #1 in this channel, paused\. `\/alerts resume 1` starts it again/);
    expect(await rig.repo.listByChannel('test:c1')).toHaveLength(1);
    expect((await rig.repo.byNumber('test:c1', 1))?.paused).toBe(true);
  });

  it('another channel can save the same search', async () => {
    const rig = await alertsRig();
    await rig.commands.handle(ctx('test:c1'), 'add rent marina 2br');
    expect((await rig.commands.handle(ctx('test:c2'), 'add rent marina 2br')).text).toMatch(/^Saved as alert #1:/);
    expect(await rig.repo.listByChannel('test:c2')).toHaveLength(1);
    expect(await rig.repo.count(rig.service)).toBe(2);
  });
});

describe('alerts saved for another property service', () => {
  it('are counted and said in /alerts list of their channel, and counted by /healthz; they do not block saving the search again', async () => {
    const rig = await alertsRig();
    await rig.commands.handle(ctx(), 'add rent marina 2br');
    const [mine] = await rig.repo.listByChannel('test:c1');
    const old = 'https://old-property-service.example';
    for (const [channel, number] of [
      ['test:c1', 0],
      ['test:c1', 1],
      ['test:c2', 0],
    ] as const) {
      const created = await rig.repo.create(
        {
          service: old,
          channel,
          owner: 'U9',
          text: `old ${number}`,
          query: mine!.query,
          operation: mine!.operation,
          paramsKey: number === 0 ? mine!.paramsKey : `${mine!.paramsKey}&n=${number}`,
          summary: `old search ${number}`,
        },
        { perChannel: 25, perOwner: 10 },
      );
      expect(created.ok).toBe(true);
    }
    expect(await rig.repo.countElsewhere(rig.service)).toBe(3);
    expect(await rig.repo.countElsewhere(rig.service, 'test:c1')).toBe(2);

    const list = (await rig.commands.handle(ctx('test:c1'), 'list')).text;
    expect(list).toMatch(/Alerts in this channel \(3\)/);
    expect(list).toMatch(
      /2 of these were saved for another property service than the one configured \(UAE_API_BASE_URL changed\) and are not checked/,
    );
    expect(list.split('\n').filter((l) => /not checked: another property service/.test(l))).toHaveLength(2);
    expect((await rig.commands.handle(ctx('test:c2'), 'list')).text).toMatch(
      /1 of these was saved for another property service/,
    );
    // Saving it again, as the note says, works: the old one (same query, another service) does not count as the same.
    expect((await rig.commands.handle(ctx('test:c2'), 'add rent marina 2br')).text).toMatch(/^Saved as alert #2:/);
    await rig.repo.remove((await rig.repo.byNumber('test:c2', 2))!.id);

    // The poller runs only this service's alert.
    expect((await rig.repo.due(rig.service, Date.now() + 86_400_000)).map((s) => s.id)).toEqual([mine!.id]);

    // /healthz counts them (as main wires it).
    const health = new Health({
      probe: async () => {},
      poller: {
        lastRun: async () => undefined,
        alerts: async () => rig.repo.count(rig.service),
        elsewhere: async () => rig.repo.countElsewhere(rig.service),
      },
      maxPollerAgeMs: 3_600_000,
      upstream: { sandbox: true, budgetLeft: () => ({ blockedForMs: 0 }) },
      stopping: () => false,
      startedAt: Date.now(),
    });
    expect((await health.check()).checks.poller).toMatchObject({ alerts: 1, otherServiceAlerts: 3 });
  });
});
