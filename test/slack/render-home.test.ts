// The Home tab's view within Slack's limits: at most 100 blocks however many orders a person has (the rest counted,
// with the command that lists them), every block valid as the fake Slack checks a view.
import { describe, expect, it } from 'vitest';
import { renderHome } from '../../adapters/slack/render-home.js';
import type { HomeItem } from '../../src/ports/index.js';
import { checkSlackHomeView } from '../fakes/slack-limits.js';

const item = (kind: HomeItem['kind'], id: number, o: Partial<HomeItem> = {}): HomeItem => ({
  kind,
  id,
  number: id,
  title: `Homes for rent in Dubai Marina ${'with a long description '.repeat(20)}`,
  target: 'slack:T1:C1',
  personal: false,
  schedule: 'instant',
  paused: false,
  word: 'active',
  state: 'active',
  lastPost: 'nothing posted yet',
  ...o,
});

const texts = (view: ReturnType<typeof renderHome>) => JSON.stringify(view.blocks);

describe('the Home tab view', () => {
  it('holds 80 alerts and 30 digests in 100 blocks, and says how many more and where to see them', () => {
    const alerts = Array.from({ length: 80 }, (_, i) => item('alert', i + 1));
    const digests = Array.from({ length: 30 }, (_, i) => item('digest', 100 + i));
    const view = renderHome({ alerts, digests }, { firstVisit: true, notice: 'Paused alert #3 (Homes for rent).' });
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    expect(view.blocks.length).toBeGreaterThan(90);
    expect(checkSlackHomeView(view)).toEqual([]);
    const shown = view.blocks.filter((b) => b.type === 'actions').length - 1;
    expect(texts(view)).toMatch(/…and \d+ more alerts, see `\/alerts list`\./);
    expect(texts(view)).toMatch(/…and 30 more digests, see `\/digest list`\./);
    const more = Number(/…and (\d+) more alerts/.exec(texts(view))![1]);
    expect(shown + more).toBe(80);
  });

  it('marks a paused one with Resume, a personal one "to me", and an empty kind as none yet', () => {
    const view = renderHome({
      alerts: [
        item('alert', 7, { paused: true, word: 'paused', state: 'paused', personal: true, target: 'slack:T1:@U1' }),
      ],
      digests: [],
    });
    expect(checkSlackHomeView(view)).toEqual([]);
    expect(texts(view)).toMatch(/to me · instant · ⏸️ paused/);
    expect(texts(view)).toContain('"action_id":"manzil:home:resume:alert:7"');
    expect(texts(view)).toContain(
      '"action_id":"manzil:form:edit:alert","text":{"type":"plain_text","text":"Edit"},"value":"7"',
    );
    expect(texts(view)).toContain('No digests yet.');
    expect(texts(view)).not.toContain('Try this');
  });

  it('is refused by the fake when over 100 blocks or not a home view', () => {
    const blocks = Array.from({ length: 101 }, () => ({ type: 'divider' }));
    expect(checkSlackHomeView({ type: 'home', blocks })).toEqual(['view.blocks: at most 100 blocks (got 101)']);
    expect(checkSlackHomeView({ type: 'modal', blocks: [] })).toEqual(['view.type: must be home']);
  });
});
