// Words in and out in alerts (issue 40), against the sandbox's market clock, the real client and a real SQLite file:
// alerts of one query with different words share its one fetch a run, and each posts only the listings its words keep;
// the words are said in the alert's summary and in /alerts list, and make another alert rather than "already saved".
import { describe, expect, it } from 'vitest';
import { alertsRig, ctx } from './helpers.js';

const titleOf = (payload: string) => (JSON.parse(payload) as { listing: { title: string } }).listing.title;

describe('alerts with words in and out', () => {
  it('two alerts of the same query with different words share one fetch, and each gets only its listings', async () => {
    const rig = await alertsRig();
    expect((await rig.commands.handle(ctx('test:c1'), 'add rent marina -studio')).text).toMatch(
      /^Saved as alert #1: .*without "studio"/,
    );
    expect((await rig.commands.handle(ctx('test:c2'), 'add rent marina +studio')).text).toMatch(
      /^Saved as alert #1: .*with "studio"/,
    );
    const [one] = await rig.repo.listByChannel('test:c1');
    const [two] = await rig.repo.listByChannel('test:c2');
    expect(one!.paramsKey).toBe(two!.paramsKey);

    const posted = { c1: [] as string[], c2: [] as string[] };
    for (let run = 0; run < 12 && (posted.c1.length === 0 || posted.c2.length === 0); run++) {
      rig.sandbox.advance(240);
      const before = rig.sandbox.requests().length;
      const report = await rig.poll();
      // One query for both alerts: every call of the run asked the same search.
      expect(report).toMatchObject({ searches: 2, queries: 1 });
      const asked = rig.sandbox
        .requests()
        .slice(before)
        .filter((r) => r.path === '/search-rent');
      expect(asked.length).toBe(report.calls);
      expect(new Set(asked.map((r) => JSON.stringify({ ...r.params, page: undefined }))).size).toBe(1);
      for (const d of await rig.outbox.list({ state: 'pending' })) {
        if (d.kind !== 'new') continue;
        (d.channel === 'test:c1' ? posted.c1 : posted.c2).push(titleOf(d.payload));
      }
      await rig.drainer.drain();
    }
    expect(posted.c1.length).toBeGreaterThan(0);
    expect(posted.c2.length).toBeGreaterThan(0);
    for (const t of posted.c1) expect(t.toLowerCase()).not.toContain('studio');
    for (const t of posted.c2) expect(t.toLowerCase()).toContain('studio');
  });

  it('/alerts list shows the words; the same query with other words is another alert, with the same words the same', async () => {
    const rig = await alertsRig();
    await rig.commands.handle(ctx(), 'add rent marina 2br');
    expect((await rig.commands.handle(ctx(), 'add rent marina 2br -shared -"bed space"')).text).toMatch(
      /^Saved as alert #2:/,
    );
    expect((await rig.commands.handle(ctx(), 'add rent marina 2br without shared, no "bed space"')).text).toMatch(
      /already alert #2 in this channel/,
    );
    const list = (await rig.commands.handle(ctx(), 'list')).text;
    expect(list).toMatch(/#2 · 2-bedroom homes for rent in Dubai Marina, without "shared" or "bed space"/);
    expect(list).toMatch(/#1 · 2-bedroom homes for rent in Dubai Marina · /);
    // Kept across a restart: the words are stored with the alert.
    const again = await rig.reopen().commands.handle(ctx(), 'list');
    expect(again.text).toContain('without "shared" or "bed space"');
  });
});
