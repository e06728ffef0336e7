// A chart on Slack: the PNG (uploaded, shown by an image block) and, beside it, Slack's own line chart with the values
// the PNG draws, as src/charts/data.ts cleaned them, within the data_visualization block's limits.
import { describe, expect, it } from 'vitest';
import { chartMessages, renderSlack, renderSlackWithCharts } from '../../adapters/slack/render.js';
import { renderTrendChart } from '../../src/charts/index.js';
import { clean, monthLabel, type TrendSeries } from '../../src/charts/data.js';
import { imageOf } from '../../src/digests/compose.js';
import { sendWithCharts } from '../../adapters/slack/charts.js';
import { checkSlackMessage } from '../fakes/slack-limits.js';

const months = (n: number) =>
  Array.from({ length: n }, (_, i) => `${2024 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`);
const series = (name: string, n: number, base: number): TrendSeries => ({
  name,
  points: months(n).map((month, i) => ({ month, value: base + i * 13.25 })),
});

type Viz = {
  type: string;
  title: string;
  chart: {
    type: string;
    series: { name: string; data: { label: string; value: number }[] }[];
    axis_config: { categories: string[]; y_label?: string };
  };
};

async function slackChart(input: TrendSeries[], title = 'AED per sqft in Dubai Marina') {
  const chart = await renderTrendChart({ title, series: input, yLabel: 'AED per sqft', xLabel: 'Month' });
  const image = imageOf(chart, 'digest.png', title, 'text', { yLabel: 'AED per sqft', xLabel: 'Month' })!;
  const message = renderSlack({ text: 'Market digest', blocks: [{ kind: 'image', image }] });
  return { message, viz: message.blocks.find((b) => b.type === 'data_visualization') as unknown as Viz };
}

describe('a chart as a data_visualization block on Slack', () => {
  it('carries the values the PNG draws, month by month and series by series, beside the picture', async () => {
    const input = [series('Studio', 12, 1650), series('1 bed', 12, 1800), series('2 beds', 10, 2100)];
    const { message, viz } = await slackChart(input);
    expect(checkSlackMessage(message)).toEqual([]);
    const drawn = clean(input);
    expect(viz.title).toBe('AED per sqft in Dubai Marina');
    expect(viz.chart.type).toBe('line');
    expect(viz.chart.axis_config.categories).toEqual(drawn.months.map(monthLabel));
    expect(viz.chart.axis_config.y_label).toBe('AED per sqft');
    expect(viz.chart.series).toEqual(
      drawn.series.map((s) => ({
        name: s.name,
        data: s.points.map((p) => ({ label: monthLabel(p.month), value: p.value })),
      })),
    );
    // The picture's own block (its text here; the uploaded file when sent) follows it.
    expect(message.blocks.map((b) => b.type)).toEqual(['data_visualization', 'section']);
  });

  it('keeps within 6 series, 20 points of the latest months, 20-character names and a 50-character title', async () => {
    const input = Array.from({ length: 8 }, (_, i) => series(`A very long area name number ${i}`, 30, 1000 + i));
    const { message, viz } = await slackChart(input, 'AED per sqft in a place whose name is far too long to fit');
    expect(checkSlackMessage(message)).toEqual([]);
    expect(viz.title.length).toBeLessThanOrEqual(50);
    expect(viz.chart.series).toHaveLength(6);
    expect(new Set(viz.chart.series.map((s) => s.name)).size).toBe(6);
    const drawn = clean(input);
    const last = drawn.months.slice(-20);
    expect(viz.chart.axis_config.categories).toEqual(last.map(monthLabel));
    expect(viz.chart.series[0]!.data.map((d) => d.value)).toEqual(
      drawn.series[0]!.points.filter((p) => last.includes(p.month)).map((p) => p.value),
    );
  });

  it('draws two charts at most in one message; the others keep their picture', async () => {
    const chart = await renderTrendChart({ title: 'T', series: [series('Studio', 6, 1000)], yLabel: 'AED' });
    const image = imageOf(chart, 'c.png', 'T', 'text')!;
    const message = renderSlack({ text: 'x', blocks: [1, 2, 3].map(() => ({ kind: 'image' as const, image })) });
    expect(checkSlackMessage(message)).toEqual([]);
    expect(message.blocks.filter((b) => b.type === 'data_visualization')).toHaveLength(2);
  });
});

describe('charts that have no room in the message', () => {
  it('never push it past 50 blocks or its text out: they are handed back for a follow-up, two a message', async () => {
    const chart = await renderTrendChart({ title: 'T', series: [series('Studio', 6, 1000)], yLabel: 'AED' });
    const image = (title: string) => imageOf(chart, `${title}.png`, title, 'text')!;
    const text = Array.from({ length: 45 }, (_, i) => ({ kind: 'text' as const, text: `Line ${i}` }));
    const reply = {
      text: 'Market digest: Dubai Marina',
      blocks: [...['A', 'B', 'C', 'D'].map((t) => ({ kind: 'image' as const, image: image(t) })), ...text],
    };
    const out = renderSlackWithCharts(reply);
    expect(checkSlackMessage(out)).toEqual([]);
    expect(out.blocks).toHaveLength(50);
    // Every line of text stays; one chart had room.
    expect(out.blocks.filter((b) => b.type === 'section')).toHaveLength(4 + 45);
    expect(out.blocks.filter((b) => b.type === 'data_visualization').map((b) => (b as Viz).title)).toEqual(['A']);
    expect(out.undrawn.map((c) => c.title)).toEqual(['B', 'C', 'D']);
    const followUps = chartMessages(out.undrawn, reply.text);
    expect(followUps.map((m) => m.blocks.filter((b) => b.type === 'data_visualization').length)).toEqual([2, 1]);
    for (const m of followUps) {
      expect(checkSlackMessage(m)).toEqual([]);
      expect(m.text).toMatch(/^Charts of Market digest: Dubai Marina: /);
    }
  });
});

describe('sending a reply whose native charts have no room', () => {
  it('posts the message, then its follow-ups; a refused follow-up is logged and never fails the delivery', async () => {
    const chart = await renderTrendChart({ title: 'T', series: [series('Studio', 6, 1000)], yLabel: 'AED' });
    const image = (title: string) => imageOf(chart, `${title}.png`, title, 'text')!;
    const text = Array.from({ length: 46 }, (_, i) => ({ kind: 'text' as const, text: `Line ${i}` }));
    const reply = {
      text: 'Market digest',
      blocks: [...['A', 'B', 'C'].map((t) => ({ kind: 'image' as const, image: image(t) })), ...text],
    };
    const sent: string[] = [];
    const logged: string[] = [];
    const result = await sendWithCharts(
      reply,
      async (p) => {
        sent.push(`message of ${p.blocks?.length} blocks`);
        return 'ts-1';
      },
      {
        log: (message) => logged.push(message),
        upload: async (i) => ({ kind: 'uploaded', fileId: `F${i.title}` }),
        mayBeUnreadyFile: () => false,
        fileReadyWaitsMs: [],
        followUp: async (p) => {
          sent.push(`follow-up: ${p.text}`);
          throw new Error('ratelimited');
        },
      },
    );
    expect(result).toBe('ts-1');
    // 3 pictures and 46 lines: one native chart had room; the other two follow, and the refusal stops there.
    expect(sent).toEqual(['message of 50 blocks', 'follow-up: Charts of Market digest: B, C']);
    expect(logged).toEqual(['slack: a follow-up with charts was refused; their pictures are in the message']);
  });
});
